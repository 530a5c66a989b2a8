package io.keyline.ui.timeline;

import atlantafx.base.theme.PrimerLight;
import io.keyline.domain.EventType;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyState;
import io.keyline.testing.TestSite.Fault;
import io.keyline.ui.Navigator;
import io.keyline.ui.common.Threads;
import io.keyline.core.operations.Timeline.EventRow;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.keyline.ui.timeline.TimelineConfirmFixture.KEY;
import static org.assertj.core.api.Assertions.assertThat;

/** The timeline of a key with thousands of events, in a real (headless) window. */
@ExtendWith(ApplicationExtension.class)
class TimelineViewTest {

    @TempDir
    static Path tmp;
    Stage stage;
    TimelineConfirmFixture fx;
    final List<String> navigation = new ArrayList<>();

    @Start
    void start(Stage s) {
        Application.setUserAgentStylesheet(new PrimerLight().getUserAgentStylesheet());
        stage = s;
    }

    @AfterEach
    void tearDown() throws Exception {
        if (fx != null) {
            fx.close();
        }
    }

    @Test
    void thousandsOfEventsUseAScreenfulOfCellsAndAFailureExpandsToItsEvidence(FxRobot robot) throws Exception {
        fx = new TimelineConfirmFixture(tmp.resolve("big"));
        fx.job("daily", TimelineConfirmFixture.publishJob("daily", null, false));
        fx.site.failPosts(Fault.STATUS_404);
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.FAILED);
        JobDefinition def = fx.def("daily");
        for (int i = 0; i < 1000; i++) { // 2,000 operator events
            fx.services().actions().skip(def, KEY, "skip " + i);
            fx.services().actions().retry(def, KEY, null);
        }
        fx.site.failPosts(Fault.STATUS_404);
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.FAILED);

        TimelineViewModel vm = new TimelineViewModel(fx.services(), Threads.javafx());
        robot.interact(() -> {
            Scene scene = new Scene(new TimelineView(vm, navigator()), 1100, 700);
            scene.getStylesheets().addAll(io.keyline.ui.common.Theme.STYLESHEETS); // the app's (state colours too)
            stage.setScene(scene);
            stage.show();
            vm.load("daily", KEY);
        });
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> vm.eventCountProperty().get() > 2000);
        WaitForAsyncUtils.waitForFxEvents();

        ListView<?> list = robot.lookup(".timeline-list").queryAs(ListView.class);
        assertThat(list.getItems().size()).isGreaterThan(2000);
        // still virtualized (a screenful of cells for thousands of events), under column titles
        assertThat(robot.lookup(".timeline-list .list-cell").queryAll()).hasSizeLessThan(100);
        assertThat(robot.lookup("#timeline-columns").query().isVisible()).isTrue();
        assertThat(robot.lookup("#timeline-columns .label").queryAllAs(javafx.scene.control.Label.class))
                .extracting(javafx.scene.control.Label::getText).contains("Time", "What happened", "Step", "Message");
        // scrolled to the newest run
        assertThat(list.getItems().indexOf(robot.lookup(".timeline-list .list-cell.run-row").queryAll().stream()
                .map(n -> ((ListCell<?>) n).getItem()).filter(java.util.Objects::nonNull).reduce((a, b) -> b)
                .orElseThrow())).isEqualTo(vm.newestRunProperty().get());
        // the latest failure is open, with its evidence below the list
        TextArea evidence = robot.lookup(".evidence-text").queryAs(TextArea.class);
        assertThat(robot.lookup(".timeline-detail").query().isVisible()).isTrue();
        assertThat(evidence.getText()).contains("HTTP 404").contains("no such site");

        // the first run's failure, at the top of a long list: click opens it, Enter closes it
        robot.interact(() -> list.scrollTo(0));
        WaitForAsyncUtils.waitForFxEvents();
        ListCell<?> firstFailure = robot.lookup(".timeline-list .list-cell.failure").queryAll().stream()
                .map(n -> (ListCell<?>) n).filter(c -> c.getIndex() < 10).findFirst().orElseThrow();
        robot.clickOn(firstFailure);
        WaitForAsyncUtils.waitForFxEvents();
        EventRow open = vm.expandedProperty().get();
        assertThat(open).isNotNull();
        assertThat(open.type()).isEqualTo(EventType.KEY_FAILED);
        assertThat(vm.rows().indexOf(open)).isLessThan(10);
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(vm.expandedProperty().get()).isNull();
        assertThat(robot.lookup(".timeline-detail").query().isVisible()).isFalse();

        robot.clickOn("Retry");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> navigation.contains("refresh"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(vm.stateProperty().get()).isEqualTo(KeyState.DONE);
        assertThat(fx.site.effects(KEY)).isEqualTo(1);
        // after Retry: the outcome is said at the top, and the evidence pane no longer shows the old failure
        assertThat(robot.lookup("#timeline-notice").queryLabeled().getText()).isEqualTo("Retried: " + KEY + " is done");
        assertThat(robot.lookup("#timeline-notice").query().isVisible()).isTrue();
        assertThat(robot.lookup("#timeline-outcome").queryLabeled().getText()).startsWith("Done at ");
        assertThat(robot.lookup(".timeline-detail").query().isVisible()).isFalse();
    }

    private Navigator navigator() {
        return new Navigator() {
            @Override
            public void showInbox() {
                navigation.add("inbox");
            }

            @Override
            public void showJob(String job) {
                navigation.add("job " + job);
            }

            @Override
            public void plan(String job, java.util.List<String> keys) {
                navigation.add("plan " + job + " " + keys);
            }

            @Override
            public void showTimeline(String job, String key) {
                navigation.add("timeline " + job + " " + key);
            }

            @Override
            public void confirm(String job, String key) {
                navigation.add("confirm " + job + " " + key);
            }

            @Override
            public void renewCredential(String name) {
                navigation.add("credential " + name);
            }

            @Override
            public void plan(String job) {
                navigation.add("plan " + job);
            }

            @Override
            public void refresh() {
                navigation.add("refresh");
            }
        };
    }
}
