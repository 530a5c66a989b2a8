package io.keyline.ui.login;

import io.keyline.core.CredentialInfo;
import io.keyline.credentials.CookieRouting;
import io.keyline.domain.KeyState;
import io.keyline.ui.common.Threads;
import io.keyline.ui.credentials.CredentialInput;
import io.keyline.ui.credentials.CredentialViewModel;
import javafx.concurrent.Worker;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableView;
import javafx.scene.control.TextInputControl;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.net.CookieHandler;
import java.net.URI;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The login window, through the real window: WebKit (javafx.web) renders under Monocle headless, so the login
 * window is driven by TestFX against the real sandbox site on loopback and a real second site (an
 * "SSO provider" on 127.0.0.2). The page loads, the operator passes by the SSO provider and submits the
 * sandbox's form, the HttpOnly session cookie is captured with its expiry, "Use these cookies" resumes
 * the three parked keys, which end DONE with one article each; the SSO cookie is not stored; closing the
 * window deletes its folder and puts the previous cookie handler back.
 */
@ExtendWith(ApplicationExtension.class)
class LoginWindowTest {

    SandboxLogin sb;
    final AtomicInteger changed = new AtomicInteger();
    final List<LoginWindow> opened = new ArrayList<>();

    @Start
    void start(Stage stage) {
        javafx.application.Application.setUserAgentStylesheet(
                new atlantafx.base.theme.PrimerLight().getUserAgentStylesheet());
    }

    @BeforeEach
    void setUp() throws Exception {
        sb = new SandboxLogin();
        sb.parkThreeKeys(sb.site.base() + "/");
    }

    @AfterEach
    void tearDown() throws Exception {
        for (LoginWindow w : opened) { // a failed test leaves no window (and no routed jar) to the next
            fx(() -> {
                w.stage().close();
                return null;
            });
        }
        sb.close();
    }

