package io.keyline.ui.confirm;

import atlantafx.base.theme.PrimerLight;
import io.keyline.core.operations.EvidenceText;
import io.keyline.core.operations.Timeline;
import io.keyline.domain.EventType;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyState;
import io.keyline.domain.ProbeAnswer;
import io.keyline.testing.TestSite.Fault;
import io.keyline.ui.NoNavigation;
import io.keyline.ui.common.Palette;
import io.keyline.ui.common.Threads;
import io.keyline.ui.timeline.TimelineConfirmFixture;
import io.keyline.ui.timeline.TimelineView;
import io.keyline.ui.timeline.TimelineViewModel;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListCell;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.keyline.ui.timeline.TimelineConfirmFixture.KEY;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Confirm and the timeline say once a confirmed POST ran, in real (headless) windows against a real
 * state and a loopback site that counts requests: the fresh probe asked just before the POST (its answer
 * and time), the site's answer (HTTP status, the id it created), the key's new state, and the run's whole
 * duration.
 */
@ExtendWith(ApplicationExtension.class)
class ConfirmAfterActionTest {

    @TempDir
    static Path tmp;
    Stage owner;
    TimelineConfirmFixture fx;

    @Start
    void start(Stage stage) {
        Application.setUserAgentStylesheet(new PrimerLight().getUserAgentStylesheet());
        owner = stage;
        stage.setScene(new Scene(new StackPane(new Label("Keyline")), 1100, 760));
        stage.show();
    }

    @AfterEach
    void tearDown(FxRobot robot) throws Exception {
        robot.interact(() -> Window.getWindows().stream().filter(w -> w != owner).toList().forEach(Window::hide));
        if (fx != null) {
            fx.close();
        }
    }

    /** A key whose POST got a 502 waits for confirmation; its probe (slow: 150 ms) found nothing. */
    private void waitingKey(String dir) throws Exception {
        fx = new TimelineConfirmFixture(tmp.resolve(dir));
        fx.job("daily", TimelineConfirmFixture.publishJob("daily", null, true));
        fx.site.failPosts(Fault.STATUS_502);
        assertThat(fx.run("daily", KEY).state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);
        // real time from here on: the events of the confirmed run carry when things happened
        fx.wb.clock.followSystemClock();
        fx.site.getDelayMillis(150);
    }

    private KeyEvent freshProbe() {
        List<KeyEvent> events = fx.ws().store().events("daily", KEY);
        return events.stream().filter(e -> e.type() == EventType.PROBE_ANSWERED && e.probe() == ProbeAnswer.ABSENT)
                .reduce((a, b) -> b).orElseThrow(() -> new AssertionError("no probe answer recorded: " + events));
    }

    private static String text(FxRobot robot, String query) {
        return robot.lookup(query).queryAs(Labeled.class).getText();
    }

    @Test
    void confirmSaysWhatHappenedTheProbeAskedBeforeThePostAndTheSitesAnswer(FxRobot robot) throws Exception {
        waitingKey("confirm");
        long posts = fx.site.posts();
        long gets = fx.site.gets();
        robot.interact(() -> ConfirmDialog.show(owner, fx.services(), Threads.javafx(), "daily", KEY, () -> { }));
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS,
                () -> !robot.lookup("#confirm-and-run").queryButton().isDisabled());
        assertThat(text(robot, ".confirm-probe")).startsWith("Latest probe answer");
        assertThat(text(robot, ".confirm-headline")).contains("unknown");

