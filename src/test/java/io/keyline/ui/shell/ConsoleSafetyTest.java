package io.keyline.ui.shell;

import io.keyline.acceptance.Jobs;
import io.keyline.core.operations.Attention;
import io.keyline.testing.TestSite;
import io.keyline.testing.TestSite.Fault;
import io.keyline.ui.job.Heatmap;
import io.keyline.ui.plan.PlanViewModel;
import io.keyline.ui.MainWindowTest;
import javafx.geometry.Point2D;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.format.TextStyle;
import java.time.temporal.IsoFields;
import java.util.List;
import java.util.Locale;

import static io.keyline.testing.Fx.fxValue;
import static io.keyline.testing.Fx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's safety, driven with the keyboard and the mouse in the real
 * main window (headless), against a real state folder and a real loopback site: an unsafe request is
 * never sent without a visible selection or by Enter in a note, the plan's targets each show their
 * own input, a rejected credential is one item, weekly labels name the weeks' months, and selected
 * gaps plan exactly those keys.
 */
class ConsoleSafetyTest extends MainWindowTest {

    static final String KEY = "2026-11-29";

    TestSite site;

    private void siteFixture() throws Exception {
        site = fixture("safety").site;
    }

    private void open(FxRobot robot) {
        showQuiet(robot, 1280, 860);
    }

    @SuppressWarnings("unchecked")
    private static ListView<Attention.Item> inbox(FxRobot robot) {
        return robot.lookup("#inbox-list").queryAs(ListView.class);
    }

    /** Windows other than the main one that are showing (dialogs). */
    private List<Window> dialogs() {
        return Window.getWindows().stream().filter(w -> w != stage && w.isShowing()).toList();
    }

    /**
     * Reloads the state the way the 3-second ticker does, and waits until the inbox holds the fresh
     * copies (every reload builds new items; the workbench clock stands still, so the time does not say).
     */
    private void refreshAndWait(FxRobot robot) throws Exception {
        List<Attention.Item> before = fxValue(robot, () -> List.copyOf(inbox(robot).getItems()));
        robot.interact(() -> console.refresh());
        waitUntil(() -> !console.model().loadingProperty().get() && !inbox(robot).getItems().isEmpty()
                && before.stream().noneMatch(b -> b == inbox(robot).getItems().get(0)));
    }

