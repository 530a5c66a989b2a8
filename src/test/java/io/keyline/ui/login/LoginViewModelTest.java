package io.keyline.ui.login;

import io.keyline.core.CredentialInfo;
import io.keyline.core.operations.LoginCheck;
import io.keyline.credentials.Cookie;
import io.keyline.domain.KeyState;
import io.keyline.sandbox.SandboxSite;
import io.keyline.ui.common.Threads;
import io.keyline.ui.credentials.CredentialViewModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The login window's view model without a toolkit (Threads.direct): a real state, the real sandbox
 * site, and the cookies a browser's jar would hold handed in as the window hands them in.
 */
class LoginViewModelTest {

    SandboxLogin sb;

    @BeforeEach
    void setUp() throws Exception {
        sb = new SandboxLogin();
    }

    @AfterEach
    void tearDown() throws Exception {
        sb.close();
    }

    LoginViewModel open() {
        CredentialViewModel c = new CredentialViewModel(sb.services, Threads.direct());
        c.open(SandboxLogin.CREDENTIAL);
        LoginViewModel vm = new LoginViewModel(sb.services, Threads.direct(), c, SandboxLogin.CREDENTIAL);
        vm.open();
        return vm;
    }

    static Cookie session(SandboxSite.Session s) {
        return new Cookie(SandboxSite.COOKIE, s.value(), "127.0.0.1", false, "/", false, true, s.expires());
    }

    @Test
    void withoutAStoredLoginPageItAsksForOneChecksItAndRemembersItWithTheCookiesUsed() {
        sb.parkThreeKeys(null);
        LoginViewModel vm = open();
        assertThat(vm.needsUrlProperty().get()).isTrue();
        assertThat(vm.loginUrlProperty().get()).isEmpty();
        assertThat(vm.domains()).containsExactly("127.0.0.1"); // the hosts its steps send to

        for (String bad : List.of("", "example.org/login", "ftp://example.org/", "https://user:pw@example.org/",
                "https://exa mple.org/")) {
            vm.urlInputProperty().set(bad);
            vm.submitUrl();
            assertThat(vm.urlErrorProperty().get()).as(bad).contains("absolute http(s) address");
            assertThat(vm.needsUrlProperty().get()).isTrue();
        }
        vm.urlInputProperty().set(" " + sb.site.base() + "/ ");
        vm.submitUrl();
        assertThat(vm.urlErrorProperty().get()).isEmpty();
        assertThat(vm.needsUrlProperty().get()).isFalse();
        assertThat(vm.loginUrlProperty().get()).isEqualTo(sb.site.base() + "/");

        vm.navigated(sb.site.base() + "/login");
        assertThat(vm.addressProperty().get().origin()).isEqualTo(sb.site.base());
        assertThat(vm.addressProperty().get().secure()).isFalse();
        assertThat(vm.addressProperty().get().security()).startsWith("Not encrypted");

        SandboxSite.Session s = sb.site.login();
        Cookie sso = new Cookie("sso_session", "sso-4f1c9e27b8d3a6f0", "127.0.0.2", false, "/", false, true, null);
        vm.cookiesChanged(List.of(sso));
        assertThat(vm.canUseProperty().get()).isFalse();
        assertThat(vm.discardedProperty().get()).contains("1 cookie of 127.0.0.2");
        vm.cookiesChanged(List.of(sso, session(s)));
        assertThat(vm.preview()).hasSize(1);
        assertThat(vm.preview().get(0).value()).isEqualTo("***");
        assertThat(vm.preview().get(0).httpOnly()).isTrue();
        assertThat(vm.preview().get(0).expires()).isEqualTo(s.expires());
        assertThat(vm.canUseProperty().get()).isTrue();
        assertThat(vm.statusProperty().get()).startsWith("Captured 1 cookie of 127.0.0.1");
        for (String shown : shown(vm)) {
            assertThat(shown).doesNotContain(s.value()).doesNotContain("sso-4f1c9e27b8d3a6f0");
        }

        vm.use();
        assertThat(vm.statusProperty().get()).startsWith("Using the captured cookies for " + SandboxLogin.CREDENTIAL);
        assertThat(vm.canUseProperty().get()).isFalse();
        assertThat(vm.credential().messageProperty().get()).isEqualTo("Saved. 3 parked keys resumed, 3 of 3 completed.");
        for (String k : SandboxLogin.KEYS) {
            assertThat(sb.state(k)).isEqualTo(KeyState.DONE);
            assertThat(sb.site.effects(k)).isEqualTo(1);
        }
        CredentialInfo info = sb.services.credentials().info(SandboxLogin.CREDENTIAL).orElseThrow();
        assertThat(info.loginUrl()).isEqualTo(sb.site.base() + "/");
        assertThat(info.cookies()).isEqualTo(1);
    }

