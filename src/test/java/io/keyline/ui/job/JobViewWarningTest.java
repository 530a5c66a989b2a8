package io.keyline.ui.job;

import io.keyline.text.Text;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.keyline.testing.Fx.fxValue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job whose file the loader warns of (a {@code retryWhen} that any 403 meets: an ended login would be sent again
 * instead of waiting for a new one) says so on its page, where the operator runs it, in words and in place; a job
 * without a warning shows no such notice.
 */
@ExtendWith(ApplicationExtension.class)
class JobViewWarningTest {

    static final Path EXAMPLE = Path.of("resources/jobs/examples/forum-topic.json");

    @TempDir
    Path tmp;
    final JobPage page = new JobPage();

    @Start
    void start(Stage s) {
        page.start(s);
    }

    @AfterEach
    void tearDown(FxRobot robot) throws Exception {
        Text.use(Text.ENGLISH);
        page.close(robot);
    }

    @Test
    void aJobFileWarnedOfSaysSoOnItsPage(FxRobot robot) throws Exception {
        String text = Files.readString(EXAMPLE, StandardCharsets.UTF_8);
        page.open(tmp);
        Files.writeString(page.fx().wb.jobs.resolve("forum-topic.json"),
                text.replace("\"retryWhen\": { \"bodyContains\": \"BAD CSRF\" }", "\"retryWhen\": { \"status\": [403] }"),
                StandardCharsets.UTF_8);
        Files.writeString(page.fx().wb.jobs.resolve("narrow.json"), text.replace("\"name\": \"forum-topic\"",
                "\"name\": \"forum-narrow\""), StandardCharsets.UTF_8);

        page.show(robot, "forum-topic", 0);
        Label warning = robot.lookup("#job-file-warnings").queryAs(Label.class);
        org.testfx.util.WaitForAsyncUtils.waitFor(20, java.util.concurrent.TimeUnit.SECONDS,
                () -> fxValue(robot, () -> !warning.getText().isEmpty()));
        assertThat(fxValue(robot, () -> shown(warning))).as("the warning on the page").isTrue();
        assertThat(fxValue(robot, warning::getText)).contains("forum-topic.json:26:")
                .contains("step \"publish\": steps[2].response.retryWhen takes any 403 for \"try again\"");

        page.show(robot, "forum-narrow", 0);
        Label none = robot.lookup("#job-file-warnings").queryAs(Label.class);
        org.testfx.util.WaitForAsyncUtils.waitFor(20, java.util.concurrent.TimeUnit.SECONDS,
                () -> fxValue(robot, () -> page.vm().definitionProperty().get() != null));
        assertThat(fxValue(robot, () -> shown(none))).as("a warning on a page of a job without one").isFalse();

        Text.use(Text.CHINESE);
        page.show(robot, "forum-topic", 0);
        Label zh = robot.lookup("#job-file-warnings").queryAs(Label.class);
        org.testfx.util.WaitForAsyncUtils.waitFor(20, java.util.concurrent.TimeUnit.SECONDS,
                () -> fxValue(robot, () -> !zh.getText().isEmpty()));
        assertThat(fxValue(robot, zh::getText)).contains("把任何 403 都当作“稍后再试”").doesNotContain("takes any 403");
    }

    /** Whether {@code n} and every node above it is visible and in the layout. */
    private static boolean shown(Node n) {
        for (Node at = n; at != null; at = at.getParent()) {
            if (!at.isVisible() || !at.isManaged() && at != n.getScene().getRoot()) {
                return false;
            }
        }
        return n.getScene() != null && n.getBoundsInLocal().getHeight() > 0;
    }
}
