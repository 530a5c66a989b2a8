package io.keyline.ui.shell;

import io.keyline.acceptance.Jobs;
import io.keyline.app.ConsoleApp;
import io.keyline.core.RunTrace;
import io.keyline.core.SchedulerControl;
import io.keyline.core.SchedulerControl.Mode;
import io.keyline.core.SchedulerControl.Status;
import io.keyline.core.SchedulerControl.Upcoming;
import io.keyline.domain.KeyState;
import io.keyline.testing.TestSite.Fault;
import io.keyline.ui.ConsoleServices;
import io.keyline.core.operations.Attention;
import io.keyline.ui.MainWindowTest;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ScrollBar;
import javafx.scene.input.KeyCode;
import javafx.stage.Window;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Collections;
import java.util.List;

import static io.keyline.testing.Fx.fxValue;
import static io.keyline.testing.Fx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The main window's layout seen in real windows, headless with the real main
 * window, a real state folder and a loopback site: the scheduler's banner and the notes never move the
 * page under the pointer, the paused banner and the summary after a tick that ran keys show, the
 * sidebar never scrolls sideways and its badges keep their text, J/K work after a sidebar click, and
 * Skip asks in its own dialog.
 */
class ConsoleLayoutTest extends MainWindowTest {

    static final String KEY = "2026-11-29";

    final Scheduler scheduler = new Scheduler();

    /** A scheduler whose status and last tick the test sets. */
    static final class Scheduler implements SchedulerControl {
        volatile boolean paused;
        volatile Ran ran;
        volatile Upcoming next;

        @Override
        public Status status() {
            List<Upcoming> due = paused ? List.of(new Upcoming("daily", "2026-11-30",
                    ZonedDateTime.of(2026, 11, 30, 9, 0, 0, 0, ZoneOffset.UTC), false, null)) : List.of();
            return new Status(paused ? Mode.PAUSED : Mode.ON, null, due, next, null, Duration.ofDays(7), null);
        }

        @Override
        public Ran lastRan() {
            return ran;
        }

        @Override
        public void enable() {
            paused = false;
        }

        @Override
        public void disable() {
            paused = true;
        }
    }

    private void open(FxRobot robot, double width, double height) throws Exception {
        fixture("layout");
        show(robot, width, height);
    }

    @SuppressWarnings("unchecked")
    private static ListView<Attention.Item> inbox(FxRobot robot) {
        return robot.lookup("#inbox-list").queryAs(ListView.class);
    }

    private static Bounds inScene(FxRobot robot, Node n) {
        return fxValue(robot, () -> n.localToScene(n.getBoundsInLocal()));
    }

    // ------------------------------------------------------------------ the page does not jump

    @Test
    void theBannerAndTheNotesNeverMoveTheAttentionRows(FxRobot robot) throws Exception {
        fixture("layout");
        fx.wb.job("daily", Jobs.publish("daily", "unsafe", false, null), fx.site.base());
        fx.site.failPosts(Fault.STATUS_404);
        assertThat(fx.wb.cli("run", "daily", "--key", KEY).exit()).isEqualTo(2);
        ConsoleServices services = ConsoleApp.services(fx.ws, fx.ws.engine(RunTrace.NONE), fx.wb.env(), scheduler);
        show(robot, services, 1280, 860);
        waitUntil(() -> robot.lookup("#action-daily-" + KEY).tryQuery().isPresent());
        Node button = robot.lookup("#action-daily-" + KEY).query();
        Node firstRow = robot.lookup("#inbox-list .inbox-item").query();
        Bounds buttonAt = inScene(robot, button);
        Bounds rowAt = inScene(robot, firstRow);

        // the scheduler is paused: its banner shows
        scheduler.paused = true;
        robot.interact(() -> console.refresh());
        waitUntil(() -> robot.lookup("#scheduler-banner").query().isVisible());
        assertThat(robot.lookup("#scheduler-banner-text").queryLabeled().getText())
                .isEqualTo("The scheduler is paused: it starts nothing; 1 key is due and waits.");
        assertThat(robot.lookup("#status-scheduler").queryLabeled().getText()).startsWith("Scheduler: PAUSED");
        assertThat(inScene(robot, button)).as("the banner appeared").isEqualTo(buttonAt);
        assertThat(inScene(robot, firstRow)).isEqualTo(rowAt);

        // a tick ran keys: the summary note shows, and nothing under the pointer moves
        scheduler.ran = new SchedulerControl.Ran(Instant.parse("2026-11-29T09:00:05Z"),
                Collections.nCopies(8, "daily " + KEY), Collections.nCopies(8, KeyState.DONE));
        robot.interact(() -> console.refresh());
        waitUntil(() -> robot.lookup(".toast").tryQuery().isPresent());
        String note = robot.lookup(".toast .toast-text").queryLabeled().getText();
        assertThat(note).startsWith("8 keys ran: 8 done");
        assertThat(inScene(robot, button)).as("a note appeared").isEqualTo(buttonAt);
        assertThat(inScene(robot, firstRow)).isEqualTo(rowAt);
        // the same tick is said once
        robot.interact(() -> console.refresh());
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(robot.lookup(".toast").queryAll()).hasSize(1);

        // Resume on the banner: it goes, and the rows stay where they were
        robot.clickOn("#scheduler-banner-resume");
        waitUntil(() -> !robot.lookup("#scheduler-banner").query().isVisible());
        assertThat(scheduler.paused).isFalse();
        assertThat(inScene(robot, button)).as("the banner went").isEqualTo(buttonAt);
        robot.clickOn(".toast .toast-close");
        waitUntil(() -> robot.lookup(".toast").tryQuery().isEmpty());
        assertThat(inScene(robot, button)).as("the note went").isEqualTo(buttonAt);
        assertThat(inScene(robot, firstRow)).isEqualTo(rowAt);
    }

    // ------------------------------------------------------------------ every page at the smallest window

    /**
     * At 1024×680, the smallest supported window, every page and dialog keeps its controls on screen and
     * every label or cell that is cut short has a tooltip with its whole text: Attention, both example
     * jobs' pages, a key's timeline, Credentials, Workers, Plan, Confirm and Renew.
     */
    @Test
    void everyPageFitsTheSmallestWindow(FxRobot robot) throws Exception {
        fixture("layout");
        Path examples = Path.of("resources/jobs");
        for (String f : List.of("daily-report.json", "weekly-archive.json")) {
            java.nio.file.Files.copy(examples.resolve(f), fx.wb.jobs.resolve(f));
        }
        copyTree(examples.resolve("scripts"), fx.wb.jobs.resolve("scripts"));
        copyTree(examples.resolve("data"), fx.wb.jobs.resolve("data"));
        assertThat(fx.wb.cli("run", "--yes", "daily-report", "--from", "2026-11-02", "--to", "2026-11-08").exit()).isZero();
        assertThat(fx.wb.cli("run", "weekly-archive", "--key", "2026-W45").exit()).isZero();
        fx.wb.job("daily-article-with-a-long-name", Jobs.publish("daily-article-with-a-long-name", "unsafe", false,
                "\"credential\": \"site-cookie\","), fx.site.base());
        fx.wb.job("daily", Jobs.publish("daily", "unsafe", false, null), fx.site.base());
        assertThat(fx.wb.cliWithInput("Cookie: session=v1", "credentials", "set", "site-cookie", "--login-url",
                "https://sandbox.example/a/rather/long/login/path/that/an/sso/provider/might/use?next=%2Fdashboard")
                .exit()).isZero();
        fx.site.failPosts(Fault.STATUS_502);
        assertThat(fx.wb.cli("run", "daily", "--key", KEY).exit()).isEqualTo(4);
        fx.site.failPosts(Fault.STATUS_404);
        assertThat(fx.wb.cli("run", "daily", "--key", "2026-11-28").exit()).isEqualTo(2);
        fx.site.requireCookie("session=v2");
        assertThat(fx.wb.cli("run", "--yes", "daily-article-with-a-long-name", "--from", "2026-11-27", "--to", KEY).exit())
                .isEqualTo(4);

        show(robot, 1024, 680);
        waitUntil(() -> inbox(robot).getItems().size() >= 3);
        java.util.Map<String, List<String>> problems = new java.util.LinkedHashMap<>();
        problems.put("Attention", problems(robot, stage));
        for (String job : List.of("daily-report", "weekly-archive", "daily-article-with-a-long-name")) {
            robot.interact(() -> console.showJob(job));
            waitUntil(() -> robot.lookup("#job-view").tryQuery().map(Node::isVisible).orElse(false)
                    && !robot.lookup("#key-table").queryAs(javafx.scene.control.TableView.class).getItems().isEmpty());
            problems.put("job " + job, problems(robot, stage));
        }
        robot.interact(() -> console.showTimeline("daily", KEY));
        waitUntil(() -> robot.lookup("#timeline-back").tryQuery().map(Node::isVisible).orElse(false));
        Thread.sleep(300);
        WaitForAsyncUtils.waitForFxEvents();
        problems.put("timeline", problems(robot, stage));
        robot.clickOn("#nav-credentials");
        waitUntil(() -> robot.lookup(".credentials-table").tryQuery().map(Node::isVisible).orElse(false));
        problems.put("Credentials", problems(robot, stage));
        robot.clickOn("#nav-workers");
        WaitForAsyncUtils.waitForFxEvents();
        Thread.sleep(300);
        problems.put("Workers", problems(robot, stage));

        robot.interact(() -> console.plan("weekly-archive"));
        waitUntil(() -> dialog(robot, "#plan-table") != null);
        problems.put("Plan", problems(robot, dialog(robot, "#plan-table")));
        closeDialogs(robot);
        robot.interact(() -> console.confirm("daily", KEY));
        waitUntil(() -> dialog(robot, "#confirm-and-run") != null);
        Thread.sleep(500);
        WaitForAsyncUtils.waitForFxEvents();
        problems.put("Confirm", problems(robot, dialog(robot, "#confirm-and-run")));
        closeDialogs(robot);
        robot.interact(() -> console.renewCredential("site-cookie"));
        waitUntil(() -> dialog(robot, ".credential-input") != null);
        problems.put("Renew", problems(robot, dialog(robot, ".credential-input")));
        closeDialogs(robot);

        problems.values().removeIf(List::isEmpty);
        assertThat(problems).as("controls off screen or cut without a tooltip at 1024x680").isEmpty();
    }