    @Test
    void anEnteredAddressIsNotRememberedWhenTheOperatorSaysNo() {
        sb.parkThreeKeys(null);
        LoginViewModel vm = open();
        vm.urlInputProperty().set(sb.site.base() + "/");
        vm.rememberUrlProperty().set(false);
        vm.submitUrl();
        vm.cookiesChanged(List.of(session(sb.site.login())));
        vm.use();
        assertThat(sb.state(SandboxLogin.KEYS.get(2))).isEqualTo(KeyState.DONE);
        assertThat(sb.services.credentials().info(SandboxLogin.CREDENTIAL).orElseThrow().loginUrl()).isNull();
    }

    @Test
    void testAsksTheProbesWithTheCapturedCookiesAndChangesNothingStored() {
        sb.parkThreeKeys(sb.site.base() + "/");
        LoginViewModel vm = open();
        assertThat(vm.needsUrlProperty().get()).isFalse();
        assertThat(vm.loginUrlProperty().get()).isEqualTo(sb.site.base() + "/");
        CredentialInfo before = sb.services.credentials().info(SandboxLogin.CREDENTIAL).orElseThrow();

        vm.cookiesChanged(List.of(new Cookie("session", "not-a-session-of-this-site", "127.0.0.1", false, "/", false,
                true, null)));
        vm.test();
        assertThat(vm.probes().summaryProperty().get()).isEqualTo("The captured cookies: Rejected: 1 of 1 answer showed the "
                + "site's login page or refused the login. Log in again.");

        vm.cookiesChanged(List.of(session(sb.site.login())));
        assertThat(vm.probes().lines()).isEmpty(); // a new capture clears the old answer
        vm.test();
        assertThat(vm.probes().summaryProperty().get()).isEqualTo("The captured cookies: Accepted: the site answered 1 request "
                + "as for someone logged in, and none showed its login page.");
        assertThat(vm.probes().lines()).extracting(LoginCheck::line)
                .containsExactly("daily-article/publish probe: accepted — absent: the effect is not there yet "
                        + "(the probe checked /total = 0)");

        CredentialInfo after = sb.services.credentials().info(SandboxLogin.CREDENTIAL).orElseThrow();
        assertThat(after.fingerprint()).isEqualTo(before.fingerprint());
        assertThat(after.lastResult()).isEqualTo(before.lastResult());
        assertThat(sb.state(SandboxLogin.KEYS.get(0))).isEqualTo(KeyState.NEEDS_CREDENTIAL);

        vm.closed();
        assertThat(vm.preview()).isEmpty();
        assertThat(vm.canUseProperty().get()).isFalse();
    }

    /**
     * Captured cookies none of which the job's request would carry (here: for a path outside the job's) are kept from
     * the site, and the window's test lines say so with the window's own way out, to log in on that host here and
     * test again, where {@code keyline credentials test} gives a command to type; in English and in Chinese.
     */
    @Test
    void aTestOfCookiesTheJobsRequestWouldNotCarryNamesTheWindowsWayOut() {
        sb.parkThreeKeys(sb.site.base() + "/");
        LoginViewModel vm = open();
        vm.cookiesChanged(List.of(new Cookie(SandboxSite.COOKIE, "elsewhere-only", "127.0.0.1", false, "/elsewhere",
                false, true, null)));
        vm.test();
        assertThat(vm.probes().lines()).as("the test's lines").isNotEmpty().allSatisfy(r -> {
            assertThat(r.message().in(io.keyline.text.Text.ENGLISH)).contains("nothing was sent", "127.0.0.1",
                    io.keyline.text.Text.in(io.keyline.text.Text.ENGLISH, "ui.login.test"))
                    .doesNotContain("keyline credentials", "elsewhere-only");
            assertThat(r.message().in(io.keyline.text.Text.CHINESE)).contains("什么都没有发送", "127.0.0.1",
                    io.keyline.text.Text.in(io.keyline.text.Text.CHINESE, "ui.login.test"))
                    .doesNotContain("keyline credentials", "elsewhere-only");
        });
        // Use these cookies after that test: not saved, in the same words
        vm.use();
        assertThat(vm.credential().errorProperty().get()).as("the refusal").contains("127.0.0.1",
                io.keyline.text.Text.in(io.keyline.text.Text.ENGLISH, "ui.login.test")).doesNotContain(
                "keyline credentials");
        assertThat(sb.state(SandboxLogin.KEYS.get(0))).isEqualTo(KeyState.NEEDS_CREDENTIAL);
    }

