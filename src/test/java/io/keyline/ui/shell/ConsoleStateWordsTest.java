package io.keyline.ui.shell;

import io.keyline.acceptance.Jobs;
import io.keyline.domain.EventType;
import io.keyline.domain.FailureClass;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.WaitReason;
import io.keyline.text.Text;
import io.keyline.ui.MainWindowTest;
import io.keyline.ui.common.Cut;
import io.keyline.ui.common.Format;
import io.keyline.ui.job.JobViewModel;
import javafx.scene.Node;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.TableCell;
import javafx.scene.shape.Rectangle;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.keyline.testing.Fx.fxValue;
import static io.keyline.testing.Fx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console names a key's state in one set of words: the chips of the key table and of the Attention cards, the
 * heatmap's legend and the key table's filter say the same word for the same state, and each says the state in full
 * for a screen reader. Nothing of them is cut at 1024 px, in English and in Chinese.
 */
class ConsoleStateWordsTest extends MainWindowTest {

    /** Keys of job daily in the states that wait for a person, a retry and done. */
    private static final Map<String, KeyState> KEYS = new LinkedHashMap<>();

    static {
        KEYS.put("2026-11-22", KeyState.DONE);
        KEYS.put("2026-11-23", KeyState.FAILED);
        KEYS.put("2026-11-24", KeyState.NEEDS_CONFIRMATION);
        KEYS.put("2026-11-25", KeyState.NEEDS_CONFIRMATION); // for the job's review
        KEYS.put("2026-11-26", KeyState.NEEDS_CREDENTIAL);
        KEYS.put("2026-11-27", KeyState.RETRY_WAIT);
        KEYS.put("2026-11-28", KeyState.SKIPPED);
    }

    @Test
    void chipsLegendFilterAndAttentionSayAStateInTheSameWords(FxRobot robot) throws Exception {
        Map<String, List<String>> problems = new LinkedHashMap<>();
        for (Locale language : List.of(Text.ENGLISH, Text.CHINESE)) {
            Text.use(language);
            fixture("words");
            fx.wb.job("daily", Jobs.publish("daily", "unsafe", false, "\"credential\": \"site-cookie\","),
                    fx.site.base());
            Instant now = fx.wb.clock.instant();
            KEYS.forEach((key, state) -> seed(key, state, now));
            show(robot, 1024, 680);
            List<String> out = new ArrayList<>();

            // Attention's cards
            waitUntil(() -> cards(robot).size() >= 3);
            WaitForAsyncUtils.waitForFxEvents();
            List<Label> cards = cards(robot);
            robot.interact(() -> console.showJob("daily"));
            waitUntil(() -> fxValue(robot, () -> robot.lookup("#key-table").tryQuery().map(Node::isVisible)
                    .orElse(false)) && fxValue(robot, () -> robot.lookup("#key-table")
                    .queryAs(javafx.scene.control.TableView.class).getItems().size()) == KEYS.size());
            Thread.sleep(300);
            WaitForAsyncUtils.waitForFxEvents();
            Map<String, String> legend = fxValue(robot, () -> {
                Map<String, String> m = new LinkedHashMap<>();
                robot.lookup("#heatmap-legend").query().lookupAll(".label").stream()
                        .filter(n -> n instanceof Label l && l.getGraphic() instanceof Rectangle)
                        .map(n -> (Label) n).forEach(l -> {
                            m.put(l.getText(), l.getAccessibleText());
                            if (Cut.isCut(l)) {
                                out.add("the legend's " + l.getText() + " is cut");
                            }
                        });
                return m;
            });
            @SuppressWarnings("unchecked")
            ComboBox<JobViewModel.Filter> filter = robot.lookup("#state-filter").queryAs(ComboBox.class);
            List<String> filters = fxValue(robot, () -> filter.getItems().stream().map(JobViewModel.Filter::label)
                    .toList());

            // the chips as they are drawn (a table's cells are reused as it scrolls: each is read where it is)
            Map<String, Chip> chips = new LinkedHashMap<>();
            for (int i = 0; i < KEYS.size(); i++) {
                int at = i;
                robot.interact(() -> robot.lookup("#key-table").queryAs(javafx.scene.control.TableView.class)
                        .scrollTo(at));
                WaitForAsyncUtils.waitForFxEvents();
                tableChips(robot).forEach(c -> read(robot, c, chips));
            }
            cards.forEach(c -> read(robot, c, chips));
            assertThat(chips.keySet()).as("the chips' words in %s", language).hasSizeGreaterThanOrEqualTo(6);
            for (Chip chip : chips.values()) {
                String word = chip.word();
                if (!legend.containsKey(word)) {
                    out.add("the chip " + word + " is not in the legend " + legend.keySet());
                } else if (legend.get(word) != null && chip.full() != null && !legend.get(word).equals(chip.full())) {
                    out.add("the chip " + word + " reads " + chip.full() + ", its legend entry " + legend.get(word));
                }
                // keys that never ran have no row to filter
                if (!filters.contains(word) && !word.equals(Format.chipMissing())) {
                    out.add("the chip " + word + " is not in the filter " + filters);
                }
                if (chip.full() == null || chip.full().isBlank()) {
                    out.add("the chip " + word + " says nothing in full");
                }
                if (chip.cut()) {
                    out.add("the chip " + word + " is cut");
                }
            }
            // every state is said in full in the legend (for a screen reader, and in its tooltip)
            for (KeyState s : List.of(KeyState.NEEDS_CONFIRMATION, KeyState.NEEDS_CREDENTIAL, KeyState.RETRY_WAIT)) {
                if (!legend.containsValue(Format.state(s)) && !legend.containsKey(Format.state(s))) {
                    out.add("the legend does not say " + Format.state(s));
                }
            }
            // the filter as it shows each choice, at 1024 px
            for (int i = 0; i < filters.size(); i++) {
                int at = i;
                robot.interact(() -> filter.getSelectionModel().select(at));
                WaitForAsyncUtils.waitForFxEvents();
                String cut = fxValue(robot, () -> {
                    filter.layout();
                    Node cell = filter.lookup(".list-cell");
                    return cell instanceof ListCell<?> c && Cut.isCut(c) ? c.getText() : null;
                });
                if (cut != null) {
                    out.add("the filter's " + cut + " is cut");
                }
            }
            if (!out.isEmpty()) {
                problems.put(language.toString(), out);
            }
            Text.use(Text.ENGLISH);
            closeFixture();
        }
        assertThat(problems).as("where the console's words for a state disagree or are cut at 1024x680").isEmpty();
    }

