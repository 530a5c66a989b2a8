package io.keyline.ui.job;

import io.keyline.domain.KeyState;
import io.keyline.domain.KeyStateMachine;
import io.keyline.domain.Trigger;
import io.keyline.testing.Fx;
import javafx.scene.control.ContextMenu;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The key table's menu offers exactly the operator moves the transition table allows from each state:
 * every move offered is legal, and every legal move on one key is offered.
 */
@ExtendWith(ApplicationExtension.class)
class JobViewMovesTest {

    /** The menu item of each operator move on one key (a login is renewed for every key that waits for it). */
    static final Map<Trigger, String> ITEMS = Map.of(Trigger.CONFIRM, "Confirm…", Trigger.RETRY, "Retry",
            Trigger.REARM, "Rearm…", Trigger.SKIP, "Skip…", Trigger.MARK_DONE, "Mark done…");

    @TempDir
    Path tmp;
    final JobPage page = new JobPage();

    @Start
    void start(Stage s) {
        page.start(s);
    }

    @AfterEach
    void tearDown(FxRobot robot) throws Exception {
        page.close(robot);
    }

    @Test
    void theMenuOfEachKeyOffersTheMovesItsStateAllows(FxRobot robot) throws Exception {
        page.openPublishing(tmp);
        int day = 1;
        for (KeyState s : KeyState.values()) {
            page.seed("2026-11-" + String.format("%02d", day++), s, r -> r.withStep("publish", 1));
        }
        page.size(1100, 1000).show(robot, KeyState.values().length);

        Map<KeyState, Set<String>> offered = new EnumMap<>(KeyState.class);
        for (KeyState s : KeyState.values()) {
            // the menu a right click on the key's row opens, as its popup shows it
            ContextMenu menu = Fx.rightClick(robot, JobPage.row(robot, k -> k.state() == s));
            Set<String> visible = new TreeSet<>(Fx.shownItems(robot, menu));
            visible.retainAll(ITEMS.values());
            robot.interact(menu::hide);
            offered.put(s, visible);
        }
        assertThat(offered.keySet()).isEqualTo(EnumSet.allOf(KeyState.class));
        for (KeyState s : KeyState.values()) {
            Set<String> legal = new TreeSet<>();
            ITEMS.forEach((t, label) -> {
                if (KeyStateMachine.allows(s, t)) {
                    legal.add(label);
                }
            });
            assertThat(offered.get(s)).as("the menu of a %s key", s).isEqualTo(legal);
        }
    }
}
