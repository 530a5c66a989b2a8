package io.keyline.credentials;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which cookies of a login belong to the credential. */
class CookieScopeTest {

    static Cookie cookie(String domain, boolean includeSubdomains) {
        return new Cookie("sid", "v", domain, includeSubdomains, "/", true, true, null);
    }

    @Test
    void registrableDomainIsTheLastTwoLabelsOrThreeUnderAKnownTwoLabelSuffix() {
        assertThat(CookieScope.registrableDomain("www.example.com")).isEqualTo("example.com");
        assertThat(CookieScope.registrableDomain("a.b.example.co.uk")).isEqualTo("example.co.uk");
        assertThat(CookieScope.registrableDomain("passport.shop.com.cn")).isEqualTo("shop.com.cn");
        assertThat(CookieScope.registrableDomain("Example.COM.")).isEqualTo("example.com");
        assertThat(CookieScope.registrableDomain("127.0.0.1")).isEqualTo("127.0.0.1");
        assertThat(CookieScope.registrableDomain("localhost")).isEqualTo("localhost");
    }

    @Test
    void theLoginPagesDomainAndTheStepsHostsAreTakenOthersNot() {
        CookieScope s = CookieScope.of("https://login.example.com/signin?next=/",
                List.of("https://api.example.com/v1/articles", "https://upload.example-cdn.net:8443/{key}?x={key}",
                        "{steps.meta.outputs.url}", "ftp://files.example.org/"));
        assertThat(s.domains()).containsExactly("example.com", "upload.example-cdn.net");
        assertThat(s.takes(cookie("example.com", true))).isTrue();          // Domain=.example.com
        assertThat(s.takes(cookie("login.example.com", false))).isTrue();   // host-only on the login host
        assertThat(s.takes(cookie("upload.example-cdn.net", false))).isTrue();
        assertThat(s.takes(cookie("example-cdn.net", true))).isTrue();      // sent to the upload host too
        assertThat(s.takes(cookie("example-cdn.net", false))).isFalse();    // host-only elsewhere: never sent there
        assertThat(s.takes(cookie("sso.identity-provider.com", false))).isFalse();
        assertThat(s.takes(cookie("notexample.com", true))).isFalse();
        assertThat(s.takes(cookie("com", true))).isFalse();
        assertThat(s.takes(cookie(null, false))).isFalse();
    }

    @Test
    void aPublicSuffixCookieIsNeverTakenAndIpAddressesHaveNoSubdomains() {
        CookieScope uk = CookieScope.of("https://www.shop.co.uk/login", List.of());
        assertThat(uk.domains()).containsExactly("shop.co.uk");
        assertThat(uk.takes(cookie("co.uk", true))).isFalse();
        assertThat(uk.takes(cookie("shop.co.uk", true))).isTrue();

        CookieScope ip = CookieScope.of("http://127.0.0.1:18777/", List.of("http://127.0.0.1:18777/api/articles"));
        assertThat(ip.domains()).containsExactly("127.0.0.1");
        assertThat(ip.takes(cookie("127.0.0.1", false))).isTrue();
        assertThat(ip.takes(cookie("127.0.0.1:18777", false))).isTrue(); // a port-bound cookie of the same host
        assertThat(ip.takes(cookie("127.0.0.2", false))).isFalse();
        assertThat(ip.takes(cookie("0.0.1", true))).isFalse();
    }

    @Test
    void withoutALoginUrlOnlyTheStepsHostsCount() {
        CookieScope s = CookieScope.of(null, List.of("https://api.example.com/a", "https://API.example.com/b"));
        assertThat(s.domains()).containsExactly("api.example.com");
        assertThat(s.takes(cookie("example.com", true))).isTrue();
        assertThat(s.takes(cookie("www.example.com", false))).isFalse();
    }
}
