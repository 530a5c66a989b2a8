package io.keyline.ui.credentials;

import io.keyline.credentials.CredentialType;
import io.keyline.text.Text;
import io.keyline.ui.ConsoleFixture;
import io.keyline.ui.common.Theme;
import io.keyline.ui.common.Threads;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.keyline.testing.Fx.fxValue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dialog behind "Add credential" in a real window: it does not scold before the operator did anything, and
 * what it asks for follows the type the operator chose.
 */
@ExtendWith(ApplicationExtension.class)
class NewCredentialDialogTest {

    Path tmp;
    ConsoleFixture fx;

    @Start
    void start(Stage stage) throws IOException {
        tmp = Files.createTempDirectory("keyline-new-credential");
        fx = new ConsoleFixture(tmp);
        CredentialViewModel vm = new CredentialViewModel(fx.services, Threads.javafx());
        vm.open(null);
        CredentialDialog dialog = new CredentialDialog(vm, () -> { });
        Scene scene = new Scene(dialog.root(), 860, 680);
        scene.getStylesheets().setAll(Theme.stylesheets());
        stage.setScene(scene);
        stage.show();
    }

    @AfterEach
    void tearDown() throws IOException {
        fx.close();
        try (var files = Files.walk(tmp)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** The name's error shows once the name was edited, or a save was tried without one; not when it opens. */
    @Test
    void theNamesErrorWaitsUntilTheNameIsEditedOrASaveIsTried(FxRobot robot) {
        String missing = Text.t("core.renew.nameMissing");
        assertThat(shownTexts(robot)).as("just opened").doesNotContain(missing)
                .as("a new credential has no login to do again").doesNotContain(Text.t("ui.credential.loginAt"),
                        Text.t("ui.credential.noLoginUrl"));

        robot.clickOn(robot.lookup(".credential-input").queryAs(TextArea.class)).write("Cookie: session=v1");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(shownTexts(robot)).as("a login pasted, the name not touched yet").doesNotContain(missing);
        robot.clickOn(Text.t("ui.credential.save"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(shownTexts(robot)).as("a save without a name").contains(missing);
        assertThat(fx.services.credentials().list()).as("nothing stored").isEmpty();

        TextField name = nameField(robot);
        robot.clickOn(name).write("site-cookie");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(shownTexts(robot)).doesNotContain(missing);
        robot.interact(() -> name.setText(""));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(shownTexts(robot)).as("the name edited away").contains(missing);
    }

    /** The cookie's own fields and words are there for a cookie and gone for a token or a header. */
    @Test
    void theCookieFieldsFollowTheChosenType(FxRobot robot) {
        TextField domain = robot.lookup(".text-field").match((TextField f) -> Text.t("ui.credential.domainPrompt")
                .equals(f.getPromptText())).queryAs(TextField.class);
        assertThat(shown(robot, domain)).as("a cookie's domain, for a cookie").isTrue();
        assertThat(String.join("\n", shownTexts(robot))).contains(Text.t("ui.credential.cookieDomain"))
                .contains(CredentialDialog.formats());

        @SuppressWarnings("unchecked")
        ComboBox<CredentialType> type = robot.lookup(".combo-box").queryAs(ComboBox.class);
        robot.clickOn(type);
        robot.clickOn(Text.t("ui.credential.type.bearer"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(type.getValue()).isEqualTo(CredentialType.BEARER);

        assertThat(shown(robot, domain)).as("a cookie's domain, for a bearer token").isFalse();
        String texts = String.join("\n", shownTexts(robot));
        assertThat(texts).as("for a bearer token").doesNotContain(Text.t("ui.credential.cookieDomain"))
                .doesNotContain(CredentialDialog.formats()).doesNotContain(Text.t("ui.credential.fileHint"))
                .doesNotContainIgnoringCase("cookies.txt");
        assertThat(fxValue(robot, () -> robot.lookup(".credential-input").queryAs(TextArea.class).getPromptText()))
                .doesNotContainIgnoringCase("cookie");

        robot.clickOn(type);
        robot.clickOn(Text.t("ui.credential.type.cookie"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(shown(robot, domain)).as("a cookie's domain, for a cookie again").isTrue();
    }

    private static TextField nameField(FxRobot robot) {
        return robot.lookup(".text-field").match((TextField f) -> Text.t("ui.credential.namePrompt")
                .equals(f.getPromptText())).queryAs(TextField.class);
    }

    /** Whether {@code n} and every parent of it is visible (what the operator sees). */
    private static boolean shown(FxRobot robot, Node n) {
        return fxValue(robot, () -> {
            for (Node x = n; x != null; x = x.getParent()) {
                if (!x.isVisible()) {
                    return false;
                }
            }
            return n.getScene() != null;
        });
    }

    /** The texts of every label the operator sees. */
    private static List<String> shownTexts(FxRobot robot) {
        return robot.lookup(".label").queryAllAs(Label.class).stream()
                .filter(l -> l.getText() != null && !l.getText().isBlank() && shown(robot, l))
                .map(Label::getText).toList();
    }
}