    @Test
    void loggingInOnTheSandboxPageCapturesTheSessionCookieAndUsingItCompletesTheParkedKeysOnce(FxRobot robot)
            throws Exception {
        CookieHandler before = CookieHandler.getDefault();
        String oldFingerprint = sb.fingerprint();
        LoginWindow w = open(robot);

        // the page loads at the stored login URL; the address bar shows its origin with the http warning
        waitLoaded(w, sb.site.base() + "/");
        assertThat(fx(() -> w.engine().getTitle())).isEqualTo("Keyline sandbox");
        assertThat(robot.lookup("#login-address").queryAs(TextInputControl.class).getText()).isEqualTo(sb.site.base());
        Label lock = robot.lookup("#login-lock").queryAs(Label.class);
        assertThat(lock.getText()).contains("http");
        assertThat(lock.getStyleClass()).contains("login-insecure");
        assertThat(robot.lookup("#login-domains").queryAs(Label.class).getText()).contains("127.0.0.1");
        Button use = robot.lookup("#login-use").queryButton();
        assertThat(use.isDisabled()).isTrue();

        // the login passes by another site (an SSO provider) that sets a cookie of its own and sends us back
        fx(() -> w.engine().executeScript("location.href = '" + sb.ssoUrl() + "?next=" + sb.site.base() + "/'"));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> sb.ssoVisits.get() == 1);
        waitLoaded(w, sb.site.base() + "/");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS,
                () -> fx(() -> w.viewModel().discardedProperty().get()).contains("1 cookie of 127.0.0.2"));
        assertThat(fx(() -> w.viewModel().preview().size())).isZero();
        assertThat(use.isDisabled()).isTrue();

        // "Log in as demo": the form is submitted by the page's own button
        Instant loginFrom = Instant.now();
        fx(() -> w.engine().executeScript("document.querySelector('button[type=submit]').click()"));
        TableView<?> preview = robot.lookup("#login-preview").queryAs(TableView.class);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> preview.getItems().size()) == 1);
        // the session the site issued in between (its Expires has whole seconds)
        Instant earliest = loginFrom.plus(io.keyline.sandbox.SandboxSite.SESSION_LIFETIME).minusSeconds(2);
        Instant latest = Instant.now().plus(io.keyline.sandbox.SandboxSite.SESSION_LIFETIME).plusSeconds(2);
        CredentialInput.CookieRow row = (CredentialInput.CookieRow) preview.getItems().get(0);
        assertThat(row.name()).isEqualTo("session");
        assertThat(row.value()).isEqualTo("***");
        assertThat(row.domain()).isEqualTo("127.0.0.1");
        assertThat(row.httpOnly()).isTrue();
        assertThat(row.expires()).isNotNull();
        assertThat(row.expires()).isBetween(earliest, latest);
        assertThat(use.isDisabled()).isFalse();

        // Test asks the job's read-only probe with the captured cookie (nothing stored yet)
        robot.clickOn("#login-test");
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS,
                () -> fx(() -> w.viewModel().probes().summaryProperty().get()).startsWith("The captured cookies: Accepted"));
        assertThat(sb.fingerprint()).isEqualTo(oldFingerprint);
        assertThat(KeyState.NEEDS_CREDENTIAL).isEqualTo(sb.state(SandboxLogin.KEYS.get(0)));

        robot.clickOn("#login-use");
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS,
                () -> SandboxLogin.KEYS.stream().allMatch(k -> sb.state(k) == KeyState.DONE));
        Label message = robot.lookup("#login-message").queryAs(Label.class);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(message::getText).contains("completed"));
        assertThat(message.getText()).isEqualTo("Saved. 3 parked keys resumed, 3 of 3 completed.");
        for (String k : SandboxLogin.KEYS) {
            assertThat(sb.site.effects(k)).as("articles of " + k).isEqualTo(1);
        }
        assertThat(changed.get()).isPositive();

        // stored: the session cookie only, with its expiry; the SSO provider's cookie is not
        CredentialInfo info = sb.services.credentials().info(SandboxLogin.CREDENTIAL).orElseThrow();
        assertThat(info.cookies()).isEqualTo(1);
        assertThat(info.fingerprint()).isNotEqualTo(oldFingerprint);
        assertThat(info.earliestExpiry()).isBetween(earliest, latest);
        assertThat(info.loginUrl()).isEqualTo(sb.site.base() + "/");
        var material = sb.services.credentials().lookup(SandboxLogin.CREDENTIAL).material();
        String header = material.httpHeaders(URI.create(sb.site.base() + "/api/articles"), sb.wb.clock.instant())
                .get("Cookie");
        assertThat(header).startsWith("session=").doesNotContain("sso");
        assertThat(material.httpHeaders(URI.create(sb.ssoUrl()), sb.wb.clock.instant())).isEmpty();
        String value = header.substring("session=".length());

        // the value shows nowhere in the window: not in its title, labels, fields or the preview, nor on the page
        // the site answered the login with (the sandbox folds its paste-by-hand lines away for a browser)
        assertThat(fx(() -> (String) w.engine().executeScript("document.body.innerText")))
                .startsWith("Logged in as demo").doesNotContain(value);
        assertThat(fx(() -> w.stage().getTitle())).doesNotContain(value).isEqualTo("Keyline — log in for sandbox-cookie");
        assertThat(fx(() -> texts(w.stage().getScene().getRoot()))).noneMatch(t -> t.contains(value));

        java.nio.file.Path folder = w.dataDirectory();
        assertThat(folder).isDirectory();
        fx(() -> {
            w.stage().close();
            return null;
        });
        assertThat(folder).doesNotExist();
        assertThat(CookieRouting.isOpen()).isFalse();
        assertThat(CookieHandler.getDefault()).isSameAs(before);
    }

    @Test
    void closingWithoutUsingChangesNothingAndTheNextWindowStartsWithAnEmptyJar(FxRobot robot) throws Exception {
        String oldFingerprint = sb.fingerprint();
        LoginWindow first = open(robot);
        waitLoaded(first, sb.site.base() + "/");
        fx(() -> first.engine().executeScript("document.forms[0].submit()"));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> first.viewModel().preview().size()) == 1);
        java.nio.file.Path firstFolder = first.dataDirectory();
        fx(() -> {
            first.stage().close();
            return null;
        });
        assertThat(firstFolder).doesNotExist();
        assertThat(sb.fingerprint()).isEqualTo(oldFingerprint);
        for (String k : SandboxLogin.KEYS) {
            assertThat(sb.state(k)).isEqualTo(KeyState.NEEDS_CREDENTIAL);
            assertThat(sb.site.effects(k)).isZero();
        }

        // a folder a killed console left behind (its process is gone) is removed when the next window opens
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        java.nio.file.Path leftover = Files.createDirectories(firstFolder.resolveSibling(LoginWindow.PREFIX + gone.pid()
                + "-123").resolve("localstorage"));

        // JavaFX's web engine keeps the cookie handler it first saw: the second window must still start empty
        LoginWindow second = open(robot);
        assertThat(leftover.getParent()).doesNotExist();
        waitLoaded(second, sb.site.base() + "/");
        assertThat(fx(() -> second.engine().executeScript("document.cookie"))).isEqualTo("");
        assertThat(fx(() -> second.viewModel().preview().size())).isZero();
        assertThat(second.dataDirectory()).isNotEqualTo(firstFolder);
        // and what the second login sets lands in the second window's jar (not in the first one's)
        fx(() -> second.engine().executeScript("document.forms[0].submit()"));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> second.viewModel().preview().size()) == 1);
        assertThat(fx(() -> second.stage().getScene().getRoot().lookup("#login-use").isDisabled()))
                .as("the captured cookie can be used").isFalse();
        fx(() -> {
            second.stage().close();
            return null;
        });
        assertThat(second.dataDirectory()).doesNotExist();
        assertThat(sb.fingerprint()).isEqualTo(oldFingerprint);
    }

    /** The Renew dialog refused a value the site had just rejected; the login window opened from it starts clean. */
    @Test
    void theLoginWindowStartsWithoutTheRenewDialogsRefusal(FxRobot robot) throws Exception {
        CredentialViewModel dialog = fx(() -> {
            CredentialViewModel c = new CredentialViewModel(sb.services, Threads.javafx());
            c.open(SandboxLogin.CREDENTIAL);
            c.input().textProperty().set("session=a-value-this-site-never-issued");
            c.test();
            return c;
        });
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> dialog.probes().summaryProperty().get())
                .startsWith("The pasted value (not saved yet): Rejected"));
        fx(() -> {
            dialog.save();
            return null;
        });
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> dialog.saveAnywayProperty().get()));
        assertThat(fx(() -> dialog.errorProperty().get())).contains("the site did not accept this value");

        LoginWindow w = WaitForAsyncUtils.asyncFx(() -> LoginWindow.show(null, sb.services, Threads.javafx(), dialog,
                SandboxLogin.CREDENTIAL, changed::incrementAndGet, null)).get(180, TimeUnit.SECONDS);
        opened.add(w);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> texts(w.stage().getScene().getRoot()))).noneMatch(t -> t.contains("did not accept"));
        assertThat(fx(() -> w.stage().getScene().getRoot().lookup("#login-save-anyway").isVisible())).isFalse();
        assertThat(sb.state(SandboxLogin.KEYS.get(0))).isEqualTo(KeyState.NEEDS_CREDENTIAL);
    }

    /**
     * The keys of a job nobody has reviewed wait for the review after the cookies were used: the window offers
     * the job's plan beside its own buttons, every one of them whole, and closes to show it.
     */
    @Test
    void usingTheCookiesForAnUnreviewedJobOffersItsPlanAndEveryButtonReadsWhole(FxRobot robot) throws Exception {
        sb.close();
        sb = new SandboxLogin();
        sb.parkThreeKeys(sb.site.base() + "/", false);
        List<String> planned = new java.util.concurrent.CopyOnWriteArrayList<>();
        LoginWindow w = WaitForAsyncUtils.asyncFx(() -> LoginWindow.show(null, sb.services, Threads.javafx(), null,
                SandboxLogin.CREDENTIAL, changed::incrementAndGet, planned::add)).get(180, TimeUnit.SECONDS);
        opened.add(w);
        waitLoaded(w, sb.site.base() + "/");
        fx(() -> w.engine().executeScript("document.querySelector('button[type=submit]').click()"));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> w.viewModel().preview().size()) == 1);

        robot.clickOn("#login-use");
        Label message = robot.lookup("#login-message").queryAs(Label.class);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(message::getText).contains("wait for the review"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(sb.site.effects(SandboxLogin.KEYS.get(0))).as("nothing of the unreviewed job was sent").isZero();
        Button plan = robot.lookup(".credential-plan").queryButton();
        assertThat(plan.getText()).isEqualTo("Plan daily-article…");
        fx(() -> {
            w.stage().setWidth(w.stage().getMinWidth()); // the narrowest the window gets
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        for (Button b : robot.from(w.stage().getScene().getRoot()).lookup(".button").queryAllAs(Button.class)) {
            if (shown(b) && b.getText() != null && !b.getText().isEmpty()) {
                String shown = fx(() -> b.lookup(".text") instanceof javafx.scene.text.Text t ? t.getText() : null);
                assertThat(shown).as("the button %s", b.getText()).isEqualTo(b.getText());
            }
        }

        robot.clickOn(plan);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(planned).containsExactly("daily-article");
        assertThat(fx(() -> w.stage().isShowing())).as("the window closed for the plan").isFalse();
    }

    /** {@code n} and every node above it are visible. */
    private static boolean shown(Node n) {
        for (Node x = n; x != null; x = x.getParent()) {
            if (!x.isVisible()) {
                return false;
            }
        }
        return true;
    }

    private LoginWindow open(FxRobot robot) throws Exception {
        // the first window of the JVM loads WebKit (a large native library): bounded generously for a busy machine
        LoginWindow w = WaitForAsyncUtils.asyncFx(() -> LoginWindow.show(null, sb.services, Threads.javafx(), null,
                SandboxLogin.CREDENTIAL, changed::incrementAndGet, null)).get(180, TimeUnit.SECONDS);
        opened.add(w);
        assertThat(w.engine()).as("the window's browser").isNotNull();
        assertThat(w.dataDirectory()).isDirectory();
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(
                w.dataDirectory()))).isEqualTo("rwx------");
        return w;
    }

    private static void waitLoaded(LoginWindow w, String url) throws Exception {
        // WebKit can report SUCCEEDED a moment before the document's title is set (seen once under load)
        WaitForAsyncUtils.waitFor(90, TimeUnit.SECONDS, () -> fx(() -> url.equals(w.engine().getLocation())
                && w.engine().getLoadWorker().getState() == Worker.State.SUCCEEDED && w.engine().getTitle() != null));
    }

    static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(60, TimeUnit.SECONDS);
    }

    /** Every text the window shows: labels, buttons, fields, table cells, tooltips are left out (not shown). */
    static List<String> texts(Parent root) {
        List<String> out = new ArrayList<>();
        collect(root, out);
        return out;
    }

    private static void collect(Node n, List<String> out) {
        if (n instanceof Labeled l && l.getText() != null) {
            out.add(l.getText());
        }
        if (n instanceof TextInputControl t && t.getText() != null) {
            out.add(t.getText());
        }
        if (n instanceof TableView<?> t) {
            t.getItems().forEach(i -> out.add(String.valueOf(i)));
        }
        if (n instanceof Parent p) {
            p.getChildrenUnmodifiable().forEach(c -> collect(c, out));
        }
    }
}