    private void seed(String key, KeyState state, Instant now) {
        if (state == KeyState.DONE) {
            assertThat(fx.wb.cliWithInput("Cookie: session=v1", "credentials", "set", "site-cookie").exit()).isZero();
            assertThat(fx.wb.cli("run", "--yes", "daily", "--key", key).exit()).isZero();
            return;
        }
        KeyRecord fresh = fx.ws.store().ensure(KeyRecord.fresh("daily", key, now));
        KeyRecord to = fresh.withState(state).withStep("publish", 1).withFailure(FailureClass.AMBIGUOUS, "lost");
        if (state == KeyState.NEEDS_CONFIRMATION) {
            to = to.withWaitReason(key.equals("2026-11-25") ? WaitReason.REVIEW : WaitReason.OUTCOME_UNKNOWN);
        }
        if (state == KeyState.NEEDS_CREDENTIAL) {
            to = to.withCredential("site-cookie");
        }
        if (state == KeyState.RETRY_WAIT) {
            to = to.withNextAttemptAt(now.plusSeconds(3600));
        }
        fx.ws.store().apply(fresh, to, null, new KeyEvent(0, "daily", key, now, "seed", EventType.CLAIMED, null, 0,
                state, null, "seeded", null, null, null));
    }

    /** A chip as it was drawn: its word, what it says in full, whether its word is cut. */
    private record Chip(String word, String full, boolean cut) {
    }

    private static void read(FxRobot robot, Label chip, Map<String, Chip> into) {
        Chip c = fxValue(robot, () -> new Chip(chip.getText(), chip.getAccessibleText(), Cut.isCut(chip)));
        into.putIfAbsent(c.word(), c);
    }

    /** The state chips of the Attention cards on screen. */
    private static List<Label> cards(FxRobot robot) {
        return fxValue(robot, () -> robot.lookup("#inbox-list .list-cell").queryAll().stream()
                .map(n -> (ListCell<?>) n).filter(c -> c.getItem() != null && c.isVisible())
                .map(c -> (Label) c.lookup(".state-chip")).filter(l -> l != null && l.isVisible()).toList());
    }

    /** The state chips of the key table's rows. */
    private static List<Label> tableChips(FxRobot robot) {
        return fxValue(robot, () -> robot.lookup("#key-table .table-cell").queryAll().stream()
                .map(n -> (TableCell<?, ?>) n)
                .filter(c -> c.isVisible() && c.getTableRow() != null && c.getTableRow().getItem() != null
                        && c.getGraphic() != null && c.getGraphic().getStyleClass().contains("state-chip"))
                .map(c -> (Label) c.getGraphic()).toList());
    }
}
