package io.keyline.credentials;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CookieMatchingTest {
    private static final Instant NOW = Instant.parse("2025-11-29T12:00:00Z");

    private static Cookie cookie(String domain, boolean includeSubdomains, String path) {
        return new Cookie("sid", "v4lue", domain, includeSubdomains, path, false, false, null);
    }

    private static boolean sent(Cookie cookie, String url) {
        return cookie.matches(URI.create(url), NOW);
    }

    @ParameterizedTest(name = "host-only example.com -> {0}: {1}")
    @CsvSource({
        "https://example.com/, true",
        "https://EXAMPLE.com/x, true",
        "https://www.example.com/, false",
        "https://notexample.com/, false",
        "https://example.com.evil.org/, false"})
    void hostOnlyCookieMatchesExactHostOnly(String url, boolean expected) {
        assertThat(sent(cookie("example.com", false, "/"), url)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "domain .example.com -> {0}: {1}")
    @CsvSource({
        "https://example.com/, true",
        "https://www.example.com/, true",
        "https://a.b.example.com/, true",
        "https://badexample.com/, false",
        "https://example.org/, false"})
    void domainCookieMatchesDomainAndSubdomainsIgnoringLeadingDot(String url, boolean expected) {
        assertThat(sent(cookie(".example.com", true, "/"), url)).isEqualTo(expected);
        assertThat(sent(cookie("example.com", true, "/"), url)).isEqualTo(expected);
    }

    @Test
    void leadingDotIsNormalizedAway() {
        assertThat(cookie(".Example.COM", true, "/").domain()).isEqualTo("example.com");
    }

    @Test
    void domainCookieNeverMatchesIpAddressesBySuffix() {
        assertThat(sent(cookie("0.0.1", true, "/"), "http://10.0.0.1/")).isFalse();
        assertThat(sent(cookie("10.0.0.1", false, "/"), "http://10.0.0.1/")).isTrue();
    }

    @Test
    void cookieWithoutDomainMatchesAnyHost() {
        assertThat(sent(cookie(null, false, "/"), "https://anything.example.net/")).isTrue();
        assertThat(sent(cookie(null, false, "/"), "http://127.0.0.1:8080/api")).isTrue();
    }

    @ParameterizedTest(name = "path /app -> {0}: {1}")
    @CsvSource({
        "https://example.com/app, true",
        "https://example.com/app/, true",
        "https://example.com/app/x?y=1, true",
        "https://example.com/application, false",
        "https://example.com/, false",
        "https://example.com, false",
        "https://example.com/App, false"})
    void pathMatchesAtSegmentBoundaries(String url, boolean expected) {
        assertThat(sent(cookie("example.com", false, "/app"), url)).isEqualTo(expected);
    }

    @Test
    void pathWithTrailingSlashMatchesEverythingBelow() {
        assertThat(sent(cookie("example.com", false, "/app/"), "https://example.com/app/x")).isTrue();
        assertThat(sent(cookie("example.com", false, "/app/"), "https://example.com/app")).isFalse();
        assertThat(sent(cookie("example.com", false, "/"), "https://example.com")).isTrue();
    }

    @Test
    void secureCookieIsSentOverHttpsOnly() {
        Cookie secure = new Cookie("sid", "v4lue", "example.com", false, "/", true, false, null);
        assertThat(sent(secure, "https://example.com/")).isTrue();
        assertThat(sent(secure, "http://example.com/")).isFalse();
    }

    @Test
    void expiredCookieIsNeverSent() {
        Cookie expiringNow = new Cookie("sid", "v4lue", "example.com", false, "/", false, false, NOW);
        Cookie later = new Cookie("sid", "v4lue", "example.com", false, "/", false, false, NOW.plusSeconds(1));
        assertThat(sent(expiringNow, "https://example.com/")).isFalse();
        assertThat(sent(later, "https://example.com/")).isTrue();
    }

    @Test
    void httpHeadersSendMatchingCookiesLongestPathFirst() {
        ParsedCredential credential = ParsedCredential.ofCookies(List.of(
                new Cookie("root", "r", "example.com", true, "/", false, false, null),
                new Cookie("app", "a", "portal.example.com", false, "/app", false, false, null),
                new Cookie("deep", "d", "example.com", true, "/app/admin", false, false, null),
                new Cookie("other", "o", "other.com", false, "/", false, false, null),
                new Cookie("tls", "t", "example.com", true, "/", true, false, null),
                new Cookie("old", "x", "example.com", true, "/", false, false, NOW.minusSeconds(60))));

        assertThat(credential.httpHeaders(URI.create("http://portal.example.com/app/admin/users"), NOW))
                .containsExactly(Map.entry("Cookie", "deep=d; app=a; root=r"));
        assertThat(credential.httpHeaders(URI.create("https://www.example.com/"), NOW))
                .containsExactly(Map.entry("Cookie", "root=r; tls=t"));
        assertThat(credential.httpHeaders(URI.create("https://other.org/"), NOW)).isEmpty();
    }

    @ParameterizedTest(name = "domain with port {0} -> {1}: {2}")
    @CsvSource({
        "127.0.0.1:35303, http://127.0.0.1:35303/api, true",
        "127.0.0.1:35303, http://127.0.0.1:35304/api, false",
        "127.0.0.1:35303, http://127.0.0.1/api, false",
        "127.0.0.1:35303, http://127.0.0.2:35303/api, false",
        "example.com:80, http://example.com/, true",
        "example.com:443, https://example.com/, true",
        "example.com:8443, https://example.com/, false",
        "[::1]:8080, http://[::1]:8080/, true",
        "[::1]:8080, http://[::1]:8081/, false"})
    void aDomainThatCarriesAPortIsSentToThatHostAndPortOnly(String domain, String url, boolean expected) {
        assertThat(sent(cookie(domain, false, "/"), url)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} names port {1}")
    @CsvSource({"127.0.0.1:35303, 35303", "example.com, -1", "[::1]:8080, 8080", "::1, -1", "[::1], -1",
        "example.com:, -1", "example.com:0, -1", "example.com:99999, -1", "example.com:80a, -1"})
    void portOfADomain(String domain, int port) {
        assertThat(Cookie.portOf(domain)).isEqualTo(port);
    }
}
