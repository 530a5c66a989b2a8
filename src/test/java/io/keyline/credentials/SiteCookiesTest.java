package io.keyline.credentials;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Cookies a site sets on its answers, applied to a stored cookie credential as a browser would. */
class SiteCookiesTest {

    static final Instant NOW = Instant.parse("2026-11-29T09:00:00Z");
    static final URI PAGE = URI.create("https://wiki.example.org/doku.php?id=start");

    static ParsedCredential stored(String line) {
        return CredentialParser.parse(CredentialType.COOKIE, line, null);
    }

    static Cookie cookie(ParsedCredential c, String name) {
        return c.cookies().stream().filter(k -> k.name().equals(name)).findFirst().orElse(null);
    }

    @Test
    void aRotatedValueReplacesTheStoredOneAndANewSessionIsAddedForTheHost() {
        ParsedCredential before = stored("Cookie: DWremember=old1; lang=en");
        ParsedCredential after = SiteCookies.apply(before, PAGE, List.of(
                "DWremember=new2; Path=/; Max-Age=3600; HttpOnly", "DokuWiki=sid9; Path=/; HttpOnly"), NOW).orElseThrow();
        assertThat(cookie(after, "DWremember").value()).isEqualTo("new2");
        assertThat(cookie(after, "DWremember").domain()).as("kept as stored (any host of the steps)").isNull();
        assertThat(cookie(after, "DWremember").expires()).isEqualTo(NOW.plusSeconds(3600));
        assertThat(cookie(after, "DokuWiki").domain()).isEqualTo("wiki.example.org");
        assertThat(cookie(after, "DokuWiki").includeSubdomains()).isFalse();
        assertThat(cookie(after, "lang").value()).isEqualTo("en");
        assertThat(after.fingerprint()).isNotEqualTo(before.fingerprint());
    }

    @Test
    void aSettingTheSiteSetsAgainIsNoLoginChangeButARotatedOrExtendedSessionOrARemovedCookieIs() {
        ParsedCredential before = stored("Cookie: wordpress_logged_in_x=admin%7C1; lang=en");
        ParsedCredential settings = SiteCookies.apply(before, PAGE, List.of(
                "wp-settings-time-1=1796600001; Max-Age=31536000; path=/"), NOW).orElseThrow();
        ParsedCredential again = SiteCookies.apply(settings, PAGE, List.of(
                "wp-settings-time-1=1796600002; Max-Age=31536000; path=/"), NOW.plusSeconds(60)).orElseThrow();
        assertThat(SiteCookies.loginChanged(before, settings)).as("a setting added").isFalse();
        assertThat(SiteCookies.loginChanged(settings, again)).as("a setting set again").isFalse();

        ParsedCredential session = SiteCookies.apply(again, PAGE, List.of("sid=s1; Path=/; HttpOnly"), NOW)
                .orElseThrow();
        ParsedCredential rotated = SiteCookies.apply(session, PAGE, List.of("sid=s2; Path=/; HttpOnly"), NOW)
                .orElseThrow();
        ParsedCredential extended = SiteCookies.apply(rotated, PAGE, List.of("sid=s2; Path=/; Max-Age=60; HttpOnly"),
                NOW).orElseThrow();
        ParsedCredential removed = SiteCookies.apply(extended, PAGE, List.of("lang=; Max-Age=0"), NOW).orElseThrow();
        assertThat(SiteCookies.loginChanged(again, session)).as("a session added").isTrue();
        assertThat(SiteCookies.loginChanged(session, rotated)).as("a session rotated").isTrue();
        assertThat(SiteCookies.loginChanged(rotated, extended)).as("its expiry moved").isTrue();
        assertThat(SiteCookies.loginChanged(extended, removed)).as("a cookie removed").isTrue();
    }