        robot.clickOn("#confirm-and-run");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> "Close".equals(text(robot, "#confirm-cancel")));
        WaitForAsyncUtils.waitForFxEvents();

        // one probe GET, then one POST
        assertThat(fx.site.gets() - gets).isEqualTo(1);
        assertThat(fx.site.posts() - posts).isEqualTo(1);
        assertThat(fx.site.effects(KEY)).isEqualTo(1);
        // the probe asked just before the POST, with its answer and time (not the stale "latest" one)
        KeyEvent probe = freshProbe();
        assertThat(text(robot, ".confirm-probe")).contains("just before sending").contains("not there yet")
                .contains(EvidenceText.time(probe.ts())).doesNotContain("Latest probe answer");
        // what happened instead of why it waited: no "outcome unknown" any more
        assertThat(text(robot, "#confirm-why .confirm-section-title")).isEqualTo("What happened");
        assertThat(text(robot, ".confirm-headline")).startsWith("Sent once").doesNotContain("unknown");
        // the new state, the site's answer and the id it created, said once ("Done Done" before)
        String id = fx.ws().store().steps("daily", KEY).get("publish").outputs().get("id");
        assertThat(id).isNotBlank();
        assertThat(text(robot, ".confirm-outcome-text")).startsWith("The site answered HTTP 201: ")
                .contains("id = " + id).isNotEqualTo("Done");
        assertThat(robot.lookup(".confirm-outcome .state-chip").queryAs(Labeled.class).getText()).isEqualTo("Done");
        assertThat(robot.lookup(".confirm-header .state-chip").queryAs(Labeled.class).getText()).isEqualTo("Done");
        assertThat(robot.lookup(".confirm-evidence").queryTextInputControl().getText()).contains("HTTP 201")
                .contains("POST " + fx.site.base() + "/api/articles");
    }

    /**
     * At the size a 1024×680 screen gives it, the dialog's note field shows its whole placeholder; once the step was
     * sent and succeeded, the headline reads in the success colour (not the warning's amber), the payload is what
     * was sent, and the placeholder names no button the finished dialog does not offer.
     */
    @Test
    void afterASuccessfulSendTheDialogReadsAsASuccessInThePastTense(FxRobot robot) throws Exception {
        waitingKey("success");
        robot.interact(() -> ConfirmDialog.show(owner, fx.services(), Threads.javafx(), "daily", KEY, () -> { }));
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS,
                () -> !robot.lookup("#confirm-and-run").queryButton().isDisabled());
        Stage dialog = (Stage) robot.lookup("#confirm-and-run").query().getScene().getWindow();
        robot.interact(() -> {
            dialog.setWidth(760);
            dialog.setHeight(632);
        });
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.control.TextArea note = robot.lookup("#confirm-note").queryAs(javafx.scene.control.TextArea.class);
        assertPromptFits(robot, note);
        Label headline = robot.lookup(".confirm-headline").queryAs(Label.class);
        assertThat(headline.getTextFill()).as("waiting").isEqualTo(Palette.named("-kl-confirm"));

        robot.clickOn("#confirm-and-run");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> "Close".equals(text(robot, "#confirm-cancel")));
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(headline.getText()).startsWith("Sent once");
        assertThat(headline.getTextFill()).as("the headline of a success").isEqualTo(Palette.named("-kl-ok"));
        assertThat(robot.lookup(".confirm-section-title").queryAllAs(Label.class)).extracting(Label::getText)
                .contains("What was sent").doesNotContain("What will be sent");
        boolean markDoneShown = robot.lookup(".button").queryAllAs(javafx.scene.control.Button.class).stream()
                .anyMatch(b -> b.isVisible() && b.getText().startsWith("Mark done"));
        assertThat(markDoneShown).isFalse();
        assertThat(note.getPromptText()).doesNotContain("Mark done");
    }

    /** The placeholder's lines, with the room below them, end inside the field's visible area. */
    private static void assertPromptFits(FxRobot robot, javafx.scene.control.TextArea note) {
        String prompt = note.getPromptText();
        javafx.scene.text.Text shown = robot.from(note).lookup((javafx.scene.Node n) -> n instanceof javafx.scene.text.Text t
                && prompt.equals(t.getText())).queryAs(javafx.scene.text.Text.class);
        javafx.geometry.Bounds text = shown.localToScene(shown.getBoundsInLocal());
        javafx.scene.Node viewport = note.lookup(".viewport");
        javafx.geometry.Bounds visible = viewport.localToScene(viewport.getBoundsInLocal());
        double below = ((javafx.scene.layout.Region) note.lookup(".content")).getPadding().getBottom();
        assertThat(text.getMaxY() + below).as("bottom of the placeholder %s within the field's visible %s", text,
                visible).isLessThanOrEqualTo(visible.getMaxY() + 0.5);
    }

    @Test
    void theTimelineShowsTheProbeAskedBeforeTheConfirmedPostAndTheRunsWholeDuration(FxRobot robot) throws Exception {
        waitingKey("timeline");
        fx.services().operations().confirmAndRun().confirmAndRun(fx.def("daily"), KEY, "checked the site", null,
                fx.services().engine(), c -> { });
        assertThat(fx.record("daily", KEY).state()).isEqualTo(KeyState.DONE);
        KeyEvent probe = freshProbe();

        TimelineViewModel vm = new TimelineViewModel(fx.services(), Threads.javafx());
        robot.interact(() -> {
            TimelineView view = new TimelineView(vm, new NoNavigation());
            owner.getScene().setRoot(view);
            vm.load("daily", KEY);
        });
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> vm.newestRunProperty().get() >= 0);
        WaitForAsyncUtils.waitForFxEvents();

        // the newest run: the probe's answer, then the POST
        List<Timeline.Row> rows = List.copyOf(vm.rows());
        int run = vm.newestRunProperty().get();
        Timeline.RunHeader header = (Timeline.RunHeader) rows.get(run);
        List<Timeline.EventRow> events = rows.subList(run + 1, rows.size()).stream()
                .map(r -> (Timeline.EventRow) r).toList();
        assertThat(events).extracting(Timeline.EventRow::type).containsSubsequence(EventType.PROBE_ANSWERED,
                EventType.STEP_STARTED, EventType.STEP_SUCCEEDED, EventType.KEY_DONE);
        Timeline.EventRow answered = events.stream().filter(e -> e.type() == EventType.PROBE_ANSWERED)
                .findFirst().orElseThrow();
        assertThat(answered.ts()).isEqualTo(probe.ts());
        assertThat(answered.message()).contains("not there yet").doesNotContain("probe:");
        assertThat(answered.hasEvidence()).isTrue();
        // on screen: its row, with its time of day
        robot.interact(() -> robot.lookup("#timeline-list").queryListView().scrollTo(run));
        WaitForAsyncUtils.waitForFxEvents();
        List<ListCell<?>> cells = robot.lookup("#timeline-list .list-cell").queryAll().stream()
                .<ListCell<?>>map(n -> (ListCell<?>) n).filter(c -> c.getItem() == answered).toList();
        assertThat(cells).hasSize(1);
        assertThat(robot.from(cells.get(0)).lookup(".timeline-type").queryAs(Labeled.class).getText())
                .isEqualTo("Probe answered");
        assertThat(robot.from(cells.get(0)).lookup(".timeline-time").queryAs(Labeled.class).getText())
                .isEqualTo(EvidenceText.clock(probe.ts()));

        // the run header says the run's time from its start to its end (the 150 ms probe included), not the
        // POST's alone
        Duration whole = Duration.between(events.get(0).ts(), events.get(events.size() - 1).ts());
        assertThat(whole).isGreaterThanOrEqualTo(Duration.ofMillis(150));
        assertThat(header.summary()).contains(" · " + EvidenceText.duration(whole) + " · ");
        List<ListCell<?>> headerCells = robot.lookup("#timeline-list .list-cell").queryAll().stream()
                .<ListCell<?>>map(n -> (ListCell<?>) n).filter(c -> c.getItem() == header).toList();
        assertThat(headerCells).hasSize(1);
        assertThat(robot.from(headerCells.get(0)).lookup(".timeline-run-summary").queryAs(Labeled.class).getText())
                .contains(EvidenceText.duration(whole));
    }

}