    /**
     * Cookies the window's Test just found rejected are not stored by "Use these cookies": the refusal is said,
     * nothing is sent or resumed, and only "Save anyway" stores them. A login window opened on a Renew dialog
     * that had refused a value starts without the dialog's refusal.
     */
    @Test
    void cookiesTheTestJustRejectedAreStoredOnlyBySaveAnyway() {
        sb.parkThreeKeys(sb.site.base() + "/");
        CredentialViewModel c = new CredentialViewModel(sb.services, Threads.direct());
        c.open(SandboxLogin.CREDENTIAL);
        // the Renew dialog: a pasted value the site rejects, tested, then saved: refused
        c.input().textProperty().set("session=dialog-value-the-site-does-not-know");
        c.test();
        c.save();
        assertThat(c.errorProperty().get()).contains("the site did not accept this value");
        assertThat(c.saveAnywayProperty().get()).isTrue();

        LoginViewModel vm = new LoginViewModel(sb.services, Threads.direct(), c, SandboxLogin.CREDENTIAL);
        vm.open();
        assertThat(c.errorProperty().get()).as("the login window starts clean").isEmpty();
        assertThat(c.saveAnywayProperty().get()).as("the dialog's refused value is not offered here").isFalse();
        assertThat(shown(vm)).noneMatch(t -> t.contains("did not accept"));

        String before = sb.fingerprint();
        vm.cookiesChanged(List.of(new Cookie("session", "a-session-this-site-never-issued", "127.0.0.1", false, "/",
                false, true, null)));
        vm.test();
        assertThat(vm.probes().summaryProperty().get()).startsWith("The captured cookies: Rejected");
        int requests = sb.site.requests();
        vm.use();
        assertThat(c.errorProperty().get()).startsWith("Not saved: the site did not accept this value when it was "
                + "just tested.").contains("Save anyway").doesNotContain("a-session-this-site-never-issued");
        assertThat(c.saveAnywayProperty().get()).isTrue();
        vm.cookiesChanged(List.of(new Cookie("session", "another-session-of-a-new-login", "127.0.0.1", false, "/",
                false, true, null)));
        assertThat(vm.statusProperty().get()).as("the window captures a new login again").startsWith("Captured 1 cookie");
        assertThat(sb.fingerprint()).as("nothing stored").isEqualTo(before);
        assertThat(sb.site.requests()).as("nothing sent").isEqualTo(requests);
        for (String k : SandboxLogin.KEYS) {
            assertThat(sb.state(k)).isEqualTo(KeyState.NEEDS_CREDENTIAL);
        }

        vm.saveAnyway();
        assertThat(sb.fingerprint()).as("stored on the second choice").isNotEqualTo(before);
        assertThat(c.savedProperty().get()).isTrue();
        assertThat(c.saveAnywayProperty().get()).isFalse();
        for (String k : SandboxLogin.KEYS) {
            assertThat(sb.site.effects(k)).as("the site rejects them: nothing published").isZero();
        }
    }

    static List<String> shown(LoginViewModel vm) {
        List<String> out = new ArrayList<>(List.of(vm.statusProperty().get(), vm.discardedProperty().get(),
                vm.addressProperty().get().origin(), vm.probes().summaryProperty().get(), vm.errorProperty().get(),
                vm.credential().messageProperty().get()));
        vm.preview().forEach(r -> out.add(r.toString()));
        vm.domains().forEach(out::add);
        return out;
    }
}
