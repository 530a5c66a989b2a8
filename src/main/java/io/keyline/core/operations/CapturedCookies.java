package io.keyline.core.operations;

import io.keyline.core.CredentialTester;
import io.keyline.credentials.Cookie;
import io.keyline.credentials.CookieScope;
import io.keyline.credentials.ParsedCredential;

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
        String notTaken = others.isEmpty() ? "" : "Not taken (used during the login only): " + others.entrySet()
                .stream().map(e -> e.getValue() + (e.getValue() == 1 ? " cookie of " : " cookies of ") + e.getKey())
                .reduce((a, b) -> a + ", " + b).orElse("") + ".";
        String domains = String.join(", ", scope.domains());
        if (mine.isEmpty()) {
            return new CapturedCookies(mine, "", notTaken, "No cookie of " + domains + " yet: log in on the page below.");
        }
        ParsedCredential p = ParsedCredential.ofCookies(mine);
        return new CapturedCookies(mine, p.fingerprint(), notTaken, "Captured " + mine.size()
                + (mine.size() == 1 ? " cookie" : " cookies") + " of " + domains + " · fingerprint " + p.fingerprint()
                + p.earliestExpiry().map(t -> " · earliest expiry " + EvidenceText.time(t)).orElse(" · session cookies")
                + ". Use them, or go on logging in.");
    }

    /**
     * What the window says once it knows the credential: where to log in and whose cookies are taken, or,
     * when no login page is stored ({@code pageKnown} false), that it needs the address.
     */
    public static String loginText(String credential, CookieScope scope, boolean pageKnown) {
        return pageKnown ? "Log in on the site's page below. Cookies of " + String.join(", ", scope.domains())
                + " will be taken; others are used during the login only."
                : "No login page is stored for " + credential + ": enter the address where you log in.";
    }

    /** What the window says when the captured cookies go to the save path. */
    public static String usingText(String credential, String fingerprint) {
        return "Using the captured cookies for " + credential + " (fingerprint " + fingerprint
                + "): the outcome shows below. You can close this window.";
    }

    /**
     * One sentence over a read-only test of captured cookies (none stored), strict: "The captured cookies:
     * Accepted: …", "… Rejected: …" or "… Inconclusive: …" ({@link LoginCheck}).
     */
    public static String testSummary(List<CredentialTester.Result> results) {
        return "The captured cookies: " + LoginCheck.summary(results);
    }
}
