package io.keyline.ui.job;

import atlantafx.base.theme.PrimerLight;
import io.keyline.domain.EventType;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.KeyStateMachine;
import io.keyline.domain.Trigger;
import io.keyline.testing.Fx;
import io.keyline.ui.ConsoleFixture;
import io.keyline.ui.Navigator;
import io.keyline.ui.NoNavigation;
import io.keyline.ui.common.Threads;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.TableRow;
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
import java.time.Instant;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

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
    Stage stage;
    ConsoleFixture fx;

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
    void theMenuOfEachKeyOffersTheMovesItsStateAllows(FxRobot robot) throws Exception {
        fx = new ConsoleFixture(tmp);
        fx.publishJob("daily", null);
        Instant now = fx.wb.clock.instant();
        int day = 1;
        for (KeyState s : KeyState.values()) {
            String key = "2026-11-" + String.format("%02d", day++);
            KeyRecord fresh = fx.ws.store().ensure(KeyRecord.fresh("daily", key, now));
            fx.ws.store().apply(fresh, fresh.withState(s).withStep("publish", 1), null, new KeyEvent(0, "daily", key,
                    now, "seed", EventType.CLAIMED, null, 0, s, null, "seeded", null, null, null));
        }
        JobViewModel vm = new JobViewModel(fx.services, Threads.javafx());
        robot.interact(() -> {
            stage.setScene(new Scene(new JobView(vm, navigator()), 1100, 1000));
            stage.show();
            vm.load("daily");
        });
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> vm.rows().size() == KeyState.values().length);
        WaitForAsyncUtils.waitForFxEvents();

        Map<KeyState, Set<String>> offered = new EnumMap<>(KeyState.class);
        for (KeyState s : KeyState.values()) {
            // the menu a right click on the key's row opens, as its popup shows it
            ContextMenu menu = Fx.rightClick(robot, () -> robot.lookup(".table-row-cell").queryAll().stream()
                    .filter(n -> n.isVisible() && ((TableRow<?>) n).getItem() instanceof JobViewModel.KeyRow k
                            && k.state() == s).findFirst().orElseThrow());
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

    static Navigator navigator() {
        return new NoNavigation();
    }
}