    @Test
    void anExpiredCookieIsRemovedAndOtherDomainsAreIgnored() {
        ParsedCredential before = stored("Cookie: a=1; b=2");
        ParsedCredential after = SiteCookies.apply(before, PAGE, List.of("a=gone; Max-Age=0",
                "b=2; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/",
                "tracker=x; Domain=ads.example.net", "wide=x; Domain=org", "parent=p; Domain=.example.org"), NOW)
                .orElseThrow();
        assertThat(cookie(after, "a")).isNull();
        assertThat(cookie(after, "tracker")).isNull();
        assertThat(cookie(after, "wide")).as("a public suffix").isNull();
        assertThat(cookie(after, "parent").domain()).isEqualTo("example.org");
        assertThat(cookie(after, "b")).as("expired by Expires in the past").isNull();
    }

    @Test
    void nothingChangesForTheSameValuesAndACredentialIsNeverEmptied() {
        ParsedCredential before = stored("Cookie: a=1");
        assertThat(SiteCookies.apply(before, PAGE, List.of("a=1"), NOW)).isEmpty();
        assertThat(SiteCookies.apply(before, PAGE, List.of("a=; Max-Age=0"), NOW)).isEmpty();
        assertThat(SiteCookies.apply(ParsedCredential.ofToken("t0ken"), PAGE, List.of("a=2"), NOW)).isEmpty();
        assertThat(SiteCookies.apply(before, PAGE, List.of("=nameless", "bad name=1"), NOW)).isEmpty();
    }

    @Test
    void aValueARequestCouldNotSendBackIsNotKept() {
        // the client reads an answer's header bytes as Latin-1 and writes a request's in ASCII: a value with a
        // byte above 127 or a control character could only come back as '?', or not at all
        ParsedCredential before = stored("Cookie: a=1");
        assertThat(SiteCookies.apply(before, PAGE, List.of("a=caf\u00c3\u00a9", "b=x\u0001y", "c=\u65e5"), NOW))
                .isEmpty();
    }

    @Test
    void aSiteCannotGrowTheCredentialPastWhatABrowserKeeps() {
        ParsedCredential before = stored("Cookie: a=1");
        List<String> flood = java.util.stream.IntStream.range(0, 5000).mapToObj(i -> "c" + i + "=v" + i + "; Path=/")
                .toList();
        ParsedCredential after = SiteCookies.apply(before, PAGE, flood, NOW).orElseThrow();
        assertThat(after.cookies()).hasSize(SiteCookies.MAX_COOKIES);
        assertThat(cookie(after, "a").value()).as("what the operator stored stays").isEqualTo("1");
        ParsedCredential rotated = SiteCookies.apply(after, PAGE, List.of("a=2", "c0=new", "more=1"), NOW).orElseThrow();
        assertThat(cookie(rotated, "a").value()).as("a full credential still follows its cookies").isEqualTo("2");
        assertThat(cookie(rotated, "c0").value()).isEqualTo("new");
        assertThat(cookie(rotated, "more")).isNull();
    }

    @Test
    void setCookieReadsItsAttributesAndMasksItsValue() {
        SetCookie c = SetCookie.parse("sid=\"s3cret\"; Domain=.Example.org; Path=/app; Secure; HttpOnly; "
                + "Expires=Wed, 09 Jun 2027 10:18:14 GMT; SameSite=Lax");
        assertThat(c.value()).isEqualTo("s3cret");
        assertThat(c.domain()).isEqualTo("example.org");
        assertThat(c.path()).isEqualTo("/app");
        assertThat(c.secure()).isTrue();
        assertThat(c.expiry(NOW)).isEqualTo(Instant.parse("2027-06-09T10:18:14Z"));
        assertThat(c.toString()).doesNotContain("s3cret");
        assertThat(SetCookie.parse("x=1; Max-Age=60; Expires=Wed, 09 Jun 2027 10:18:14 GMT").expiry(NOW))
                .as("Max-Age wins").isEqualTo(NOW.plusSeconds(60));
    }
}