    private static void copyTree(Path from, Path to) throws java.io.IOException {
        try (var files = java.nio.file.Files.walk(from)) {
            for (Path f : files.toList()) {
                Path t = to.resolve(from.relativize(f).toString());
                if (java.nio.file.Files.isDirectory(f)) {
                    java.nio.file.Files.createDirectories(t);
                } else {
                    java.nio.file.Files.copy(f, t, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private Window dialog(FxRobot robot, String query) {
        return fxValue(robot, () -> Window.getWindows().stream().filter(w -> w != stage && w.isShowing()
                && w.getScene().lookup(query) != null).findFirst().orElse(null));
    }

    private void closeDialogs(FxRobot robot) {
        robot.interact(() -> Window.getWindows().stream().filter(w -> w != stage).toList().forEach(Window::hide));
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** What does not fit {@code window}: controls beyond its edges, and cut texts without a tooltip. */
    static List<String> problems(FxRobot robot, Window window) {
        return fxValue(robot, () -> {
            Scene scene = window.getScene();
            List<String> out = new java.util.ArrayList<>();
            collect(scene.getRoot(), scene.getWidth(), scene.getHeight(), false, out);
            return out;
        });
    }

    private static void collect(Node n, double w, double h, boolean scrolled, List<String> out) {
        if (!n.isVisible() || n.getOpacity() == 0) {
            return;
        }
        if (n instanceof javafx.scene.control.Control c && !scrolled) {
            Bounds b = c.localToScene(c.getLayoutBounds());
            if (b.getWidth() > 0 && (b.getMaxX() > w + 1 || b.getMaxY() > h + 1 || b.getMinX() < -1)) {
                out.add(describe(c) + " reaches x " + Math.round(b.getMaxX()) + ", y " + Math.round(b.getMaxY())
                        + " of " + Math.round(w) + "x" + Math.round(h));
            }
        }
        if (n instanceof javafx.scene.control.Labeled l && l.getText() != null && !l.getText().isBlank()
                && l.lookup(".text") instanceof javafx.scene.text.Text t && t.getText() != null
                && !t.getText().equals(l.getText()) && (t.getText().endsWith("...") || t.getText().endsWith("…"))
                && !l.getText().endsWith("…") && !tipShows(l, l.getText())) {
            out.add(describe(l) + " is cut to '" + t.getText() + "' without a tooltip");
        }
        if (n instanceof javafx.scene.Parent p) {
            boolean clips = scrolled || n instanceof javafx.scene.control.ScrollPane
                    || n instanceof javafx.scene.control.skin.VirtualFlow<?>;
            for (Node c : p.getChildrenUnmodifiable()) {
                collect(c, w, h, clips, out);
            }
        }
    }

    /** Whether hovering {@code n} shows {@code text} whole: its tooltip, or that of a control around it. */
    private static boolean tipShows(Node n, String text) {
        String want = text.replaceAll("\\s+", " ").strip();
        for (Node p = n; p != null; p = p.getParent()) {
            if (p instanceof javafx.scene.control.Control c && c.getTooltip() != null
                    && c.getTooltip().getText() != null
                    && c.getTooltip().getText().replaceAll("\\s+", " ").contains(want)) {
                return true;
            }
        }
        return false;
    }

    private static String describe(Node n) {
        String text = n instanceof javafx.scene.control.Labeled l ? " '" + l.getText() + "'" : "";
        return n.getClass().getSimpleName() + (n.getId() == null ? "" : "#" + n.getId()) + text;
    }

    // ------------------------------------------------------------------ sidebar

    @Test
    void theSidebarNeverScrollsSidewaysAndItsBadgesKeepTheirText(FxRobot robot) throws Exception {
        fixture("layout");
        String longName = "a-very-long-job-name-that-does-not-fit-the-sidebar";
        fx.wb.job(longName, Jobs.command(longName, "none", "true", "PT5S").replace("2026-01-01", "2026-11-20"), null);
        show(robot, 1024, 680);
        waitUntil(() -> robot.lookup("#missing-" + longName).tryQuery().map(Node::isVisible).orElse(false));
        ListView<?> jobs = robot.lookup("#job-list").queryAs(ListView.class);
        for (Node n : robot.from(jobs).lookup(".scroll-bar").queryAll()) {
            ScrollBar bar = (ScrollBar) n;
            if (bar.getOrientation() == javafx.geometry.Orientation.HORIZONTAL) {
                assertThat(bar.isVisible()).as("a horizontal scroll bar in the sidebar").isFalse();
            }
        }
        Label missing = robot.lookup("#missing-" + longName).queryAs(Label.class);
        assertThat(missing.getText()).isEqualTo("10 missing");
        assertThat(shownText(robot, missing)).as("the badge is not cut").isEqualTo("10 missing");
        Label name = robot.from(jobs).lookup(".job-name").queryAs(Label.class);
        assertThat(shownText(robot, name)).as("the name is cut instead").matches("a-very-long.*(…|\\.\\.\\.)");
        // the whole row is inside the list
        Bounds list = inScene(robot, jobs);
        Bounds badge = inScene(robot, missing);
        assertThat(badge.getMaxX()).isLessThanOrEqualTo(list.getMaxX());

        // the job's page at 1024: the key table's titles and the toolbar's button keep their words
        robot.clickOn(name);
        waitUntil(() -> robot.lookup("#key-table").tryQuery().map(Node::isVisible).orElse(false));
        WaitForAsyncUtils.waitForFxEvents();
        for (Node n : robot.lookup("#key-table .column-header .label").queryAll()) {
            Label title = (Label) n;
            assertThat(shownText(robot, title)).as("column title %s", title.getText()).isEqualTo(title.getText());
        }
        Button run = robot.lookup("#run-selected").queryButton();
        assertThat(fxValue(robot, () -> run.lookup(".text") instanceof javafx.scene.text.Text t ? t.getText() : null))
                .isEqualTo("Run selected");
    }

    /**
     * At 1024 px the status bar's button and short labels keep their words; the state's path and the
     * scheduler's sentence give way (seen in a real window: "Pause sch…" and "Operator…").
     */
    @Test
    void atTheNarrowestTheStatusBarsButtonAndOperatorKeepTheirWords(FxRobot robot) throws Exception {
        fixture("layout-with-a-long-state-path-as-an-operator-might-have-under-their-home-folder");
        scheduler.paused = true; // "Resume scheduler", the longer of the two
        ConsoleServices services = ConsoleApp.services(fx.ws, fx.ws.engine(RunTrace.NONE), fx.wb.env(), scheduler);
        show(robot, services, 1024, 680);
        waitUntil(() -> robot.lookup("#scheduler-toggle").tryQuery().map(Node::isVisible).orElse(false));
        waitUntil(() -> !robot.lookup("#status-refreshed").queryLabeled().getText().startsWith("Loading"));
        WaitForAsyncUtils.waitForFxEvents();
        Button toggle = robot.lookup("#scheduler-toggle").queryButton();
        assertThat(fxValue(robot, () -> toggle.lookup(".text") instanceof javafx.scene.text.Text t ? t.getText() : null))
                .isEqualTo("Resume scheduler");
        Label state = robot.lookup("#status-state").queryAs(Label.class);
        assertThat(shownText(robot, state)).as("the long path gives way").matches("State: .*(…|\\.\\.\\.)");
        for (Node n : robot.lookup(".status-bar .label").queryAll()) {
            Label l = (Label) n;
            if (l.getText().startsWith("Operator: ") || l.getText().startsWith("Refreshed ")) {
                assertThat(shownText(robot, l)).as("status label %s", l.getText()).isEqualTo(l.getText());
            }
        }
        Bounds bar = inScene(robot, robot.lookup(".status-bar").query());
        assertThat(bar.getMaxX()).as("the bar fits the window").isLessThanOrEqualTo(1024.5);
    }

    /**
     * At 1024 px the status bar says when the scheduler starts its next key whole, in English and in Chinese: with a
     * next run far away it read "… 2026-12-06 18:00 (in 3…" beside a long state path, which gives way instead.
     */
    @Test
    void atTheNarrowestTheStatusBarSaysTheNextRunWhole(FxRobot robot) throws Exception {
        java.util.Map<String, String> cut = new java.util.LinkedHashMap<>();
        for (java.util.Locale language : List.of(io.keyline.text.Text.ENGLISH, io.keyline.text.Text.CHINESE)) {
            io.keyline.text.Text.use(language);
            try {
                fixture("layout-with-a-long-state-path-as-an-operator-might-have-under-their-home-folder");
                // 33 hours after the workbench's clock, which the console reads
                scheduler.next = new Upcoming("weekly-digest", "2026-W49",
                        fx.wb.clock.instant().plus(Duration.ofHours(33)).atZone(ZoneOffset.UTC), false, null);
                ConsoleServices services = ConsoleApp.services(fx.ws, fx.ws.engine(RunTrace.NONE), fx.wb.env(), scheduler);
                show(robot, services, 1024, 680);
                waitUntil(() -> robot.lookup("#status-scheduler").queryLabeled().getText().contains("weekly-digest"));
                waitUntil(() -> !robot.lookup("#status-refreshed").queryLabeled().getText().equals(
                        io.keyline.text.Text.t("ui.console.loading")));
                Thread.sleep(300);
                WaitForAsyncUtils.waitForFxEvents();
                Label line = robot.lookup("#status-scheduler").queryAs(Label.class);
                if (!line.getText().equals(shownText(robot, line))) {
                    cut.put(language.toString(), "'" + shownText(robot, line) + "' of '" + line.getText() + "'");
                }
                Bounds bar = inScene(robot, robot.lookup(".status-bar").query());
                assertThat(bar.getMaxX()).as("the bar fits the window").isLessThanOrEqualTo(1024.5);
            } finally {
                io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
                scheduler.next = null;
                closeFixture();
            }
        }
        assertThat(cut).as("the scheduler's line in the status bar at 1024 px").isEmpty();
    }

    /**
     * A scheduler's sentence longer than the status bar can hold (a long job name, a batch about to start) gives
     * way with an ellipsis once the state's path has given all it can: it pushed the bar, and with it every page,
     * past the window's right edge, where the page's buttons were cut.
     */
    @Test
    void aSchedulerSentenceLongerThanTheBarKeepsTheWindowWhole(FxRobot robot) throws Exception {
        try {
            fixture("layout");
            scheduler.next = new Upcoming("a-weekly-report-whose-name-says-everything-about-it-for-the-whole-team",
                    "2026-W49", fx.wb.clock.instant().plus(Duration.ofHours(33)).atZone(ZoneOffset.UTC), false, null);
            ConsoleServices services = ConsoleApp.services(fx.ws, fx.ws.engine(RunTrace.NONE), fx.wb.env(), scheduler);
            show(robot, services, 1024, 680);
            waitUntil(() -> robot.lookup("#status-scheduler").queryLabeled().getText().contains("a-weekly-report"));
            waitUntil(() -> !robot.lookup("#status-refreshed").queryLabeled().getText().equals(
                    io.keyline.text.Text.t("ui.console.loading")));
            Thread.sleep(300);
            WaitForAsyncUtils.waitForFxEvents();
            Bounds bar = inScene(robot, robot.lookup(".status-bar").query());
            Bounds refreshed = inScene(robot, robot.lookup("#status-refreshed").query());
            assertThat(bar.getMaxX()).as("the bar fits the window").isLessThanOrEqualTo(1024.5);
            assertThat(refreshed.getMaxX()).as("the bar's last label inside the window").isLessThanOrEqualTo(1024.5);
        } finally {
            scheduler.next = null;
            closeFixture();
        }
    }

    /**
     * A job page's state filter keeps its width whichever entry is chosen, in English and in Chinese, so the search
     * field beside it stays where it is (choosing 待审核 widened the box and moved the field).
     */
    @Test
    void theStateFilterKeepsItsWidthWhicheverEntryIsChosen(FxRobot robot) throws Exception {
        java.util.Map<String, String> moved = new java.util.LinkedHashMap<>();
        for (java.util.Locale language : List.of(io.keyline.text.Text.ENGLISH, io.keyline.text.Text.CHINESE)) {
            io.keyline.text.Text.use(language);
            try {
                fixture("layout");
                fx.wb.job("daily", Jobs.publish("daily", "unsafe", false, null), fx.site.base());
                assertThat(fx.wb.cli("run", "daily", "--key", KEY).exit()).isZero();
                show(robot, 1024, 680);
                robot.interact(() -> console.showJob("daily"));
                waitUntil(() -> robot.lookup("#job-view").tryQuery().map(Node::isVisible).orElse(false)
                        && !robot.lookup("#key-table").queryAs(javafx.scene.control.TableView.class).getItems().isEmpty());
                WaitForAsyncUtils.waitForFxEvents();
                @SuppressWarnings("unchecked")
                javafx.scene.control.ComboBox<Object> filter = robot.lookup("#state-filter").queryAs(
                        javafx.scene.control.ComboBox.class);
                Node search = robot.lookup("#key-search").query();
                double width = fxValue(robot, filter::getWidth);
                double searchAt = inScene(robot, search).getMinX();
                for (Object entry : List.copyOf(filter.getItems())) {
                    robot.interact(() -> filter.setValue(entry));
                    Thread.sleep(100);
                    WaitForAsyncUtils.waitForFxEvents();
                    double now = fxValue(robot, filter::getWidth);
                    double at = inScene(robot, search).getMinX();
                    if (Math.abs(now - width) > 0.5 || Math.abs(at - searchAt) > 0.5) {
                        moved.put(language + " " + entry, "the box " + Math.round(width) + " -> " + Math.round(now)
                                + " px, the search at x " + Math.round(searchAt) + " -> " + Math.round(at));
                    }
                }
            } finally {
                io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
                closeFixture();
            }
        }
        assertThat(moved).as("the state filter as its entries are chosen").isEmpty();
    }

    /**
     * At 1024 px a job page's Updated cell of a waiting key says how long it has waited whole (it was cut to
     * "waiting 22 …" beside a state column sized for the longest English state), and a done key's says when and how
     * long ago whole ("12-04 20:12 (25 min …"), in English and in Chinese, where the state column is as narrow as
     * its Chinese chips.
     */
    @Test
    void atTheNarrowestAJobPageShowsHowLongAKeyHasWaitedWhole(FxRobot robot) throws Exception {
        for (java.util.Locale language : List.of(io.keyline.text.Text.ENGLISH, io.keyline.text.Text.CHINESE)) {
            io.keyline.text.Text.use(language);
            try {
                fixture("layout");
                fx.wb.job("daily", Jobs.publish("daily", "unsafe", false, null), fx.site.base());
                fx.site.failPosts(Fault.STATUS_502);
                assertThat(fx.wb.cli("run", "daily", "--key", KEY).exit()).isEqualTo(4);
                assertThat(fx.wb.cli("run", "daily", "--key", "2026-11-28").exit()).isZero();
                show(robot, 1024, 680);
                robot.interact(() -> console.showJob("daily"));
                waitUntil(() -> robot.lookup("#job-view").tryQuery().map(Node::isVisible).orElse(false)
                        && !robot.lookup("#key-table").queryAs(javafx.scene.control.TableView.class).getItems().isEmpty());
                Thread.sleep(300);
                WaitForAsyncUtils.waitForFxEvents();
                javafx.scene.control.TableView<?> table = robot.lookup("#key-table").queryAs(javafx.scene.control.TableView.class);
                List<javafx.scene.control.TableCell<?, ?>> updated = robot.lookup("#key-table .table-cell").queryAll().stream()
                        .<javafx.scene.control.TableCell<?, ?>>map(n -> (javafx.scene.control.TableCell<?, ?>) n)
                        .filter(c -> c.getTableColumn() == table.getColumns().get(3) && c.getText() != null
                                && !c.getText().isBlank()).toList();
                String waiting = io.keyline.text.Text.t("core.waiting.waiting", "");
                List<javafx.scene.control.TableCell<?, ?>> waited = updated.stream()
                        .filter(c -> c.getText().startsWith(waiting.strip())).toList();
                assertThat(waited).as("Updated cells of a waiting key in %s", language).isNotEmpty();
                // a done key's time; how long ago, in the language's brackets, in full in its tooltip and accessible text
                assertThat(updated).as("Updated cells of a done key in %s", language).anyMatch(c -> c.getText().matches(
                        "\\d\\d-\\d\\d \\d\\d:\\d\\d") && c.getAccessibleText() != null && c.getAccessibleText().matches(
                        language == io.keyline.text.Text.CHINESE ? "\\d\\d-\\d\\d \\d\\d:\\d\\d（.+）" : "\\d\\d-\\d\\d \\d\\d:\\d\\d \\(.+\\)"));
                for (javafx.scene.control.TableCell<?, ?> c : updated) {
                    assertThat(fxValue(robot, () -> c.lookup(".text") instanceof javafx.scene.text.Text t ? t.getText() : null))
                            .as("the Updated cell in %s", language).isEqualTo(c.getText());
                }
                // most of a day later ("已等待 23 小时 59 分" is wider than "已等待 不到一分钟"), the page's periodic
                // reload measures the column again: a key that has waited that long, and one done that long ago, read
                // whole too
                String longest = io.keyline.text.Text.t("ui.job.waitingLines",
                        io.keyline.core.Waiting.text(java.time.Duration.ofMinutes(23 * 60 + 59)));
                fx.wb.clock.advance(java.time.Duration.ofMinutes(23 * 60 + 59));
                robot.interact(() -> console.refresh());
                java.util.concurrent.Callable<List<javafx.scene.control.TableCell<?, ?>>> later = () -> robot
                        .lookup("#key-table .table-cell").queryAll().stream()
                        .<javafx.scene.control.TableCell<?, ?>>map(n -> (javafx.scene.control.TableCell<?, ?>) n)
                        .filter(c -> c.getTableColumn() == table.getColumns().get(3) && c.getText() != null
                                && !c.getText().isBlank()).toList();
                waitUntil(() -> later.call().stream().anyMatch(c -> longest.equals(c.getText())));
                Thread.sleep(300);
                WaitForAsyncUtils.waitForFxEvents();
                for (javafx.scene.control.TableCell<?, ?> c : later.call()) {
                    assertThat(fxValue(robot, () -> c.lookup(".text") instanceof javafx.scene.text.Text t ? t.getText() : null))
                            .as("the Updated cell in %s a day later", language).isEqualTo(c.getText());
                }
                if (language == io.keyline.text.Text.CHINESE) {
                    assertThat(table.getColumns().get(1).getWidth()).as("the state column in Chinese").isLessThan(110);
                }
            } finally {
                io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
                closeFixture();
            }
        }
    }

    /**
     * At 1024 px the key table shows how long a run took whole, in English and in Chinese: at 66 px a Took column cut
     * "2 min 12 s". It leads a done key's Outcome now ("took 77 ms  ·  publish: HTTP 201"), which has the room.
     */
    @Test
    void atTheNarrowestAJobPageShowsHowLongARunTookWhole(FxRobot robot) throws Exception {
        for (java.util.Locale language : List.of(io.keyline.text.Text.ENGLISH, io.keyline.text.Text.CHINESE)) {
            io.keyline.text.Text.use(language);
            try {
                fixture("layout");
                fx.wb.job("daily", Jobs.publish("daily", "unsafe", false, null), fx.site.base());
                assertThat(fx.wb.cli("run", "daily", "--key", "2026-11-28").exit()).isZero();
                show(robot, 1024, 680);
                robot.interact(() -> console.showJob("daily"));
                javafx.scene.control.TableView<?> table = robot.lookup("#key-table").queryAs(javafx.scene.control.TableView.class);
                java.util.concurrent.Callable<List<javafx.scene.control.TableCell<?, ?>>> outcomeCells = () -> robot
                        .lookup("#key-table .table-cell").queryAll().stream()
                        .<javafx.scene.control.TableCell<?, ?>>map(n -> (javafx.scene.control.TableCell<?, ?>) n)
                        .filter(c -> c.getTableColumn() == table.getColumns().get(table.getColumns().size() - 1)
                                && c.getText() != null && !c.getText().isBlank()).toList();
                waitUntil(() -> table.isVisible() && !outcomeCells.call().isEmpty());
                Thread.sleep(300);
                WaitForAsyncUtils.waitForFxEvents();
                javafx.scene.control.TableCell<?, ?> cell = outcomeCells.call().get(0);
                String took = fxValue(robot, () -> ((io.keyline.ui.job.JobViewModel.KeyRow) table.getItems().get(0))
                        .outcome().tookText());
                assertThat(took).isNotEmpty();
                assertThat(fxValue(robot, () -> cell.lookup(".text") instanceof javafx.scene.text.Text t ? t.getText() : null))
                        .as("the done key's Outcome cell in %s", language)
                        .startsWith(io.keyline.text.Text.t("ui.job.took", took));
            } finally {
                io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
                closeFixture();
            }
        }
    }

    /**
     * At 1024 px a job page's Outcome column, the one that says why, has the room the other columns do not need, in
     * English and in Chinese: Key, State, Step and Updated are as wide as their cells (or titles) need, in the
     * face the cells draw in, and read whole; Outcome takes the rest to the table's edge. Updated took about 190 px
     * and Took 100 px for "waiting under a minute" and "62 ms" beside an Outcome of 100 px ("Waits for a ne…").
     */
    @Test
    void atTheNarrowestAJobPagesOutcomeTakesTheRoomTheOtherColumnsDoNotNeed(FxRobot robot) throws Exception {
        java.util.Map<String, List<String>> wrong = new java.util.LinkedHashMap<>();
        for (java.util.Locale language : List.of(io.keyline.text.Text.ENGLISH, io.keyline.text.Text.CHINESE)) {
            io.keyline.text.Text.use(language);
            try {
                fixture("layout");
                fx.wb.job("daily-article", Jobs.publish("daily-article", "unsafe", false,
                        "\"credential\": \"sandbox-cookie\","), fx.site.base());
                assertThat(fx.wb.cliWithInput("Cookie: session=v1", "credentials", "set", "sandbox-cookie").exit())
                        .isZero();
                assertThat(fx.wb.cli("run", "--yes", "daily-article", "--from", "2026-11-25", "--to", "2026-11-26")
                        .exit()).isZero();
                fx.site.requireCookie("session=v2");
                assertThat(fx.wb.cli("run", "--yes", "daily-article", "--from", "2026-11-27", "--to", KEY).exit())
                        .isEqualTo(4);
                show(robot, 1024, 680);
                robot.interact(() -> console.showJob("daily-article"));
                waitUntil(() -> robot.lookup("#job-view").tryQuery().map(Node::isVisible).orElse(false)
                        && robot.lookup("#key-table").queryAs(javafx.scene.control.TableView.class).getItems().size()
                        == 5);
                Thread.sleep(300);
                WaitForAsyncUtils.waitForFxEvents();
                wrong.put(language.toString(), keyColumnProblems(robot));
            } finally {
                io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
                closeFixture();
            }
        }
        wrong.values().removeIf(List::isEmpty);
        assertThat(wrong).as("the key table's columns at 1024x680").isEmpty();
    }

    /**
     * At 1024 px the job page reads why each key that waits for a person waits, whole when it is highlighted, in
     * English and in Chinese: the failed key's answer from the site, a parked key's wait for a login. One line each,
     * Outcome cut them to "Waits for a new log…" beside a State column as wide as "Needs confirmation"; such a reason
     * now wraps, to two lines in the rows not highlighted, so that more than two keys are in view.
     */
    @Test
    void atTheNarrowestAJobPageReadsWhyEachKeyThatWaitsForAPersonWaits(FxRobot robot) throws Exception {
        java.util.Map<String, List<String>> cut = new java.util.LinkedHashMap<>();
        for (java.util.Locale language : List.of(io.keyline.text.Text.ENGLISH, io.keyline.text.Text.CHINESE)) {
            io.keyline.text.Text.use(language);
            try {
                fixture("reasons");
                fx.wb.job("daily-article", Jobs.publish("daily-article", "unsafe", false,
                        "\"credential\": \"sandbox-cookie\","), fx.site.base());
                assertThat(fx.wb.cliWithInput("Cookie: session=v1", "credentials", "set", "sandbox-cookie").exit())
                        .isZero();
                assertThat(fx.wb.cli("run", "--yes", "daily-article", "--from", "2026-11-25", "--to", "2026-11-26")
                        .exit()).isZero();
                fx.site.failPosts(Fault.STATUS_404);
                assertThat(fx.wb.cli("run", "--yes", "daily-article", "--key", "2026-11-24").exit()).isEqualTo(2);
                fx.site.requireCookie("session=v2");
                assertThat(fx.wb.cli("run", "--yes", "daily-article", "--from", "2026-11-27", "--to", KEY).exit())
                        .isEqualTo(4);
                show(robot, 1024, 680);
                robot.interact(() -> console.showJob("daily-article"));
                waitUntil(() -> robot.lookup("#job-view").tryQuery().map(Node::isVisible).orElse(false)
                        && robot.lookup("#key-table").queryAs(javafx.scene.control.TableView.class).getItems().size()
                        == 6);
                Thread.sleep(300);
                WaitForAsyncUtils.waitForFxEvents();
                int inView = rowsInView(robot);
                if (inView < 3) {
                    cut.computeIfAbsent(language.toString(), l -> new java.util.ArrayList<>())
                            .add("only " + inView + " of 6 keys in view before scrolling");
                }
                cut.merge(language.toString(), reasonsCut(robot), (a, b) -> {
                    List<String> all = new java.util.ArrayList<>(a);
                    all.addAll(b);
                    return all;
                });
            } finally {
                io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
                closeFixture();
            }
        }
        cut.values().removeIf(List::isEmpty);
        assertThat(cut).as("the reasons the key table cuts at 1024x680").isEmpty();
    }

    /**
     * At 1024 px a job page gives Outcome, the column an operator reads, the room to say why a key waits for a login
     * whole in the two lines of a row that is not highlighted, in English and in Chinese, beside a key that needs a
     * confirmation (the widest English chip) and done keys: Outcome had about 150 px in English, beside a State column
     * as wide as "Needs confirmation" and an Updated one as wide as "waiting under a minute", and the parked keys read
     * "Waits for a new login / to sandbox-cookie:…".
     */
    @Test
    void atTheNarrowestAJobPageReadsAParkedKeysReasonWholeInTwoLines(FxRobot robot) throws Exception {
        java.util.Map<String, List<String>> cut = new java.util.LinkedHashMap<>();
        for (java.util.Locale language : List.of(io.keyline.text.Text.ENGLISH, io.keyline.text.Text.CHINESE)) {
            io.keyline.text.Text.use(language);
            try {
                fixture("parked");
                fx.wb.job("daily-article", Jobs.publish("daily-article", "unsafe", false,
                        "\"credential\": \"sandbox-cookie\","), fx.site.base());
                assertThat(fx.wb.cliWithInput("Cookie: session=v1", "credentials", "set", "sandbox-cookie").exit())
                        .isZero();
                assertThat(fx.wb.cli("run", "--yes", "daily-article", "--from", "2026-11-25", "--to", "2026-11-26")
                        .exit()).isZero();
                fx.site.failPosts(Fault.STATUS_502);
                assertThat(fx.wb.cli("run", "--yes", "daily-article", "--key", "2026-11-27").exit()).isEqualTo(4);
                fx.site.requireCookie("session=v2");
                assertThat(fx.wb.cli("run", "--yes", "daily-article", "--from", "2026-11-28", "--to", KEY).exit())
                        .isEqualTo(4);
                show(robot, 1024, 680);
                robot.interact(() -> console.showJob("daily-article"));
                javafx.scene.control.TableView<?> table = robot.lookup("#key-table").queryAs(
                        javafx.scene.control.TableView.class);
                waitUntil(() -> robot.lookup("#job-view").tryQuery().map(Node::isVisible).orElse(false)
                        && table.getItems().size() == 5);
                Thread.sleep(300);
                WaitForAsyncUtils.waitForFxEvents();
                List<String> problems = new java.util.ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    int at = i;
                    robot.interact(() -> table.scrollTo(at));
                    WaitForAsyncUtils.waitForFxEvents();
                    String drawn = fxValue(robot, () -> {
                        if (!(table.getItems().get(at) instanceof io.keyline.ui.job.JobViewModel.KeyRow k)
                                || k.state() != KeyState.NEEDS_CREDENTIAL) {
                            return "";
                        }
                        for (Node n : table.lookupAll(".table-cell")) {
                            if (n instanceof javafx.scene.control.TableCell<?, ?> c && c.isVisible()
                                    && c.getTableColumn() == table.getColumns().get(table.getColumns().size() - 1) && c.getTableRow() != null
                                    && c.getTableRow().getItem() == k) {
                                String shown = c.lookup(".text") instanceof javafx.scene.text.Text t ? t.getText() : "";
                                return k.key() + (c.getText().equals(shown) ? "" : " is cut to '" + shown + "'");
                            }
                        }
                        return k.key() + " is not shown";
                    });
                    if (!drawn.isEmpty() && !drawn.matches("[0-9-]+")) {
                        problems.add(drawn);
                    }
                }
                if (!problems.isEmpty()) {
                    problems.add(0, "Outcome is " + Math.round(fxValue(robot, () -> table.getColumns().get(table.getColumns().size() - 1)
                            .getWidth())) + " px of " + Math.round(fxValue(robot, table::getWidth)) + " px");
                    cut.put(language.toString(), problems);
                }
            } finally {
                io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
                closeFixture();
            }
        }
        assertThat(cut).as("the parked keys' reasons a not highlighted row cuts at 1024x680").isEmpty();
    }

    /**
     * At 1024 px a parked key's "waits for a new login" reason fits the two lines of its Outcome cell with room to
     * spare, in English and in Chinese, not just: a credential's name a few letters longer, or a font a little wider,
     * would cut it. It must still fit at {@value #ROOM} px less than Outcome gives it.
     */
    @Test
    void atTheNarrowestAWaitForALoginFitsItsTwoLinesWithRoom(FxRobot robot) throws Exception {
        java.util.Map<String, String> tight = new java.util.LinkedHashMap<>();
        for (java.util.Locale language : List.of(io.keyline.text.Text.ENGLISH, io.keyline.text.Text.CHINESE)) {
            io.keyline.text.Text.use(language);
            try {
                fixture("room");
                fx.wb.job("daily-article", Jobs.publish("daily-article", "unsafe", false,
                        "\"credential\": \"sandbox-cookie\","), fx.site.base());
                assertThat(fx.wb.cliWithInput("Cookie: session=v1", "credentials", "set", "sandbox-cookie").exit())
                        .isZero();
                assertThat(fx.wb.cli("run", "--yes", "daily-article", "--from", "2026-11-25", "--to", "2026-11-26")
                        .exit()).isZero();
                fx.site.failPosts(Fault.STATUS_502);
                assertThat(fx.wb.cli("run", "--yes", "daily-article", "--key", "2026-11-27").exit()).isEqualTo(4);
                fx.site.requireCookie("session=v2");
                assertThat(fx.wb.cli("run", "--yes", "daily-article", "--from", "2026-11-28", "--to", KEY).exit())
                        .isEqualTo(4);
                show(robot, 1024, 680);
                robot.interact(() -> console.showJob("daily-article"));
                javafx.scene.control.TableView<?> table = robot.lookup("#key-table").queryAs(
                        javafx.scene.control.TableView.class);
                waitUntil(() -> robot.lookup("#job-view").tryQuery().map(Node::isVisible).orElse(false)
                        && table.getItems().size() == 5);
                Thread.sleep(300);
                WaitForAsyncUtils.waitForFxEvents();
                String problem = fxValue(robot, () -> {
                    javafx.scene.control.TableColumn<?, ?> outcome = table.getColumns().get(table.getColumns().size() - 1);
                    for (Node n : table.lookupAll(".table-cell")) {
                        if (n instanceof javafx.scene.control.TableCell<?, ?> c && c.isVisible()
                                && c.getTableColumn() == outcome && c.getTableRow() != null
                                && c.getTableRow().getItem() instanceof io.keyline.ui.job.JobViewModel.KeyRow k
                                && k.state() == KeyState.NEEDS_CREDENTIAL && !c.getTableRow().isSelected()) {
                            double room = outcome.getWidth() - c.snappedLeftInset() - c.snappedRightInset();
                            double needs = twoLinesNeed(c.getText(), c.getFont(), c.getLineSpacing());
                            return room - needs >= ROOM ? "" : "'" + c.getText() + "' needs " + Math.round(needs)
                                    + " px of the " + Math.round(room) + " px Outcome gives it";
                        }
                    }
                    return "no parked key's Outcome cell shown";
                });
                if (!problem.isEmpty()) {
                    tight.put(language.toString(), problem);
                }
            } finally {
                io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
                closeFixture();
            }
        }
        assertThat(tight).as("waits for a login, in two lines with " + ROOM + " px to spare at 1024x680").isEmpty();
    }

    /** The room a reason keeps in its two lines, in px: about four letters. */
    static final int ROOM = 30;

    /** The least width at which {@code text} wraps to two lines or fewer in {@code font}. */
    private static double twoLinesNeed(String text, javafx.scene.text.Font font, double spacing) {
        javafx.scene.text.Text one = new javafx.scene.text.Text("X");
        one.setFont(font);
        double line = one.getLayoutBounds().getHeight();
        double low = 1;
        double high = 4000;
        while (high - low > 0.5) {
            double mid = (low + high) / 2;
            javafx.scene.text.Text t = new javafx.scene.text.Text(text);
            t.setFont(font);
            t.setLineSpacing(spacing);
            t.setWrappingWidth(mid);
            // a wrapped line is a little taller than one alone: lines are counted to the nearest
            if (Math.round(t.getLayoutBounds().getHeight() / line) <= 2) {
                high = mid;
            } else {
                low = mid;
            }
        }
        return high;
    }

    /** How many of the key table's rows are drawn whole inside its view. */
    private static int rowsInView(FxRobot robot) {
        javafx.scene.control.TableView<?> table = robot.lookup("#key-table").queryAs(
                javafx.scene.control.TableView.class);
        return fxValue(robot, () -> {
            Node clip = table.lookup(".clipped-container");
            javafx.geometry.Bounds view = clip.localToScene(clip.getBoundsInLocal());
            int n = 0;
            for (Node r : table.lookupAll(".table-row-cell")) {
                javafx.geometry.Bounds b = r.localToScene(r.getBoundsInLocal());
                if (r.isVisible() && r instanceof javafx.scene.control.TableRow<?> row && row.getItem() != null
                        && b.getMinY() >= view.getMinY() - 0.5 && b.getMaxY() <= view.getMaxY() + 0.5) {
                    n++;
                }
            }
            return n;
        });
    }

    /**
     * The Outcome of each key that waits for a person, highlighted (its reason is whole there, two lines in the other
     * rows), as the table draws it when it is cut.
     */
    private static List<String> reasonsCut(FxRobot robot) throws Exception {
        javafx.scene.control.TableView<?> table = robot.lookup("#key-table").queryAs(
                javafx.scene.control.TableView.class);
        List<String> out = new java.util.ArrayList<>();
        int rows = fxValue(robot, () -> table.getItems().size());
        for (int i = 0; i < rows; i++) {
            int at = i;
            robot.interact(() -> {
                table.getSelectionModel().clearAndSelect(at);
                table.scrollTo(at);
            });
            WaitForAsyncUtils.waitForFxEvents();
            String drawn = fxValue(robot, () -> {
                Object item = table.getItems().get(at);
                if (!(item instanceof io.keyline.ui.job.JobViewModel.KeyRow k) || !k.state().needsAttention()) {
                    return null;
                }
                javafx.scene.control.TableColumn<?, ?> outcome = table.getColumns().get(table.getColumns().size() - 1);
                for (Node n : table.lookupAll(".table-cell")) {
                    if (n instanceof javafx.scene.control.TableCell<?, ?> c && c.isVisible()
                            && c.getTableColumn() == outcome && c.getTableRow() != null
                            && c.getTableRow().getItem() == item) {
                        String whole = c.getText();
                        String shown = c.lookup(".text") instanceof javafx.scene.text.Text t ? t.getText() : "";
                        return whole != null && whole.equals(shown) ? "" : k.key() + ": '" + shown + "'";
                    }
                }
                return k.key() + ": not shown";
            });
            if (drawn != null && !drawn.isEmpty()) {
                out.add(drawn);
            }
        }
        return out;
    }

    /**
     * The key table's columns before Outcome that are wider than their cells or titles need, or cut, over all its
     * rows (a row that wraps its reason is tall: the table is scrolled to each); and the room right of Outcome,
     * beside the vertical scroll bar's.
     */
    private static List<String> keyColumnProblems(FxRobot robot) {
        javafx.scene.control.TableView<?> table = robot.lookup("#key-table").queryAs(
                javafx.scene.control.TableView.class);
        List<String> out = new java.util.ArrayList<>();
        int before = fxValue(robot, () -> table.getColumns().size() - 1);
        double[] needs = new double[before];
        int rows = fxValue(robot, () -> table.getItems().size());
        for (int i = 0; i < rows; i++) {
            int at = i;
            robot.interact(() -> table.scrollTo(at));
            WaitForAsyncUtils.waitForFxEvents();
            robot.interact(() -> {
                List<javafx.scene.control.TableCell<?, ?>> cells = table.lookupAll(".table-cell").stream()
                        .<javafx.scene.control.TableCell<?, ?>>map(n -> (javafx.scene.control.TableCell<?, ?>) n)
                        .filter(c -> c.isVisible() && c.getTableRow() != null && c.getTableRow().getItem() != null)
                        .toList();
                for (int col = 0; col < before; col++) {
                    javafx.scene.control.TableColumn<?, ?> column = table.getColumns().get(col);
                    needs[col] = Math.max(needs[col], io.keyline.ui.common.Cut.titleWidth(column.getText()));
                    for (javafx.scene.control.TableCell<?, ?> c : cells) {
                        if (c.getTableColumn() != column) {
                            continue;
                        }
                        double content;
                        if (c.getGraphic() instanceof javafx.scene.control.Labeled chip && chip.isVisible()) {
                            content = chip.prefWidth(-1);
                        } else if (c.getText() != null && !c.getText().isBlank()) {
                            javafx.scene.text.Text t = new javafx.scene.text.Text(c.getText());
                            t.setFont(c.getFont());
                            content = t.getLayoutBounds().getWidth();
                            String problem = column.getText() + " is cut to '" + (c.lookup(".text")
                                    instanceof javafx.scene.text.Text drawn ? drawn.getText() : "") + "'";
                            if (c.lookup(".text") instanceof javafx.scene.text.Text drawn
                                    && !c.getText().equals(drawn.getText()) && !out.contains(problem)) {
                                out.add(problem);
                            }
                        } else {
                            continue;
                        }
                        needs[col] = Math.max(needs[col], Math.ceil(content) + c.snappedLeftInset()
                                + c.snappedRightInset());
                    }
                }
            });
        }
        return fxValue(robot, () -> {
            for (int col = 0; col < before; col++) {
                javafx.scene.control.TableColumn<?, ?> column = table.getColumns().get(col);
                // a column may keep a few px more than its widest cell: the cells' padding and a margin
                if (column.getWidth() > needs[col] + 6) {
                    out.add(column.getText() + " is " + Math.round(column.getWidth()) + " px for what needs "
                            + Math.round(needs[col]) + " px");
                }
            }
            double filler = table.lookupAll(".filler").stream().filter(Node::isVisible)
                    .mapToDouble(n -> n.getLayoutBounds().getWidth()).max().orElse(0);
            double bar = table.lookupAll(".scroll-bar").stream().filter(n -> n.isVisible()
                    && n instanceof ScrollBar b && b.getOrientation() == javafx.geometry.Orientation.VERTICAL)
                    .mapToDouble(n -> n.getLayoutBounds().getWidth()).max().orElse(0);
            if (filler > 2 + bar) {
                out.add(Math.round(filler) + " px right of Outcome");
            }
            return out;
        });
    }

    /**
     * At 1024×680 a job's keys are more than a glimpse: the calendar's cells followed the page's width alone, took
     * 246 of its 600 px, and the key table showed two rows. The calendar now gives way on a short page.
     */
    @Test
    void atTheSmallestAJobPageShowsSeveralOfItsKeys(FxRobot robot) throws Exception {
        fixture("layout");
        fx.wb.job("daily", Jobs.publish("daily", "unsafe", false, null), fx.site.base());
        assertThat(fx.wb.cli("run", "--yes", "daily", "--from", "2026-11-20", "--to", KEY).exit()).isZero();
        show(robot, 1024, 680);
        robot.interact(() -> console.showJob("daily"));
        waitUntil(() -> robot.lookup("#job-view").tryQuery().map(Node::isVisible).orElse(false)
                && robot.lookup("#key-table").queryAs(javafx.scene.control.TableView.class).getItems().size() >= 8);
        Thread.sleep(300);
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.control.TableView<?> table = robot.lookup("#key-table").queryAs(javafx.scene.control.TableView.class);
        long rows = fxValue(robot, () -> table.lookupAll(".table-row-cell").stream()
                .filter(n -> n.isVisible() && ((javafx.scene.control.TableRow<?>) n).getItem() != null)
                .filter(n -> {
                    Bounds b = n.localToScene(n.getBoundsInLocal());
                    Bounds t = table.localToScene(table.getBoundsInLocal());
                    return b.getMaxY() <= t.getMaxY() + 0.5;
                }).count());
        assertThat(rows).as("key rows shown whole at 1024×680").isGreaterThanOrEqualTo(4);
        double page = fxValue(robot, () -> console.lookup("#job-view").getLayoutBounds().getHeight());
        assertThat(fxValue(robot, () -> console.lookup("#heatmap").getLayoutBounds().getHeight()))
                .as("the calendar's height on a page of %s px", page).isLessThanOrEqualTo(page / 3);
    }

    /**
     * At 1024 px an Attention item's heading is read whole: cut, it hid which login the keys wait for ("3 keys
     * wait for a new lo…") or at which step a key waits; it wraps instead.
     */
    @Test
    void atTheNarrowestAnAttentionHeadingIsReadWhole(FxRobot robot) throws Exception {
        fixture("layout");
        fx.wb.job("daily-article-with-a-long-name", Jobs.publish("daily-article-with-a-long-name", "unsafe", false,
                "\"credential\": \"site-cookie-of-the-editorial-team\","), fx.site.base());
        assertThat(fx.wb.cliWithInput("Cookie: session=v1", "credentials", "set", "site-cookie-of-the-editorial-team")
                .exit()).isZero();
        fx.site.requireCookie("session=v2");
        assertThat(fx.wb.cli("run", "--yes", "daily-article-with-a-long-name", "--from", "2026-11-27", "--to", KEY).exit())
                .isEqualTo(4);
        show(robot, 1024, 680);
        waitUntil(() -> !inbox(robot).getItems().isEmpty());
        Thread.sleep(300);
        WaitForAsyncUtils.waitForFxEvents();
        List<Label> titles = robot.lookup("#inbox-list .key").queryAllAs(Label.class).stream()
                .filter(l -> l.getText() != null && !l.getText().isBlank()).toList();
        assertThat(titles).as("item headings").isNotEmpty()
                .anyMatch(l -> l.getText().contains("site-cookie-of-the-editorial-team"));
        for (Label l : titles) {
            assertThat(shownText(robot, l)).as("heading %s", l.getText()).isEqualTo(l.getText());
        }
    }

    /**
     * At 1024 px an Attention item's heading has the item's whole width: the buttons sit beside its message, not
     * beside its heading ("3 keys wait for a new login to sandbox-cookie" broke over two lines next to three
     * buttons, with half the row empty below them).
     */
    @Test
    void atTheNarrowestAnAttentionHeadingOfUsualLengthKeepsOneLine(FxRobot robot) throws Exception {
        threeKeysWaitForALoginAt1024(robot);
        waitUntil(() -> !inbox(robot).getItems().isEmpty());
        Thread.sleep(300);
        WaitForAsyncUtils.waitForFxEvents();
        List<Label> titles = robot.lookup("#inbox-list .key").queryAllAs(Label.class).stream()
                .filter(l -> l.getText() != null && !l.getText().isBlank()).toList();
        assertThat(titles).as("item headings").anyMatch(l -> l.getText().contains("new login to sandbox-cookie"));
        for (Label l : titles) {
            double line = fxValue(robot, () -> {
                javafx.scene.text.Text one = new javafx.scene.text.Text("Xg");
                one.setFont(l.getFont());
                return one.getLayoutBounds().getHeight();
            });
            assertThat(l.getHeight()).as("heading %s on one line (%s px wide)", l.getText(), l.getWidth())
                    .isLessThan(line * 1.5);
        }
    }

    /**
     * At 1024 px a credential's status is read whole in its row: it is what the operator does next ("… log in at
     * …"), and it was cut to "credential sandbox-c…". So are when it was last used, what the site said then, and
     * how many keys wait ("11-29 09:00 ·…" and "3 个任…" were cut), in English and in Chinese.
     */
    @Test
    void atTheNarrowestACredentialsStatusIsReadWhole(FxRobot robot) throws Exception {
        for (java.util.Locale language : List.of(io.keyline.text.Text.ENGLISH, io.keyline.text.Text.CHINESE)) {
            io.keyline.text.Text.use(language);
            try {
                credentialsReadWhole(robot, language);
            } finally {
                io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
                if (fx != null) {
                    closeFixture();
                }
            }
        }
    }

    private void credentialsReadWhole(FxRobot robot, java.util.Locale language) throws Exception {
        threeKeysWaitForALoginAt1024(robot);
        robot.clickOn("#nav-credentials");
        waitUntil(() -> robot.lookup(".credentials-table .error-text").tryQuery().isPresent());
        Thread.sleep(300);
        WaitForAsyncUtils.waitForFxEvents();
        List<Label> statuses = robot.lookup(".credentials-table .error-text").queryAllAs(Label.class).stream()
                .filter(l -> l.getText() != null && !l.getText().isBlank()).toList();
        assertThat(statuses).as("a rejected credential's status in %s", language).isNotEmpty();
        for (Label l : statuses) {
            javafx.scene.control.TableRow<?> row = fxValue(robot, () -> {
                Node n = l;
                while (!(n instanceof javafx.scene.control.TableRow<?>)) {
                    n = n.getParent();
                }
                return (javafx.scene.control.TableRow<?>) n;
            });
            // wrapped, and not clipped by a row of one height for all (the row grows a pulse after the label)
            try {
                waitUntil(() -> fxValue(robot, () -> l.getHeight() <= row.getHeight() + 0.5));
            } catch (java.util.concurrent.TimeoutException e) {
                // the assertion below says by how much
            }
            assertThat(l.getHeight()).as("status %s within its row", l.getText())
                    .isLessThanOrEqualTo(row.getHeight() + 0.5);
            assertThat(shownText(robot, l)).as("status %s", l.getText()).isEqualTo(l.getText());
        }
        List<Label> lastUsed = robot.lookup(".credential-last-used .label").queryAllAs(Label.class).stream()
                .filter(l -> l.getText() != null && !l.getText().isBlank()).toList();
        assertThat(lastUsed).extracting(Label::getText).as("last used in %s", language).hasSize(2)
                .contains(io.keyline.text.Text.t("ui.credentials.verdict.REJECTED"));
        for (Label l : lastUsed) {
            assertThat(shownText(robot, l)).as("last used %s", l.getText()).isEqualTo(l.getText());
        }
        String keys = io.keyline.core.operations.Words.keys(3);
        List<javafx.scene.control.TableCell<?, ?>> waiting = robot.lookup(".credentials-table .table-cell").queryAll()
                .stream().<javafx.scene.control.TableCell<?, ?>>map(n -> (javafx.scene.control.TableCell<?, ?>) n)
                .filter(c -> c.isVisible() && keys.equals(c.getText())).toList();
        assertThat(waiting).as("the keys that wait, in %s", language).isNotEmpty();
        for (javafx.scene.control.TableCell<?, ?> c : waiting) {
            assertThat(fxValue(robot, () -> c.lookup(".text") instanceof javafx.scene.text.Text t ? t.getText() : null))
                    .as("waiting in %s", language).isEqualTo(keys);
        }
    }

    /**
     * At 1024 px a credential's status reads in as few lines as the room allows and its login URL is never broken
     * inside, in English and in Chinese: the name column gives way first (its cells cut with a tooltip), and the row
     * says what to do without the credential's name, which the row shows already; the banner under the table keeps
     * the whole sentence. The status was the narrowest column (about 165 px) beside a name column kept at 230 px: it
     * read in four or five lines, and in Chinese its URL broke as "http://127." / "0.0.1:35641/".
     */
    @Test
    void atTheNarrowestACredentialsStatusTakesTheRoomTheNameGivesAndKeepsItsUrlWhole(FxRobot robot) throws Exception {
        java.util.Map<String, List<String>> wrong = new java.util.LinkedHashMap<>();
        for (java.util.Locale language : List.of(io.keyline.text.Text.ENGLISH, io.keyline.text.Text.CHINESE)) {
            io.keyline.text.Text.use(language);
            try {
                fixture("layout");
                String login = fx.site.base() + "/";
                fx.wb.job("daily-article", Jobs.publish("daily-article", "unsafe", false,
                        "\"credential\": \"sandbox-cookie\","), fx.site.base());
                assertThat(fx.wb.cliWithInput("Cookie: session=v1", "credentials", "set", "sandbox-cookie",
                        "--login-url", login).exit()).isZero();
                fx.site.requireCookie("session=v2");
                assertThat(fx.wb.cli("run", "--yes", "daily-article", "--from", "2026-11-27", "--to", KEY).exit())
                        .isEqualTo(4);
                show(robot, 1024, 680);
                robot.clickOn("#nav-credentials");
                waitUntil(() -> robot.lookup(".credentials-table .error-text").tryQuery().isPresent()
                        && robot.lookup(".credential-alerts .label").tryQuery().isPresent());
                Thread.sleep(300);
                WaitForAsyncUtils.waitForFxEvents();
                wrong.put(language.toString(), statusProblems(robot, login));
            } finally {
                io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
                if (fx != null) {
                    closeFixture();
                }
            }
        }
        wrong.values().removeIf(List::isEmpty);
        assertThat(wrong).as("a rejected credential's status at 1024x680").isEmpty();
    }

    /** What is wrong with the status of the rejected credential whose login is at {@code login}. */
    private static List<String> statusProblems(FxRobot robot, String login) {
        return fxValue(robot, () -> {
            List<String> out = new java.util.ArrayList<>();
            javafx.scene.control.TableView<?> table = (javafx.scene.control.TableView<?>) robot
                    .lookup(".credentials-table").query();
            Label status = robot.lookup(".credentials-table .error-text").queryAllAs(Label.class).stream()
                    .filter(l -> l.getText() != null && l.getText().contains(login)).findFirst().orElse(null);
            if (status == null) {
                out.add("no status names the login " + login);
                return out;
            }
            javafx.scene.control.TableColumn<?, ?> statusColumn = table.getColumns().get(3);
            javafx.scene.control.TableColumn<?, ?> nameColumn = table.getColumns().get(0);
            String where = " (status " + Math.round(statusColumn.getWidth()) + " px, name "
                    + Math.round(nameColumn.getWidth()) + " px)";
            javafx.scene.text.Text drawn = (javafx.scene.text.Text) status.lookup(".text");
            int at = drawn.getText().indexOf(login);
            if (at < 0) {
                out.add("the status draws '" + drawn.getText() + "' without the login " + login + where);
            } else {
                double first = lineOf(drawn, at);
                double last = lineOf(drawn, at + login.length() - 1);
                if (Math.abs(first - last) > 0.5) {
                    out.add("the login " + login + " is broken across lines in '" + drawn.getText() + "'" + where);
                }
            }
            javafx.scene.text.Text one = new javafx.scene.text.Text("Xg");
            one.setFont(drawn.getFont());
            long lines = Math.round(drawn.getLayoutBounds().getHeight() / one.getLayoutBounds().getHeight());
            if (lines > 2) {
                out.add("the status reads in " + lines + " lines" + where);
            }
            if (lines > 1 && nameColumn.getWidth() > nameColumn.getMinWidth() + 1) {
                out.add("the status wraps while the name column keeps " + Math.round(nameColumn.getWidth()
                        - nameColumn.getMinWidth()) + " px over its minimum" + where);
            }
            if (status.getText().contains("sandbox-cookie")) {
                out.add("the row's status repeats the row's name: '" + status.getText() + "'");
            }
            boolean banner = robot.lookup(".credential-alerts .label").queryAllAs(Label.class).stream()
                    .anyMatch(l -> l.getText().contains("sandbox-cookie") && l.getText().contains(login));
            if (!banner) {
                out.add("the banner does not say the whole sentence with the name and the login");
            }
            return out;
        });
    }

    /** The y of the line that draws {@code text}'s character at {@code index}. */
    private static double lineOf(javafx.scene.text.Text text, int index) {
        javafx.scene.shape.PathElement[] caret = text.caretShape(index, true);
        return caret.length > 0 && caret[0] instanceof javafx.scene.shape.MoveTo m ? m.getY() : Double.NaN;
    }

    /**
     * At 1024 px the Workers page reads whole: its columns fit what they show (they were cut to "console · pid 2…",
     * "2026-12-0…" and "gone (no l…" beside an empty column of running keys).
     */
    @Test
    void atTheNarrowestTheWorkersPageReadsWhole(FxRobot robot) throws Exception {
        fixture("layout");
        fx.wb.job("daily", Jobs.publish("daily", "unsafe", false, null), fx.site.base());
        assertThat(fx.wb.cli("run", "daily", "--key", KEY).exit()).isZero();
        show(robot, 1024, 680);
        robot.clickOn("#nav-workers");
        waitUntil(() -> robot.lookup("#workers-table").queryAs(javafx.scene.control.TableView.class).getItems().size()
                >= 1);
        Thread.sleep(300);
        WaitForAsyncUtils.waitForFxEvents();
        List<javafx.scene.control.TableCell<?, ?>> cells = robot.lookup("#workers-table .table-cell").queryAll().stream()
                .<javafx.scene.control.TableCell<?, ?>>map(n -> (javafx.scene.control.TableCell<?, ?>) n)
                .filter(c -> c.isVisible() && c.getText() != null && !c.getText().isBlank()).toList();
        assertThat(cells).as("cells with a text").hasSizeGreaterThanOrEqualTo(5);
        for (javafx.scene.control.TableCell<?, ?> c : cells) {
            assertThat(fxValue(robot, () -> c.lookup(".text") instanceof javafx.scene.text.Text t ? t.getText() : null))
                    .as("%s: %s", c.getTableColumn().getText(), c.getText()).isEqualTo(c.getText());
        }
    }

    /**
     * At 1024×680 the Plan dialog fits its window and reads whole, in English and in Chinese: its choice of keys
     * (each target's input with its whole hint), the table's headings and the planned actions; no "…" anywhere.
     * (It opened 1080 px wide over a 1024 px window, and on a 1024 px screen its inputs read "to (empty: the
     * curre", its heading "Planned ac…" and its actions "blocked: cred…".)
     */
    @Test
    void atTheSmallestThePlanDialogFitsAndReadsWholeInBothLanguages(FxRobot robot) throws Exception {
        java.util.Map<String, List<String>> problems = new java.util.LinkedHashMap<>();
        for (java.util.Locale language : List.of(io.keyline.text.Text.ENGLISH, io.keyline.text.Text.CHINESE)) {
            io.keyline.text.Text.use(language);
            try {
                threeKeysWaitForALoginAt1024(robot);
                // a key that runs every step, beside the three that wait for the login and the done ones
                fx.wb.job("daily-article", Jobs.publish("daily-article", "unsafe", false,
                        "\"credential\": \"sandbox-cookie\","), fx.site.base());
                robot.interact(() -> console.plan("daily-article"));
                waitUntil(() -> dialog(robot, "#plan-table") != null);
                Window plan = dialog(robot, "#plan-table");
                waitUntil(() -> !robot.lookup("#plan-table").queryAs(javafx.scene.control.TableView.class).getItems()
                        .isEmpty());
                String where = language.getLanguage() + " ";
                problems.put(where + "size", fxValue(robot, () -> plan.getWidth() <= stage.getWidth() + 1
                        && plan.getHeight() <= stage.getHeight() + 1 ? List.of()
                        : List.of("the dialog is " + Math.round(plan.getWidth()) + "x" + Math.round(plan.getHeight())
                        + " over a window of " + Math.round(stage.getWidth()) + "x" + Math.round(stage.getHeight()))));
                problems.put(where + "today", readsWhole(robot, plan));
                robot.clickOn("#target-range");
                WaitForAsyncUtils.waitForFxEvents();
                problems.put(where + "range, empty", readsWhole(robot, plan));
                robot.clickOn("#plan-from").write("2026-11-24");
                robot.clickOn("#plan-run");
                waitUntil(() -> robot.lookup("#plan-table").queryAs(javafx.scene.control.TableView.class).getItems()
                        .size() == 6);
                Thread.sleep(300);
                WaitForAsyncUtils.waitForFxEvents();
                problems.put(where + "range", readsWhole(robot, plan));
                robot.clickOn("#target-keys");
                WaitForAsyncUtils.waitForFxEvents();
                problems.put(where + "keys", readsWhole(robot, plan));
                robot.clickOn("#target-due");
                WaitForAsyncUtils.waitForFxEvents();
                problems.put(where + "due", readsWhole(robot, plan));
                closeDialogs(robot);
            } finally {
                io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
                if (fx != null) {
                    closeFixture();
                }
            }
        }
        problems.values().removeIf(List::isEmpty);
        assertThat(problems).as("the Plan dialog at 1024x680").isEmpty();
    }

    /**
     * What {@code window} does not show whole: controls beyond its edges, texts cut with "…" (a tooltip or not),
     * and an empty input whose hint is cut.
     */
    private static List<String> readsWhole(FxRobot robot, Window window) {
        return fxValue(robot, () -> {
            List<String> out = new java.util.ArrayList<>();
            Scene scene = window.getScene();
            cutOrOut(scene.getRoot(), scene.getWidth(), scene.getHeight(), out);
            return out;
        });
    }

    private static void cutOrOut(Node n, double w, double h, List<String> out) {
        if (!n.isVisible()) {
            return;
        }
        if (n instanceof javafx.scene.control.Control c) {
            Bounds b = c.localToScene(c.getLayoutBounds());
            if (b.getWidth() > 0 && (b.getMaxX() > w + 1 || b.getMaxY() > h + 1 || b.getMinX() < -1)) {
                out.add(describe(c) + " reaches x " + Math.round(b.getMaxX()) + ", y " + Math.round(b.getMaxY()));
            }
        }
        if (n instanceof javafx.scene.control.Labeled l && l.getText() != null && !l.getText().isBlank()
                && l.lookup(".text") instanceof javafx.scene.text.Text t && t.getText() != null
                && !t.getText().equals(l.getText()) && (t.getText().endsWith("...") || t.getText().endsWith("…"))) {
            out.add(describe(l) + " is cut to '" + t.getText() + "'");
        }
        if (n instanceof javafx.scene.control.TextField f && (f.getText() == null || f.getText().isEmpty())
                && f.getPromptText() != null && !f.getPromptText().isEmpty()) {
            double room = f.getWidth() - f.snappedLeftInset() - f.snappedRightInset();
            double needs = io.keyline.ui.common.Widgets.textWidth(List.of(f.getPromptText()), f.getFont());
            if (needs > room + 0.5) {
                out.add(describe(f) + " shows " + Math.round(room) + " px of its hint '" + f.getPromptText()
                        + "' (" + Math.round(needs) + " px)");
            }
        }
        if (n instanceof javafx.scene.Parent p) {
            for (Node c : p.getChildrenUnmodifiable()) {
                cutOrOut(c, w, h, out);
            }
        }
    }

    /** The site rejected the login sandbox-cookie of three keys of daily-article; the console open at 1024×680. */
    private void threeKeysWaitForALoginAt1024(FxRobot robot) throws Exception {
        fixture("layout");
        fx.wb.job("daily-article", Jobs.publish("daily-article", "unsafe", false,
                "\"credential\": \"sandbox-cookie\","), fx.site.base());
        assertThat(fx.wb.cliWithInput("Cookie: session=v1", "credentials", "set", "sandbox-cookie").exit()).isZero();
        fx.site.requireCookie("session=v2");
        assertThat(fx.wb.cli("run", "--yes", "daily-article", "--from", "2026-11-27", "--to", KEY).exit())
                .isEqualTo(4);
        show(robot, 1024, 680);
    }

    /** The text a label really draws (cut with an ellipsis when it does not fit). */
    private static String shownText(FxRobot robot, Label l) {
        return fxValue(robot, () -> l.lookup(".text") instanceof javafx.scene.text.Text t ? t.getText() : null);
    }

    @Test
    void jAndKMoveInTheListAfterAClickInTheSidebar(FxRobot robot) throws Exception {
        fixture("layout");
        fx.wb.job("alpha", Jobs.publish("alpha", "unsafe", false, null), fx.site.base());
        fx.wb.job("beta", Jobs.publish("beta", "unsafe", false, null), fx.site.base());
        fx.site.failPosts(Fault.STATUS_404, Fault.STATUS_404);
        assertThat(fx.wb.cli("run", "alpha", "--key", KEY).exit()).isEqualTo(2);
        assertThat(fx.wb.cli("run", "beta", "--key", KEY).exit()).isEqualTo(2);
        show(robot, 1280, 860);
        waitUntil(() -> inbox(robot).getItems().stream().filter(i -> i.kind() == Attention.Kind.FAILED).count() == 2);
        ListView<Attention.Item> list = inbox(robot);

        // the operator opens a job from the sidebar, then comes back with the sidebar's Attention
        robot.clickOn(robot.from(robot.lookup("#job-list").<Node>query()).lookup("alpha").queryLabeled());
        waitUntil(() -> robot.lookup("#job-view").tryQuery().map(Node::isVisible).orElse(false));
        robot.clickOn("#nav-inbox");
        WaitForAsyncUtils.waitForFxEvents();
        robot.type(KeyCode.J);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(list.getSelectionModel().getSelectedIndex()).as("J selects the first item").isEqualTo(0);
        robot.type(KeyCode.J);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(list.getSelectionModel().getSelectedIndex()).as("J moves down").isEqualTo(1);
        robot.type(KeyCode.K);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(list.getSelectionModel().getSelectedIndex()).as("K moves up").isEqualTo(0);

        // in a job's page too: J/K move in its key table after the click on the job in the sidebar
        robot.clickOn(robot.from(robot.lookup("#job-list").<Node>query()).lookup("beta").queryLabeled());
        // beta's keys, not alpha's still on the page while beta's load runs (J then selects in a table it replaces)
        waitUntil(() -> robot.lookup("#job-view").tryQuery().map(Node::isVisible).orElse(false)
                && robot.lookup("#key-table").queryAs(javafx.scene.control.TableView.class).getItems().stream()
                .anyMatch(r -> r instanceof io.keyline.ui.job.JobViewModel.KeyRow k && k.record().job().equals("beta")));
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.control.TableView<?> keys = robot.lookup("#key-table").queryAs(javafx.scene.control.TableView.class);
        robot.type(KeyCode.J);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(keys.getSelectionModel().getSelectedIndex()).as("J in the job's key table").isEqualTo(0);
    }

    // ------------------------------------------------------------------ Skip

    @Test
    void skipAsksInItsOwnDialogAndSkipsOnlyWhenConfirmed(FxRobot robot) throws Exception {
        fixture("layout");
        fx.wb.job("daily", Jobs.publish("daily", "unsafe", false, null), fx.site.base());
        fx.site.failPosts(Fault.STATUS_404);
        assertThat(fx.wb.cli("run", "daily", "--key", KEY).exit()).isEqualTo(2);
        show(robot, 1280, 860);
        waitUntil(() -> robot.lookup("#action-daily-" + KEY).tryQuery().isPresent());
        robot.clickOn(robot.lookup("#inbox-list .inbox-item .menu-button").<Node>query());
        waitUntil(() -> robot.lookup("Skip…").tryQuery().isPresent());
        robot.clickOn("Skip…");
        waitUntil(() -> Window.getWindows().stream().anyMatch(w -> w != stage && w.isShowing()));
        Window dialog = Window.getWindows().stream().filter(w -> w != stage && w.isShowing()).findFirst().orElseThrow();
        Node root = dialog.getScene().getRoot();
        assertThat(root.getStyleClass()).contains("note-dialog");
        List<String> texts = robot.from(root).lookup(".label").queryAll().stream()
                .map(n -> ((javafx.scene.control.Labeled) n).getText()).toList();
        assertThat(String.join("\n", texts)).contains("Skip daily " + KEY).contains("will not run");
        // Cancel: nothing changes
        robot.clickOn(robot.from(root).lookup("Cancel").<Node>query());
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx.state("daily", KEY)).isEqualTo(KeyState.FAILED);
        waitUntil(() -> Window.getWindows().stream().noneMatch(w -> w != stage && w.isShowing()));

        robot.clickOn(robot.lookup("#inbox-list .inbox-item .menu-button").<Node>query());
        waitUntil(() -> robot.lookup("Skip…").tryQuery().isPresent());
        robot.clickOn("Skip…");
        waitUntil(() -> Window.getWindows().stream().anyMatch(w -> w != stage && w.isShowing()));
        dialog = Window.getWindows().stream().filter(w -> w != stage && w.isShowing()).findFirst().orElseThrow();
        root = dialog.getScene().getRoot();
        robot.clickOn(robot.from(root).lookup(".text-area").<Node>query()).write("not needed today");
        Button skip = robot.from(root).lookup(".button").queryAll().stream().map(n -> (Button) n)
                .filter(b -> "Skip".equals(b.getText())).findFirst().orElseThrow();
        robot.clickOn(skip);
        waitUntil(() -> fx.state("daily", KEY) == KeyState.SKIPPED);
        assertThat(fx.ws.store().events("daily", KEY).stream().anyMatch(e -> "not needed today".equals(e.note())))
                .isTrue();
    }
}
