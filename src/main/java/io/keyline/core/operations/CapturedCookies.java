package io.keyline.core.operations;

import io.keyline.core.CredentialTester;
import io.keyline.credentials.Cookie;
import io.keyline.credentials.CookieScope;
import io.keyline.credentials.ParsedCredential;
import io.keyline.text.Text;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a login window captured: the cookies of the credential's scope (sorted by domain and
 * name) and, per domain, how many others the login set, with the sentences the window shows about them.
 * Pure: the cookies are only split and counted; no value ever appears in a text. (Here rather than on
 * {@code core.LoginCapture} because it words times as {@link EvidenceText#time} does, and {@code core}
 * must not depend on {@code core.operations}.)
 *
 * @param taken       the cookies of the scope, sorted by domain (none first), then name
 * @param fingerprint their fingerprint, or empty when there is none
 * @param notTaken    "Not taken (used during the login only): 2 cookies of idp.example.net.", or empty
 * @param status      "Captured 2 cookies of example.org · fingerprint … · earliest expiry …", or that none is yet
 */
public record CapturedCookies(List<Cookie> taken, String fingerprint, String notTaken, String status) {

    public CapturedCookies {
        taken = List.copyOf(taken);
    }

    /** Splits the window's jar {@code all} into the cookies {@code scope} takes and the others. */
    public static CapturedCookies of(CookieScope scope, List<Cookie> all) {
        List<Cookie> mine = new ArrayList<>();
        Map<String, Integer> others = new TreeMap<>();
        for (Cookie c : all) {
            if (scope.takes(c)) {
                mine.add(c);
            } else {
                others.merge(c.domain() == null ? "?" : c.domain(), 1, Integer::sum);
            }
        }
        mine.sort(Comparator.comparing(Cookie::domain, Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparing(Cookie::name));
        String notTaken = others.isEmpty() ? "" : Text.t("core.captured.notTaken", String.join(", ", others.entrySet()
                .stream().map(e -> Text.t("core.captured.cookiesOf", e.getValue(), e.getKey())).toList()));
        String domains = String.join(", ", scope.domains());
        if (mine.isEmpty()) {
            return new CapturedCookies(mine, "", notTaken, Text.t("core.captured.none", domains));
        }
        ParsedCredential p = ParsedCredential.ofCookies(mine);
        String expiry = p.earliestExpiry().map(t -> Text.t("core.captured.earliestExpiry", EvidenceText.time(t)))
                .orElseGet(() -> Text.t("core.captured.sessionCookies"));
        return new CapturedCookies(mine, p.fingerprint(), notTaken, Text.t("core.captured.status", mine.size(), domains,
                p.fingerprint(), expiry));
    }

    /**
     * What the window says once it knows the credential: where to log in and whose cookies are taken, or,
     * when no login page is stored ({@code pageKnown} false), that it needs the address.
     */
    public static String loginText(String credential, CookieScope scope, boolean pageKnown) {
        return pageKnown ? Text.t("core.captured.logIn", String.join(", ", scope.domains()))
                : Text.t("core.captured.noPage", credential);
    }

    /** What the window says when the captured cookies go to the save path. */
    public static String usingText(String credential, String fingerprint) {
        return Text.t("core.captured.using", credential, fingerprint);
    }

    /**
     * One sentence over a read-only test of captured cookies (none stored), strict: "The captured cookies:
     * Accepted: …", "… Rejected: …" or "… Inconclusive: …" ({@link LoginCheck}).
     */
    public static String testSummary(List<CredentialTester.Result> results) {
        return Text.t("core.captured.test", LoginCheck.summary(results));
    }
}