    /** The node is on screen: it and every parent visible, with a size. */
    private static boolean shown(Node n) {
        if (n.getScene() == null || n.getBoundsInLocal().getWidth() <= 0) {
            return false;
        }
        for (Node p = n; p != null; p = p.getParent()) {
            if (!p.isVisible()) {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ selection and keys

    @Test
    void aRefreshKeepsTheHighlightedRow(FxRobot robot) throws Exception {
        siteFixture();
        fx.wb.job("alpha", Jobs.publish("alpha", "unsafe", false, null), site.base());
        fx.wb.job("beta", Jobs.publish("beta", "unsafe", false, null), site.base());
        site.failPosts(Fault.STATUS_404, Fault.STATUS_404, Fault.STATUS_404);
        assertThat(fx.wb.cli("run", "alpha", "--key", KEY).exit()).isEqualTo(2);
        assertThat(fx.wb.cli("run", "beta", "--key", KEY).exit()).isEqualTo(2);
        open(robot);
        waitUntil(() -> inbox(robot).getItems().stream().filter(i -> i.kind() == Attention.Kind.FAILED).count() == 2);
        ListView<Attention.Item> list = inbox(robot);
        int second = fxValue(robot, () -> {
            for (int i = 0; i < list.getItems().size(); i++) {
                if (list.getItems().get(i).kind() == Attention.Kind.FAILED && i > 0) {
                    return i;
                }
            }
            throw new AssertionError("no second failed item in " + list.getItems());
        });
        Attention.Item chosen = list.getItems().get(second);

        // the operator clicks the second failed item's title
        Node title = robot.from(list).lookup(".inbox-item .key").queryAll().stream()
                .filter(n -> ((javafx.scene.control.Label) n).getText().equals(chosen.title())).findFirst().orElseThrow();
        robot.clickOn(title);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(list.getSelectionModel().getSelectedIndex()).isEqualTo(second);

        for (int round = 0; round < 3; round++) {
            refreshAndWait(robot);
            // the list now holds fresh copies (the reload really replaced the items) ...
            assertThat(list.getItems().get(second)).isNotSameAs(chosen).isEqualTo(chosen);
            // ... and the same item is still highlighted, in a selected cell on screen
            assertThat(list.getSelectionModel().getSelectedIndex()).as("round %d", round).isEqualTo(second);
            assertThat(list.getSelectionModel().getSelectedItem().id()).isEqualTo(chosen.id());
            long selectedCells = robot.from(list).lookup(".list-cell").queryAll().stream()
                    .filter(n -> ((javafx.scene.control.ListCell<?>) n).isSelected()
                            && ((javafx.scene.control.ListCell<?>) n).getItem() != null)
                    .count();
            assertThat(selectedCells).isEqualTo(1);
        }
        // and Enter acts on it: the highlighted item, nothing else (its retry shows the POST first)
        long postsBefore = site.posts();
        robot.type(KeyCode.ENTER);
        waitUntil(() -> robot.lookup("#retry-and-send").tryQuery().isPresent());
        assertThat(robot.lookup(".retry-payload").queryTextInputControl().getText())
                .contains("Idempotency-Key: " + chosen.job() + ":" + KEY + ":publish");
        assertThat(site.posts() - postsBefore).as("nothing is sent before Retry and send").isZero();
        robot.clickOn("#retry-and-send");
        waitUntil(() -> robot.lookup("#inbox-notice").queryLabeled().getText().startsWith("Retried"));
        String other = chosen.job().equals("alpha") ? "beta" : "alpha";
        assertThat(site.posts() - postsBefore).as("one retry of the highlighted key only").isEqualTo(1);
        assertThat(fx.state(other, KEY)).isEqualTo(io.keyline.domain.KeyState.FAILED);
    }

    /** Row 1: alpha FAILED (Retry sends a POST). Row 2: beta waits for confirmation. */
    private ListView<Attention.Item> failedThenWaiting(FxRobot robot) throws Exception {
        siteFixture();
        fx.wb.job("alpha", Jobs.publish("alpha", "unsafe", false, null), site.base());
        fx.wb.job("beta", Jobs.publish("beta", "unsafe", false, null), site.base());
        site.failPosts(Fault.STATUS_404);
        assertThat(fx.wb.cli("run", "alpha", "--key", KEY).exit()).isEqualTo(2);
        site.failPosts(Fault.STATUS_502);
        assertThat(fx.wb.cli("run", "beta", "--key", KEY).exit()).isEqualTo(4);
        open(robot);
        waitUntil(() -> robot.lookup("#action-alpha-" + KEY).tryQuery().isPresent()
                && robot.lookup("#action-beta-" + KEY).tryQuery().isPresent());
        ListView<Attention.Item> list = inbox(robot);
        assertThat(list.getItems().get(0).job()).isEqualTo("alpha");
        assertThat(list.getItems().get(1).job()).isEqualTo("beta");
        return list;
    }

    @Test
    void aRefreshLeavesTheKeyboardFocusOnTheRowButtonItWasOn(FxRobot robot) throws Exception {
        ListView<Attention.Item> list = failedThenWaiting(robot);
        // the operator highlighted row 2 and tabbed onto its action; the 3-second reload comes
        Button confirmBeta = robot.lookup("#action-beta-" + KEY).queryButton();
        robot.interact(() -> {
            list.getSelectionModel().select(1);
            confirmBeta.requestFocus();
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(stage.getScene().getFocusOwner()).isSameAs(confirmBeta);
        for (int i = 0; i < 3; i++) {
            refreshAndWait(robot);
            Node focused = stage.getScene().getFocusOwner();
            assertThat(focused.getId()).as("after reload " + (i + 1) + " the focus is where the operator left it")
                    .isEqualTo("action-beta-" + KEY);
            assertThat(list.getSelectionModel().getSelectedItem().job()).isEqualTo("beta");
        }
        // and Tab goes on from there, not from the top of the list
        long posts = site.posts();
        robot.type(KeyCode.TAB);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(list.getSelectionModel().getSelectedItem().job()).as("the highlight stays on row 2").isEqualTo("beta");
        assertThat(site.posts()).isEqualTo(posts);
    }

    @Test
    void enterActsOnTheHighlightedRowNotOnAButtonFocusedInAnother(FxRobot robot) throws Exception {
        ListView<Attention.Item> list = failedThenWaiting(robot);
        Button retryAlpha = robot.lookup("#action-alpha-" + KEY).queryButton();
        long posts = site.posts();

        // the focus sits on row 1's Retry while row 2 is the highlighted row (a reload that reordered the
        // rows under the focus leaves exactly this)
        robot.interact(() -> {
            retryAlpha.requestFocus();
            list.getSelectionModel().select(1);
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(list.getSelectionModel().getSelectedItem().job()).isEqualTo("beta");

        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        robot.type(KeyCode.SPACE);
        WaitForAsyncUtils.waitForFxEvents();
        Thread.sleep(500); // a retry runs in the background: give a wrongly started one time to send
        assertThat(site.posts() - posts).as("no request for alpha, whose row is not highlighted").isZero();
        assertThat(fx.state("alpha", KEY)).isEqualTo(io.keyline.domain.KeyState.FAILED);
        // Enter acted on the highlighted row instead: beta's Confirm opened (it sends nothing by itself)
        waitUntil(() -> robot.lookup("#confirm-and-run").tryQuery().isPresent());
        robot.clickOn("#confirm-cancel");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(site.posts() - posts).isZero();
    }

    @Test
    void tabbingOntoARowButtonHighlightsThatRowFirst(FxRobot robot) throws Exception {
        ListView<Attention.Item> list = failedThenWaiting(robot);
        long posts = site.posts();
        // the operator highlights row 2, then tabs away from the list onto a button
        Node row2 = robot.from(list).lookup(".inbox-item .key").queryAll().stream()
                .filter(n -> ((javafx.scene.control.Label) n).getText().contains("beta")).findFirst().orElseThrow();
        robot.clickOn(row2);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(list.getSelectionModel().getSelectedItem().job()).isEqualTo("beta");
        robot.type(KeyCode.TAB);
        WaitForAsyncUtils.waitForFxEvents();
        Node focused = stage.getScene().getFocusOwner();
        // wherever the focus went, a focused row button belongs to the highlighted row
        Attention.Item highlighted = list.getSelectionModel().getSelectedItem();
        if (focused instanceof Button b && b.getId() != null && b.getId().startsWith("action-")) {
            assertThat(b.getId()).as("the focused button's row is the highlighted one")
                    .isEqualTo("action-" + highlighted.job() + "-" + KEY);
        }
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        Thread.sleep(500);
        if (highlighted.job().equals("beta")) {
            assertThat(site.posts() - posts).as("nothing is sent for alpha").isZero();
        } else {
            // the highlight followed the focus to alpha's Retry: Enter retried what the operator saw highlighted,
            // showing its POST before sending it
            waitUntil(() -> robot.lookup("#retry-and-send").tryQuery().isPresent());
            assertThat(site.posts() - posts).isZero();
            robot.clickOn("#retry-and-send");
            waitUntil(() -> site.posts() - posts == 1);
            assertThat(fx.state("beta", KEY)).isEqualTo(io.keyline.domain.KeyState.NEEDS_CONFIRMATION);
        }
    }

    @Test
    void theKeyboardFocusIsRingedAndEscGoesBackFromTheTimeline(FxRobot robot) throws Exception {
        ListView<Attention.Item> list = failedThenWaiting(robot);
        robot.clickOn(robot.from(list).lookup(".inbox-item .key").<Node>query());
        robot.type(KeyCode.TAB);
        WaitForAsyncUtils.waitForFxEvents();
        Node focused = stage.getScene().getFocusOwner();
        assertThat(focused).isInstanceOf(Button.class);
        javafx.scene.layout.Border ring = ((Button) focused).getBorder();
        assertThat(ring).as("a button reached with Tab has a ring").isNotNull();
        assertThat(ring.getStrokes()).as("in the focus colour").anySatisfy(s -> assertThat(s.getTopStroke())
                .isEqualTo(io.keyline.ui.common.Palette.named("-kl-focus", false)));

        // T opens the highlighted key's timeline; Esc, Alt+Left and Backspace each come back
        for (KeyCode[] back : List.of(new KeyCode[] {KeyCode.ESCAPE}, new KeyCode[] {KeyCode.ALT, KeyCode.LEFT},
                new KeyCode[] {KeyCode.BACK_SPACE})) {
            robot.interact(list::requestFocus);
            robot.type(KeyCode.T);
            waitUntil(() -> robot.lookup("#timeline-back").tryQuery().map(ConsoleSafetyTest::shown).orElse(false));
            robot.press(back).release(back);
            WaitForAsyncUtils.waitForFxEvents();
            waitUntil(() -> shown(inbox(robot)));
            assertThat(robot.lookup("#timeline-back").tryQuery().map(n -> n.getScene() != null).orElse(false))
                    .as("back with %s", List.of(back)).isFalse();
        }
    }

    @Test
    void tabLeavesTheConfirmNote(FxRobot robot) throws Exception {
        failedThenWaiting(robot);
        long posts = site.posts();
        robot.clickOn("#action-beta-" + KEY);
        waitUntil(() -> robot.lookup("#confirm-note").tryQuery().map(Node::isFocused).orElse(false));
        TextArea note = robot.lookup("#confirm-note").queryAs(TextArea.class);
        robot.clickOn(note).write("checked");
        robot.type(KeyCode.TAB);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(note.getText()).as("Tab types nothing into the note").isEqualTo("checked");
        assertThat(note.isFocused()).as("Tab leaves the note").isFalse();
        robot.press(KeyCode.SHIFT).type(KeyCode.TAB).release(KeyCode.SHIFT);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(note.isFocused()).as("Shift+Tab comes back").isTrue();
        robot.press(KeyCode.CONTROL).type(KeyCode.TAB).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(note.getText()).as("Ctrl+Tab types a tab").isEqualTo("checked\t");
        robot.clickOn("#confirm-cancel");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(site.posts() - posts).isZero();
    }

    @Test
    void ctrlEnterWithoutAVisibleSelectionDoesNothing(FxRobot robot) throws Exception {
        siteFixture();
        fx.wb.job("daily", Jobs.publish("daily", "unsafe", false, null), site.base());
        site.failPosts(Fault.STATUS_502);
        assertThat(fx.wb.cli("run", "daily", "--key", KEY).exit()).isEqualTo(4);
        long posts = site.posts();
        open(robot);
        waitUntil(() -> robot.lookup("#action-daily-" + KEY).tryQuery().isPresent());
        ListView<Attention.Item> list = inbox(robot);
        robot.clickOn(list); // focus in the window, on no row in particular
        robot.interact(() -> list.getSelectionModel().clearSelection());

        // nothing selected at all
        robot.press(KeyCode.CONTROL).type(KeyCode.ENTER).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(dialogs()).as("no dialog opens").isEmpty();

        // the operator selects the item, then un-highlights it (Ctrl+click): the view model still
        // remembers it, but nothing is visibly selected - the case of the issue
        Node row = robot.lookup("#inbox-list .inbox-item .key").<Node>query();
        robot.clickOn(row);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(list.getSelectionModel().getSelectedItem()).isNotNull();
        robot.press(KeyCode.CONTROL).clickOn(row, MouseButton.PRIMARY).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(list.getSelectionModel().getSelectedItem()).as("no row highlighted").isNull();
        for (int i = 0; i < 2; i++) {
            refreshAndWait(robot);
            robot.press(KeyCode.CONTROL).type(KeyCode.ENTER).release(KeyCode.CONTROL);
            robot.type(KeyCode.ENTER);
            WaitForAsyncUtils.waitForFxEvents();
        }
        assertThat(dialogs()).as("Ctrl+Enter and Enter with no visible selection open nothing").isEmpty();

        // on another page (the job's), a selection left in the inbox is not acted on either
        robot.clickOn(robot.from(robot.lookup("#job-list").<Node>query()).lookup("daily").queryLabeled());
        waitUntil(() -> robot.lookup("#job-view").tryQuery().map(ConsoleSafetyTest::shown).orElse(false));
        robot.interact(() -> list.getSelectionModel().select(0));
        robot.press(KeyCode.CONTROL).type(KeyCode.ENTER).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(dialogs()).as("the inbox is not on screen").isEmpty();

        // the control: with the row visibly selected on the Attention page, Ctrl+Enter opens Confirm
        robot.press(KeyCode.CONTROL).type(KeyCode.DIGIT1).release(KeyCode.CONTROL);
        waitUntil(() -> shown(list));
        robot.clickOn(robot.lookup("#inbox-list .inbox-item .key").<Node>query());
        robot.press(KeyCode.CONTROL).type(KeyCode.ENTER).release(KeyCode.CONTROL);
        waitUntil(() -> robot.lookup("#confirm-and-run").tryQuery().isPresent());
        assertThat(site.posts()).as("opening Confirm sends nothing").isEqualTo(posts);
        robot.clickOn("#confirm-cancel");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(site.posts()).as("no unsafe POST was sent").isEqualTo(posts);
        assertThat(site.effects(KEY)).isZero();
    }

    @Test
    void enterInTheConfirmNoteSendsNothing(FxRobot robot) throws Exception {
        siteFixture();
        fx.wb.job("daily", Jobs.publish("daily", "unsafe", false, null), site.base());
        site.failPosts(Fault.STATUS_502);
        assertThat(fx.wb.cli("run", "daily", "--key", KEY).exit()).isEqualTo(4);
        long posts = site.posts();
        open(robot);
        waitUntil(() -> robot.lookup("#action-daily-" + KEY).tryQuery().isPresent());
        robot.clickOn("#action-daily-" + KEY);
        waitUntil(() -> robot.lookup("#confirm-and-run").tryQuery().isPresent()
                && !robot.lookup("#confirm-and-run").queryButton().isDisabled());
        TextArea note = robot.lookup("#confirm-note").queryAs(TextArea.class);
        Button confirm = robot.lookup("#confirm-and-run").queryButton();
        assertThat(note.isFocused()).as("the note has the focus on open").isTrue();
        assertThat(confirm.isDefaultButton()).isFalse();

        robot.clickOn(note).write("checked the site");
        robot.type(KeyCode.ENTER);
        robot.write("second line");
        robot.type(KeyCode.ENTER, 2);
        robot.press(KeyCode.CONTROL).type(KeyCode.ENTER).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(note.getText()).as("Enter is a new line in the note").contains("checked the site\nsecond line\n");
        assertThat(confirm.isDisabled()).as("confirm was never started (it disables itself at once)").isFalse();
        assertThat(robot.lookup(".confirm-outcome").query().isVisible()).isFalse();
        assertThat(site.posts()).as("zero POSTs on the loopback site").isEqualTo(posts);
        assertThat(fx.state("daily", KEY)).isEqualTo(io.keyline.domain.KeyState.NEEDS_CONFIRMATION);

        // the control: the button itself sends exactly one request
        robot.clickOn(confirm);
        waitUntil(() -> robot.lookup(".confirm-outcome-text").tryQuery()
                .map(n -> ((javafx.scene.control.Labeled) n).getText()).orElse("")
                .startsWith("The site answered HTTP 201: id = "));
        assertThat(site.posts() - posts).isEqualTo(1);
        assertThat(fx.state("daily", KEY)).isEqualTo(io.keyline.domain.KeyState.DONE);
    }

    // ------------------------------------------------------------------ plan targets

    @Test
    void eachPlanTargetShowsItsOwnInput(FxRobot robot) throws Exception {
        siteFixture();
        fx.publishJob("p", null);
        open(robot);
        robot.interact(() -> console.plan("p"));
        waitUntil(() -> robot.lookup("#target-keys").tryQuery().isPresent());
        String[] inputs = {"#plan-today-text", "#plan-from", "#plan-to", "#plan-due-text", "#plan-keys"};
        record Expect(String target, List<String> shownInputs) {
        }
        List<Expect> cases = List.of(
                new Expect("#target-today", List.of("#plan-today-text")),
                new Expect("#target-range", List.of("#plan-from", "#plan-to")),
                new Expect("#target-due", List.of("#plan-due-text")),
                new Expect("#target-keys", List.of("#plan-keys")),
                new Expect("#target-range", List.of("#plan-from", "#plan-to")),
                new Expect("#target-today", List.of("#plan-today-text")));
        for (Expect c : cases) {
            robot.clickOn(c.target());
            WaitForAsyncUtils.waitForFxEvents();
            for (String input : inputs) {
                assertThat(shown(robot.lookup(input).query())).as("%s after clicking %s", input, c.target())
                        .isEqualTo(c.shownInputs().contains(input));
            }
        }

        // the Keys field takes keys, and the plan is of exactly them
        robot.clickOn("#target-keys");
        robot.clickOn("#plan-keys").write("2026-11-20, 2026-11-22");
        robot.type(KeyCode.ENTER);
        @SuppressWarnings("unchecked")
        TableView<PlanViewModel.Row> table = robot.lookup("#plan-table").queryAs(TableView.class);
        waitUntil(() -> table.getItems().size() == 2);
        assertThat(table.getItems().stream().map(r -> r.plan().key()).toList())
                .containsExactly("2026-11-20", "2026-11-22");
        // switching the target clears the rows of the plan that no longer matches it
        robot.clickOn("#target-due");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(table.getItems()).isEmpty();
        assertThat(site.posts()).isZero();
    }

    // ------------------------------------------------------------------ attention grouped by cause

    @Test
    void aRejectedCredentialIsOneAttentionItemListingItsKeysAndTheLoginUrl(FxRobot robot) throws Exception {
        siteFixture();
        fx.wb.job("daily", Jobs.publish("daily", "unsafe", true, "\"credential\": \"site-cookie\","), site.base());
        site.requireCookie("session=v2");
        String login = "https://sandbox.example/login?next=%2Fdashboard";
        assertThat(fx.wb.cliWithInput("Cookie: session=v1", "credentials", "set", "site-cookie",
                "--login-url", login).exit()).isZero();
        assertThat(fx.wb.cli("run", "--yes", "daily", "--from", "2026-11-27", "--to", KEY).exit()).isEqualTo(4);
        open(robot);

        waitUntil(() -> inbox(robot).getItems().stream().anyMatch(i -> i.kind() == Attention.Kind.CREDENTIAL));
        List<Attention.Item> creds = inbox(robot).getItems().stream()
                .filter(i -> i.kind() == Attention.Kind.CREDENTIAL).toList();
        assertThat(creds).hasSize(1);
        assertThat(creds.get(0).keys()).containsExactly("2026-11-27", "2026-11-28", KEY);
        // no other item repeats those keys
        assertThat(inbox(robot).getItems().stream().filter(i -> i.kind() != Attention.Kind.MISSING)).hasSize(1);

        // on screen: one Renew button, the keys and the whole login URL in the row
        assertThat(robot.lookup("#inbox-list .button").queryAll().stream()
                .filter(n -> n.isVisible() && ((Button) n).getText().startsWith("Renew"))).hasSize(1);
        String keysShown = robot.lookup("#inbox-list .inbox-keys").queryAll().stream().filter(Node::isVisible)
                .map(n -> ((javafx.scene.control.Label) n).getText()).findFirst().orElseThrow();
        assertThat(keysShown).contains("2026-11-27", "2026-11-28", KEY);
        String rowText = robot.lookup("#inbox-list .inbox-item").queryAll().stream()
                .map(n -> robot.from(n).lookup(".label").queryAll().stream()
                        .map(l -> ((javafx.scene.control.Label) l).getText()).reduce("", (a, b) -> a + "\n" + b))
                .filter(t -> t.contains("site-cookie")).findFirst().orElseThrow();
        assertThat(rowText).contains(login).contains("3 keys");

        // the Renew dialog says where to log in and which keys will resume
        robot.clickOn("#action-credential-site-cookie");
        waitUntil(() -> robot.lookup(".credential-input").tryQuery().isPresent());
        String dialogText = dialogs().stream().flatMap(w -> robot.from(w.getScene().getRoot()).lookup(".label")
                .queryAll().stream()).filter(Node::isVisible)
                .map(l -> ((javafx.scene.control.Labeled) l).getText()).reduce("", (a, b) -> a + "\n" + b);
        assertThat(dialogText).contains(login).contains("2026-11-27").contains(KEY);
    }

    // ------------------------------------------------------------------ heatmap

    @Test
    void weeklyHeatmapLabelsNameTheMonthOfTheirWeeks(FxRobot robot) throws Exception {
        siteFixture();
        fx.wb.job("weekly", Jobs.command("weekly", "none", "true", "PT5S")
                .replace("\"type\": \"date\", \"zone\": \"UTC\", \"start\": \"2026-01-01\"",
                        "\"type\": \"week\", \"zone\": \"UTC\", \"start\": \"2025-W40\""), null);
        assertThat(fx.wb.cli("run", "--yes", "weekly", "--from", "2026-W40", "--to", "2026-W48").exit()).isZero();
        open(robot);
        robot.clickOn(robot.from(robot.lookup("#job-list").<Node>query()).lookup("weekly").queryLabeled());
        waitUntil(() -> robot.lookup("#heatmap").tryQuery().map(ConsoleSafetyTest::shown).orElse(false)
                && !robot.lookup("#heatmap").queryAs(Heatmap.class).labels().isEmpty());
        Heatmap heat = robot.lookup("#heatmap").queryAs(Heatmap.class);
        List<Heatmap.MonthLabel> labels = heat.labels();
        List<String> keys = heat.viewProperty().get().cells().stream().map(c -> c.key()).toList();
        assertThat(keys).as("a job older than a year: a year of weeks").hasSize(52);
        assertThat(keys.get(51)).isEqualTo("2026-W48");
        assertThat(labels.size()).as("a year of weeks has a label for most months").isGreaterThanOrEqualTo(10);
        for (Heatmap.MonthLabel l : labels) {
            String week = keys.get(l.cell());
            LocalDate thursday = LocalDate.of(Integer.parseInt(week.substring(0, 4)), 6, 1)
                    .with(IsoFields.WEEK_OF_WEEK_BASED_YEAR, Integer.parseInt(week.substring(6)))
                    .with(DayOfWeek.THURSDAY);
            assertThat(l.text()).as("label over %s", week)
                    .startsWith(thursday.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
            // the label sits over its own week's column, and the week before it is of another month
            if (l.cell() > 0) {
                String prev = keys.get(l.cell() - 1);
                LocalDate prevThursday = thursday.minusWeeks(1);
                assertThat(prevThursday.getMonth()).as("week before %s (%s)", week, prev)
                        .isNotEqualTo(thursday.getMonth());
            }
        }
        // the current week (W48, Thursday 26 November) is under the November label
        Heatmap.MonthLabel last = labels.get(labels.size() - 1);
        assertThat(last.text()).startsWith("Nov");
        assertThat(last.cell()).isLessThanOrEqualTo(51);
    }

    /** Job c since 2026-11-20; 11-22..11-24 ran: the gaps are 11-20, 11-21 and 11-25..11-29. */
    private Heatmap gapJob(FxRobot robot) throws Exception {
        siteFixture();
        fx.wb.job("c", Jobs.command("c", "none", "true", "PT5S").replace("2026-01-01", "2026-11-20"), null);
        assertThat(fx.wb.cli("run", "--yes", "c", "--from", "2026-11-22", "--to", "2026-11-24").exit()).isZero();
        open(robot);
        robot.clickOn(robot.from(robot.lookup("#job-list").<Node>query()).lookup("c").queryLabeled());
        waitUntil(() -> robot.lookup("#heatmap").tryQuery().map(ConsoleSafetyTest::shown).orElse(false)
                && !robot.lookup("#heatmap").queryAs(Heatmap.class).viewProperty().get().cells().isEmpty());
        Heatmap heat = robot.lookup("#heatmap").queryAs(Heatmap.class);
        assertThat(heat.viewProperty().get().missing())
                .containsExactly("2026-11-20", "2026-11-21", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28",
                        KEY);
        return heat;
    }

    @Test
    void draggingAcrossGapsPlansExactlyTheGapKeys(FxRobot robot) throws Exception {
        Heatmap heat = gapJob(robot);
        // a drag from a done key (11-24) across three gaps plans exactly the gaps
        robot.moveTo(screen(heat, "2026-11-24").subtract(0, 160));
        robot.drag(screen(heat, "2026-11-24"), MouseButton.PRIMARY).dropTo(screen(heat, "2026-11-27"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(heat.selectedKeys()).as("the drag outlines the cells it crossed")
                .containsExactly("2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27");
        assertThat(plannedKeys(robot)).containsExactly("2026-11-25", "2026-11-26", "2026-11-27");
        assertThat(site.posts()).isZero();
    }

    @Test
    void clickingOneGapPlansExactlyThatKey(FxRobot robot) throws Exception {
        Heatmap heat = gapJob(robot);
        // come in from straight above: a tooltip of a cell passed on the way opens down and to the right
        // of the pointer, and a pointer still moving down-right would click the tooltip, not the cell
        robot.moveTo(screen(heat, "2026-11-21").subtract(0, 160)).moveTo(screen(heat, "2026-11-21"));
        robot.clickOn(MouseButton.PRIMARY);
        assertThat(plannedKeys(robot)).containsExactly("2026-11-21");
        assertThat(heat.selectedKeys()).containsExactly("2026-11-21");
    }

    @Test
    void planAllMissingPlansExactlyTheMissingKeys(FxRobot robot) throws Exception {
        gapJob(robot);
        assertThat(robot.lookup("#missing-count").queryLabeled().getText()).isEqualTo("7 days missing");
        robot.clickOn("#plan-missing");
        assertThat(plannedKeys(robot)).containsExactly("2026-11-20", "2026-11-21", "2026-11-25", "2026-11-26",
                "2026-11-27", "2026-11-28", KEY);
    }

    private static Point2D screen(Heatmap heat, String key) {
        Point2D local = heat.centreOf(key);
        Node canvas = heat.getChildrenUnmodifiable().get(0);
        return canvas.localToScreen(local);
    }

    @SuppressWarnings("unchecked")
    private List<String> plannedKeys(FxRobot robot) throws Exception {
        try {
            waitUntil(() -> dialogs().stream().anyMatch(w -> w.getScene().lookup("#plan-table") != null
                    && !((TableView<?>) w.getScene().lookup("#plan-table")).getItems().isEmpty()));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no plan with rows opened; windows: " + dialogs().stream()
                    .map(w -> w.getScene().getRoot().getClass().getSimpleName() + " "
                            + (w instanceof Stage st ? st.getTitle() : "")
                            + robot.from(w.getScene().getRoot()).lookup(".label").queryAll().stream()
                            .filter(Node::isVisible).map(l -> ((javafx.scene.control.Labeled) l).getText())
                            .filter(t -> t != null && !t.isBlank()).toList())
                    .toList());
        }
        TableView<PlanViewModel.Row> table = (TableView<PlanViewModel.Row>) dialogs().stream()
                .map(w -> w.getScene().lookup("#plan-table")).filter(java.util.Objects::nonNull).findFirst()
                .orElseThrow();
        return table.getItems().stream().map(r -> r.plan().key()).toList();
    }
}
