package io.keyline.ui.login;

import io.keyline.text.Text;
import io.keyline.ui.NoNavigation;
import io.keyline.ui.common.Threads;
import io.keyline.ui.credentials.CredentialsView;
import io.keyline.ui.credentials.CredentialsViewModel;
import javafx.concurrent.Worker;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Labeled;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In Chinese, the login window (on the sandbox's login page) and the credentials page (one credential with
 * three keys waiting on it) show no English sentence of the console's bundle: no visible label, button or
 * text holds a piece of an English message (its words between the arguments, more than three letters) that
 * reads differently in Chinese.
 */
@ExtendWith(ApplicationExtension.class)
public class ChineseScreensTest {

    SandboxLogin sb;
    Stage stage;
    LoginWindow window;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        javafx.application.Application.setUserAgentStylesheet(
                new atlantafx.base.theme.PrimerLight().getUserAgentStylesheet());
    }

    @BeforeEach
    void setUp() throws Exception {
        Text.use(Text.CHINESE);
        sb = new SandboxLogin();
        sb.parkThreeKeys(sb.site.base() + "/");
    }

    @AfterEach
    void tearDown() throws Exception {
        Text.use(Text.ENGLISH);
        if (window != null) {
            fx(() -> {
                window.stage().close();
                return null;
            });
        }
        sb.close();
    }

    @Test
    void theLoginWindowAndTheCredentialsPageSpeakChinese() throws Exception {
        List<String> english = englishPieces();
        assertThat(english).as("English pieces of the ui bundle").hasSizeGreaterThan(50);

        window = WaitForAsyncUtils.asyncFx(() -> LoginWindow.show(null, sb.services, Threads.javafx(), null,
                SandboxLogin.CREDENTIAL, () -> { }, null)).get(180, TimeUnit.SECONDS);
        String url = sb.site.base() + "/";
        WaitForAsyncUtils.waitFor(90, TimeUnit.SECONDS, () -> fx(() -> url.equals(window.engine().getLocation())
                && window.engine().getLoadWorker().getState() == Worker.State.SUCCEEDED));
        WaitForAsyncUtils.waitForFxEvents();
        List<String> login = fx(() -> shown(window.root()));
        assertThat(login).as("the login window's texts").contains("为 " + SandboxLogin.CREDENTIAL + " 登录", "测试",
                "使用这些 Cookie", "关闭");
        assertThat(english(login, english)).as("English in the login window").isEmpty();
        // its first line is the core's (CapturedCookies): where to log in and whose cookies are taken
        String firstLine = fx(() -> window.viewModel().statusProperty().get());
        assertThat(firstLine).as("the login window's first line").startsWith("请在下方的网站页面登录。");
        List<io.keyline.ui.EnglishMessages.Message> coreEnglish = io.keyline.ui.EnglishMessages.of(
                List.of("core.captured.", "core.loginCheck.", "core.renew."));
        assertThat(io.keyline.ui.EnglishMessages.in(login, coreEnglish)).as("the core's English in the login window")
                .isEmpty();

        // the Renew dialog on the same credential: what is stored, which keys resume, a test of the stored login
        io.keyline.ui.credentials.CredentialViewModel renew = new io.keyline.ui.credentials.CredentialViewModel(
                sb.services, Threads.javafx());
        Stage renewStage = fx(() -> {
            renew.open(SandboxLogin.CREDENTIAL);
            Stage s = new Stage();
            s.setScene(new Scene(new io.keyline.ui.credentials.CredentialDialog(renew, () -> { }).root(), 860, 680));
            s.show();
            return s;
        });
        try {
            WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> fx(() -> !renew.waitingKeysProperty().get()
                    .isEmpty() && !renew.currentProperty().get().isEmpty()));
            String testing = Text.t("ui.credential.testingStored", SandboxLogin.CREDENTIAL);
            fx(() -> {
                renew.test();
                return null;
            });
            WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> {
                String t = renew.probes().summaryProperty().get();
                return !renew.busyProperty().get() && !t.isEmpty() && !t.equals(testing);
            }));
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(fx(() -> renew.currentProperty().get())).as("what is stored now").startsWith("当前存储：cookie，指纹 ")
                    .contains("上次被拒绝");
            assertThat(fx(() -> renew.waitingKeysProperty().get())).as("the keys that will resume")
                    .startsWith("将恢复 3 个任务项：daily-article ");
            assertThat(fx(() -> renew.probes().summaryProperty().get())).as("the test of the stored login")
                    .startsWith("存储的登录：被拒绝：");
            List<String> dialog = fx(() -> shown(renewStage.getScene().getRoot()));
            assertThat(dialog).as("the Renew dialog's texts").contains(fx(() -> renew.currentProperty().get()),
                    fx(() -> renew.waitingKeysProperty().get()));
            assertThat(io.keyline.ui.EnglishMessages.in(dialog, coreEnglish)).as("the core's English in the Renew dialog")
                    .isEmpty();
            // whole pieces of the dialog's own messages (single words such as "cookie" are data here: the stored type);
            // the rows of the test results are LoginCheck's lines and are not checked here
            assertThat(io.keyline.ui.EnglishMessages.in(dialog, io.keyline.ui.EnglishMessages.of(
                    List.of("ui.credential.")))).as("the dialog's English in the Renew dialog").isEmpty();
        } finally {
            fx(() -> {
                renewStage.close();
                return null;
            });
        }

        CredentialsViewModel vm = new CredentialsViewModel(sb.services, Threads.javafx());
        CredentialsView view = fx(() -> {
            CredentialsView v = new CredentialsView(vm, new NoNavigation());
            stage.setScene(new Scene(v, 1200, 800));
            stage.show();
            return v;
        });
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> fx(() -> vm.rows().size()) == 1);
        WaitForAsyncUtils.waitForFxEvents();
        List<String> alerts = fx(() -> vm.alerts().stream().map(io.keyline.core.CredentialAlerts.Alert::message).toList());
        assertThat(alerts).as("the credential's alerts (CredentialAlerts)").isNotEmpty()
                .allSatisfy(a -> assertThat(a).startsWith("凭据 "));
        // the waiting column's count is the core's text (Words.keys), not this page's
        List<String> counts = fx(() -> vm.rows().stream().map(r -> io.keyline.core.operations.Words.keys(r.parked()))
                .toList());
        List<String> page = fx(() -> shown(view)).stream().filter(t -> !counts.contains(t)).toList();
        assertThat(page).as("the credentials page's texts").contains("凭据", "上次使用", "状态", "更新…", "测试");
        assertThat(english(page, english)).as("English on the credentials page").isEmpty();
    }


    /** The texts of {@code texts} that hold an English piece: "text ⊃ piece". */
    public static List<String> english(List<String> texts, List<String> pieces) {
        List<String> found = new ArrayList<>();
        for (String t : texts) {
            for (String p : pieces) {
                // a whole piece, not a part of a name ("cookie" in the credential sandbox-cookie is data)
                if (java.util.regex.Pattern.compile("(?<![\\p{L}\\p{N}_-])" + java.util.regex.Pattern.quote(p)
                        + "(?![\\p{L}\\p{N}_-])").matcher(t).find()) {
                    found.add(t + " ⊃ " + p);
                }
            }
        }
        return found;
    }

    /**
     * The words of each English message of the ui bundle between its arguments, where the message reads
     * differently in Chinese and the piece has more than three letters.
     */
    public static List<String> englishPieces() throws IOException {
        return englishPieces(key -> true);
    }

    /** The English pieces of the ui bundle's messages whose key {@code keys} accepts. */
    public static List<String> englishPieces(java.util.function.Predicate<String> keys) throws IOException {
        Properties en = io.keyline.ui.EnglishMessages.load("ui.properties");
        Properties zh = io.keyline.ui.EnglishMessages.load("ui_zh_CN.properties");
        List<String> pieces = new ArrayList<>();
        for (String key : en.stringPropertyNames()) {
            String e = en.getProperty(key);
            if (!keys.test(key) || e.equals(zh.getProperty(key))) {
                continue; // the same in both (an address, a symbol): not English to find
            }
            for (String piece : e.replace("''", "'").split("\\{(?:[^{}]|\\{[^{}]*\\})*\\}")) {
                String p = piece.strip();
                if (p.codePoints().filter(Character::isLetter).count() > 3 && !pieces.contains(p)) {
                    pieces.add(p);
                }
            }
        }
        return pieces;
    }

    /** The texts of the visible labels, buttons and text nodes under {@code n}. */
    public static List<String> shown(Node n) {
        List<String> out = new ArrayList<>();
        collect(n, out);
        return out;
    }

    private static void collect(Node n, List<String> out) {
        if (!n.isVisible()) {
            return;
        }
        if (n instanceof Labeled l && l.getText() != null && !l.getText().isBlank()) {
            out.add(l.getText());
        } else if (n instanceof javafx.scene.text.Text t && t.getText() != null && !t.getText().isBlank()) {
            out.add(t.getText());
        }
        if (n instanceof Parent p) {
            for (Node c : p.getChildrenUnmodifiable()) {
                collect(c, out);
            }
        }
    }

    public static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(60, TimeUnit.SECONDS);
    }

}
