package io.keyline.ui.credentials;

import io.keyline.credentials.CredentialType;
import io.keyline.text.Text;
import io.keyline.ui.ConsoleFixture;
import io.keyline.ui.common.Theme;
import io.keyline.ui.common.Threads;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.keyline.testing.Fx.fxValue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The New credential dialog as the console opens it ("Log in…" offered, the console's theme): choosing another type
 * from its list changes what the dialog says, never where its fields are. The name, the type and the box the login is
 * pasted into stay where they were for a cookie, whichever type is chosen, in English and in Chinese, the chosen
 * type is read whole, and the type's box leaves the name room for its example.
 */
@ExtendWith(ApplicationExtension.class)
class NewCredentialDialogLayoutTest {

    Path tmp;
    ConsoleFixture fx;
    Stage stage;
    CredentialViewModel vm;

    @Start
    void start(Stage s) throws IOException {
        javafx.application.Application.setUserAgentStylesheet(
                new atlantafx.base.theme.PrimerLight().getUserAgentStylesheet());
        stage = s;
        tmp = Files.createTempDirectory("keyline-new-credential-layout");
        fx = new ConsoleFixture(tmp);
    }

    @AfterEach
    void tearDown() throws IOException {
        Text.use(Text.ENGLISH);
        fx.close();
        try (var files = Files.walk(tmp)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void theFieldsStayWhereTheyAreWhicheverTypeIsChosen(FxRobot robot) {
        List<String> moved = new ArrayList<>();
        for (java.util.Locale language : List.of(Text.ENGLISH, Text.CHINESE)) {
            Text.use(language);
            show(robot);
            Map<String, Bounds> cookie = places(robot);
            String wide = fxValue(robot, () -> {
                javafx.scene.control.ComboBox<?> type = robot.lookup("#credential-type").queryAs(
                        javafx.scene.control.ComboBox.class);
                javafx.scene.control.ListCell<?> button = (javafx.scene.control.ListCell<?>) type.lookup(".list-cell");
                double widest = 0;
                for (CredentialType t : CredentialType.values()) {
                    javafx.scene.text.Text x = new javafx.scene.text.Text(
                            ((javafx.util.StringConverter<CredentialType>) (Object) type.getConverter()).toString(t));
                    x.setFont(button.getFont());
                    widest = Math.max(widest, x.getLayoutBounds().getWidth());
                }
                // its padding and its arrow beside the widest type's words, not the name's room
                return type.getWidth() <= widest + 80 ? "" : "the type's box is " + Math.round(type.getWidth())
                        + " px for words of " + Math.round(widest) + " px";
            });
            if (!wide.isEmpty()) {
                moved.add(language + ": " + wide);
            }
            String name = fxValue(robot, () -> {
                javafx.scene.control.TextField field = robot.lookup("#credential-name").queryAs(
                        javafx.scene.control.TextField.class);
                javafx.scene.text.Text prompt = new javafx.scene.text.Text(field.getPromptText());
                prompt.setFont(field.getFont());
                double needs = prompt.getLayoutBounds().getWidth() + field.getInsets().getLeft()
                        + field.getInsets().getRight();
                return field.getWidth() >= needs ? "" : "the name's box is " + Math.round(field.getWidth())
                        + " px for its example of " + Math.round(needs) + " px";
            });
            if (!name.isEmpty()) {
                moved.add(language + ": " + name);
            }
            for (CredentialType t : List.of(CredentialType.BASIC, CredentialType.BEARER, CredentialType.HEADER,
                    CredentialType.OAUTH2, CredentialType.COOKIE)) {
                // as the operator chooses it: the list opened, then the type clicked
                robot.clickOn("#credential-type");
                WaitForAsyncUtils.waitForFxEvents();
                robot.clickOn(robot.lookup(".list-cell").match((javafx.scene.control.ListCell<?> c) ->
                        c.getItem() == t && c.isVisible()).queryAs(javafx.scene.control.ListCell.class));
                WaitForAsyncUtils.waitForFxEvents();
                assertThat(vm.input().typeProperty().get()).isEqualTo(t);
                String cut = fxValue(robot, () -> {
                    javafx.scene.control.ListCell<?> button = (javafx.scene.control.ListCell<?>) robot
                            .lookup("#credential-type").query().lookup(".list-cell");
                    String drawn = button.lookup(".text") instanceof javafx.scene.text.Text x ? x.getText() : "";
                    return button.getText().equals(drawn) ? "" : "'" + drawn + "' of '" + button.getText() + "'";
                });
                if (!cut.isEmpty()) {
                    moved.add(language + " " + t + ": the type is cut to " + cut);
                }
                places(robot).forEach((what, at) -> {
                    Bounds was = cookie.get(what);
                    if (Math.abs(at.getMinY() - was.getMinY()) > 0.5 || Math.abs(at.getMinX() - was.getMinX()) > 0.5) {
                        moved.add(language + " " + t + ": " + what + " moved from (" + Math.round(was.getMinX()) + ", "
                                + Math.round(was.getMinY()) + ") to (" + Math.round(at.getMinX()) + ", "
                                + Math.round(at.getMinY()) + ")");
                    }
                });
            }
        }
        assertThat(moved).as("fields that jump when the type changes").isEmpty();
    }

    /** The dialog as the console opens it for a new credential: "Log in…" is offered. */
    private void show(FxRobot robot) {
        robot.interact(() -> {
            vm = new CredentialViewModel(fx.services, Threads.javafx());
            vm.open(null);
            CredentialDialog dialog = new CredentialDialog(vm, () -> { });
            dialog.offerLogIn(() -> { });
            Scene scene = new Scene(dialog.root(), 860, 680);
            scene.getStylesheets().setAll(Theme.stylesheets());
            stage.setScene(scene);
            stage.show();
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Where the name, the type and the login's box are in the scene. */
    private static Map<String, Bounds> places(FxRobot robot) {
        return fxValue(robot, () -> {
            Map<String, Bounds> out = new LinkedHashMap<>();
            for (String id : List.of("#credential-name", "#credential-type")) {
                Node n = robot.lookup(id).query();
                out.put(id, n.localToScene(n.getLayoutBounds()));
            }
            Node input = robot.lookup(".credential-input").query();
            out.put("the login's box", input.localToScene(input.getLayoutBounds()));
            return out;
        });
    }
}
