package io.keyline.ui.job;

import atlantafx.base.theme.PrimerLight;
import io.keyline.domain.EventType;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.testing.Fx;
import io.keyline.ui.ConsoleFixture;
import io.keyline.ui.NoNavigation;
import io.keyline.ui.common.Theme;
import io.keyline.ui.common.Threads;
import javafx.application.Application;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

import static io.keyline.testing.Fx.fxValue;

/**
 * A job's page in a real (headless) window over a real state: a {@link ConsoleFixture} (H2 in a temp folder, a jobs
 * folder, a loopback site), keys seeded in the states a test needs, and the page shown and loaded. A test class keeps
 * one in a field and hands it its stage from {@code @Start} and its end from {@code @AfterEach} (TestFX looks for
 * {@code @Start} on the test class itself, not on a class it extends).
 */
final class JobPage {

    /** The job the pages show unless told otherwise. */
    static final String JOB = "daily";

    private final List<String> opened = new CopyOnWriteArrayList<>();
    private Stage stage;
    private ConsoleFixture fx;
    private JobViewModel vm;
    private Threads threads = Threads.javafx();
    private double width = 1100;
    private double height = 800;
    private boolean themed;

    /** Keeps the test's stage; the page is drawn with the Primer light theme's controls. */
    void start(Stage s) {
        Application.setUserAgentStylesheet(new PrimerLight().getUserAgentStylesheet());
        stage = s;
    }

    /** The state, the jobs folder and the site, with no job yet. */
    ConsoleFixture open(Path tmp) throws IOException {
        fx = new ConsoleFixture(tmp);
        return fx;
    }

    /** {@link #open} with job {@value #JOB}: write (a command) then publish (an unsafe POST with a probe). */
    ConsoleFixture openPublishing(Path tmp) throws IOException {
        open(tmp).publishJob(JOB, null);
        return fx;
    }

    ConsoleFixture fx() {
        return fx;
    }

    /**
     * Stores key {@code key} of {@value #JOB} in state {@code state}, shaped by {@code shape} (its step, failure, why
     * it waits), with an event that says it was seeded; a key stored before is changed from how it is now.
     *
     * @return the key as stored
     */
    KeyRecord seed(String key, KeyState state, UnaryOperator<KeyRecord> shape) {
        Instant now = fx.wb.clock.instant();
        KeyRecord before = fx.ws.store().ensure(KeyRecord.fresh(JOB, key, now));
        KeyRecord after = shape.apply(before.withState(state));
        fx.ws.store().apply(before, after, null, new KeyEvent(0, JOB, key, now, "seed", EventType.CLAIMED, null, 0,
                state, null, "seeded", null, null, null));
        return after;
    }

    /** Stores keys of {@value #JOB} that have never run (pending). */
    void pending(List<String> keys) {
        Instant now = fx.wb.clock.instant();
        for (String k : keys) {
            fx.ws.store().ensure(KeyRecord.fresh(JOB, k, now));
        }
    }

    /** The size of the scene the next {@link #show} draws the page in (1100 × 800 unless told). */
    JobPage size(double w, double h) {
        width = w;
        height = h;
        return this;
    }

    /** How the page's view model loads and acts ({@link Threads#javafx()} unless told; direct: at once). */
    JobPage threads(Threads t) {
        threads = t;
        return this;
    }

    /** The next {@link #show} draws the page with the console's own stylesheets too. */
    JobPage themed() {
        themed = true;
        return this;
    }

    /** {@link #show(FxRobot, String, int)} of {@value #JOB}. */
    JobViewModel show(FxRobot robot, int rows) throws Exception {
        return show(robot, JOB, rows);
    }

    /**
     * Shows the page of {@code job} in the stage and loads it; returns once the key table lists {@code rows} keys. Its
     * links lead nowhere, except that a key's timeline is noted in {@link #opened}.
     */
    JobViewModel show(FxRobot robot, String job, int rows) throws Exception {
        JobViewModel model = new JobViewModel(fx.services, threads);
        vm = model;
        robot.interact(() -> {
            Scene scene = new Scene(new JobView(model, new NoNavigation() {
                @Override
                public void showTimeline(String j, String key) {
                    opened.add(j + " " + key);
                }
            }), width, height);
            if (themed) {
                scene.getStylesheets().setAll(Theme.stylesheets());
            }
            stage.setScene(scene);
            stage.show();
            model.load(job);
        });
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> fxValue(robot, () -> model.rows().size() == rows));
        WaitForAsyncUtils.waitForFxEvents();
        return model;
    }

    /** The view model of the page shown last. */
    JobViewModel vm() {
        return vm;
    }

    Stage stage() {
        return stage;
    }

    /** The timelines the page opened, as "job key", in order. */
    List<String> opened() {
        return opened;
    }

    /** The page's key table. */
    @SuppressWarnings("unchecked")
    TableView<JobViewModel.KeyRow> table(FxRobot robot) {
        return robot.lookup("#key-table").queryAs(TableView.class);
    }

    /** Reloads the page as the console's periodic reload does, and waits until the FX thread has drawn it. */
    void reload(FxRobot robot) {
        robot.interact(vm::reload);
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Finds, when called on the FX thread, the first row on the screen whose key {@code which} accepts. */
    static Callable<Node> row(FxRobot robot, Predicate<JobViewModel.KeyRow> which) {
        return () -> robot.lookup(".table-row-cell").queryAll().stream()
                .filter(n -> n.isVisible() && ((TableRow<?>) n).getItem() instanceof JobViewModel.KeyRow k
                        && which.test(k)).findFirst().orElseThrow();
    }

    /** The row of {@code table} that shows {@code key} now (call on the FX thread), or {@code null}. */
    static TableRow<?> rowOf(TableView<JobViewModel.KeyRow> table, String key) {
        return table.lookupAll(".table-row-cell").stream()
                .filter(n -> n instanceof TableRow<?> r && r.isVisible() && r.getItem()
                        instanceof JobViewModel.KeyRow k && k.key().equals(key))
                .map(n -> (TableRow<?>) n).findFirst().orElse(null);
    }

    /** Closes what the test left open (a dialog, a menu) and the state. */
    void close(FxRobot robot) throws IOException {
        Fx.hideOtherWindows(robot, stage);
        if (fx != null) {
            fx.close();
        }
    }
}
