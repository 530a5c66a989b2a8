package io.keyline.core.operations;

import io.keyline.core.CredentialTester;
import io.keyline.core.CredentialTester.Result;
import io.keyline.core.CredentialTester.Verdict;
import io.keyline.credentials.Cookie;
import io.keyline.credentials.CookieScope;
import io.keyline.credentials.ParsedCredential;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What the login window captured: the scope's cookies and the sentences about them (no value in any text). */
class CapturedCookiesTest {

    private static final CookieScope SCOPE = CookieScope.of("https://login.example.org/", List.of(
            "https://api.shop.test/items"));
    private static final Instant LATER = Instant.parse("2030-01-02T03:04:05Z");

    private static Cookie cookie(String name, String value, String domain, Instant expires) {
        return new Cookie(name, value, domain, true, "/", true, true, expires);
    }

    @Test
    void theScopesCookiesAreTakenSortedAndTheOthersCountedPerDomain() {
        Cookie b = cookie("sid", "secret-b", "example.org", LATER);
        Cookie a = cookie("auth", "secret-a", "api.shop.test", null);
        Cookie c = cookie("csrf", "secret-c", "example.org", null);
        List<Cookie> jar = List.of(b, cookie("x", "v1", "idp.other.net", null), a,
                cookie("y", "v2", "idp.other.net", null), cookie("t", "v3", "cdn.test", null), c);

        CapturedCookies got = CapturedCookies.of(SCOPE, jar);

        assertThat(got.taken()).containsExactly(a, c, b);
        assertThat(got.fingerprint()).isEqualTo(ParsedCredential.ofCookies(List.of(a, c, b)).fingerprint())
                .isNotEmpty();
        assertThat(got.notTaken()).isEqualTo("Not taken (used during the login only): 1 cookie of cdn.test, "
                + "2 cookies of idp.other.net.");
        assertThat(got.status()).isEqualTo("Captured 3 cookies of " + String.join(", ", SCOPE.domains())
                + " · fingerprint " + got.fingerprint() + " · earliest expiry " + EvidenceText.time(LATER)
                + ". Use them, or go on logging in.");
        assertThat(got.status() + got.notTaken()).doesNotContain("secret").doesNotContain("v1");
    }

    @Test
    void sessionCookiesAndNothingYet() {
        Cookie a = cookie("auth", "secret-a", "example.org", null);
        CapturedCookies one = CapturedCookies.of(SCOPE, List.of(a));
        assertThat(one.status()).contains("Captured 1 cookie of ").endsWith(" · session cookies. Use them, or go "
                + "on logging in.");
        assertThat(one.notTaken()).isEmpty();

        CapturedCookies none = CapturedCookies.of(SCOPE, List.of(cookie("x", "v", "other.net", null)));
        assertThat(none.taken()).isEmpty();
        assertThat(none.fingerprint()).isEmpty();
        assertThat(none.status()).isEqualTo("No cookie of example.org, api.shop.test yet: log in on the page below.");
        assertThat(none.notTaken()).isEqualTo("Not taken (used during the login only): 1 cookie of other.net.");
    }

    @Test
    void theSameCookiesGiveTheSameFingerprintInAnyOrder() {
        Cookie a = cookie("auth", "secret-a", "example.org", null);
        Cookie b = cookie("sid", "secret-b", "example.org", null);
        assertThat(CapturedCookies.of(SCOPE, List.of(a, b)).fingerprint())
                .isEqualTo(CapturedCookies.of(SCOPE, List.of(b, a)).fingerprint());
        assertThat(CapturedCookies.of(SCOPE, List.of(a)).fingerprint())
                .isNotEqualTo(CapturedCookies.of(SCOPE, List.of(a, b)).fingerprint());
    }

    @Test
    void theWindowsSentences() {
        assertThat(CapturedCookies.loginText("shop", SCOPE, true)).isEqualTo("Log in on the site's page below. "
                + "Cookies of example.org, api.shop.test will be taken; others are used during the login only.");
        assertThat(CapturedCookies.loginText("shop", SCOPE, false))
                .isEqualTo("No login page is stored for shop: enter the address where you log in.");
        assertThat(CapturedCookies.usingText("shop", "ab12")).isEqualTo("Using the captured cookies for shop "
                + "(fingerprint ab12): the outcome shows below. You can close this window.");
    }

    private static Result r(Verdict v) {
        return new Result("daily", "publish", v, null);
    }

    @Test
    void aTestOfCapturedCookiesInOneSentenceWithTheStrictVerdict() {
        assertThat(CapturedCookies.testSummary(List.of())).isEqualTo("The captured cookies: Inconclusive: no job "
                + "that uses this login has a request that can tell whether the site accepts it.");
        assertThat(CapturedCookies.testSummary(List.of(r(Verdict.NOT_TESTED))))
                .startsWith("The captured cookies: Inconclusive: no job");
        assertThat(CapturedCookies.testSummary(List.of(r(Verdict.ACCEPTED), r(Verdict.REJECTED))))
                .as("one answer showing the login page outweighs any acceptance")
                .isEqualTo("The captured cookies: Rejected: 1 of 2 answers showed the site's login page or refused "
                        + "the login. Log in again.");
        assertThat(CapturedCookies.testSummary(List.of(r(Verdict.ACCEPTED), r(Verdict.NOT_TESTED))))
                .isEqualTo("The captured cookies: Accepted: the site answered 1 request as for someone logged in, "
                        + "and none showed its login page.");
        assertThat(CapturedCookies.testSummary(List.of(r(Verdict.ACCEPTED), r(Verdict.ACCEPTED))))
                .isEqualTo("The captured cookies: Accepted: the site answered 2 requests as for someone logged in, "
                        + "and none showed its login page.");
        assertThat(CapturedCookies.testSummary(List.of(r(CredentialTester.Verdict.NO_ANSWER))))
                .isEqualTo("The captured cookies: Inconclusive: the site's answers did not tell whether it accepts "
                        + "this login.");
    }
}
