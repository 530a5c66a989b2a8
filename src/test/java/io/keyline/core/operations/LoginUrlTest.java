package io.keyline.core.operations;

import io.keyline.core.LoginCapture;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The login page's address: one check for {@code credentials set --login-url} and the login window. */
class LoginUrlTest {

    private static final String HINT = "enter an absolute http(s) address, like https://example.org/login";

    @Test
    void anAbsoluteHttpOrHttpsAddressWithAHostPasses() {
        assertThat(LoginUrl.problem("https://example.org/login")).isNull();
        assertThat(LoginUrl.problem("HTTP://127.0.0.1:8080/login?next=%2F")).isNull();
    }

    @Test
    void everyOtherAddressSaysWhy() {
        assertThat(LoginUrl.problem(null)).isEqualTo(HINT);
        assertThat(LoginUrl.problem("")).isEqualTo(HINT);
        assertThat(LoginUrl.problem("example.org/login")).isEqualTo(HINT);
        assertThat(LoginUrl.problem("ftp://example.org/")).isEqualTo(HINT);
        assertThat(LoginUrl.problem("https:/login")).isEqualTo(HINT); // no host
        assertThat(LoginUrl.problem("https://exa[mple.org/")).isEqualTo(HINT); // unreadable
        assertThat(LoginUrl.problem("https://example.org/a b")).isEqualTo("the address has spaces or control "
                + "characters: " + HINT);
        assertThat(LoginUrl.problem("https://example.org/\tx")).startsWith("the address has spaces or control");
        assertThat(LoginUrl.problem("https://example.org/\u007f")).startsWith("the address has spaces or control");
        assertThat(LoginUrl.problem("https://user:pw@example.org/")).isEqualTo("the address must not carry a user "
                + "name or password: " + HINT);
    }

    @Test
    void theAddressIsCheckedAsGivenSoSurroundingSpacesAreRefused() {
        // the console strips what was typed before asking; the command line refuses the spaces, as before
        assertThat(LoginUrl.problem(" https://example.org/login")).startsWith("the address has spaces");
        assertThat(LoginUrl.problem(" https://example.org/login ".strip())).isNull();
    }

    @Test
    void theOriginSaysWhetherTheConnectionIsEncrypted() {
        assertThat(LoginUrl.origin("https://login.example.org:8443/a?b=c"))
                .isEqualTo(new LoginUrl.Origin("https://login.example.org:8443", true, "Encrypted connection (https)"));
        assertThat(LoginUrl.origin("http://127.0.0.1/login")).isEqualTo(new LoginUrl.Origin("http://127.0.0.1", false,
                "Not encrypted (http): only for a site on this machine or a test site"));
        assertThat(LoginUrl.origin("data:text/html,hi")).isEqualTo(new LoginUrl.Origin("data://", false,
                "Not a web address"));
    }

    @Test
    void noPageAndUnreadableAddresses() {
        LoginUrl.Origin none = new LoginUrl.Origin("", false, "");
        assertThat(LoginUrl.origin(null)).isEqualTo(none);
        assertThat(LoginUrl.origin(" ")).isEqualTo(none);
        assertThat(LoginUrl.origin("about:blank")).isEqualTo(none);
        String longBad = "https://exa[mple.org/" + "x".repeat(100);
        LoginUrl.Origin bad = LoginUrl.origin(longBad);
        assertThat(bad.origin()).isEqualTo(longBad.substring(0, 80) + "…");
        assertThat(bad.secure()).isFalse();
        assertThat(bad.security()).isEqualTo("Unreadable address");
        assertThat(LoginUrl.origin("https://exa[mple\n.org").origin()).doesNotContain("\n");
    }

    @Test
    void aBlankStoredLoginPageCountsAsNone() {
        assertThat(new LoginCapture.Start(" ", List.of()).loginUrl()).isNull();
        assertThat(new LoginCapture.Start(null, List.of()).loginUrl()).isNull();
        assertThat(new LoginCapture.Start("https://example.org/login", List.of()).loginUrl())
                .isEqualTo("https://example.org/login");
    }

    /** The login window shows these words: in Chinese they are Chinese (they were English in both languages). */
    @Test
    void theWordsFollowTheLanguage() {
        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            assertThat(LoginUrl.origin("http://127.0.0.1/login").security()).startsWith("未加密（http）");
            assertThat(LoginUrl.origin("https://example.org/").security()).isEqualTo("加密连接（https）");
            assertThat(LoginUrl.problem("https://user:pw@example.org/")).startsWith("地址中不能带用户名或密码");
            assertThat(KeyActions.rearmed("publish")).startsWith("已从步骤 publish 起重新启用");
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
    }
}
