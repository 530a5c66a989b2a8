package io.keyline.ui.job;

import atlantafx.base.theme.PrimerLight;
import io.keyline.domain.EventType;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.ui.ConsoleFixture;
import io.keyline.ui.Navigator;
import io.keyline.ui.NoNavigation;
import io.keyline.ui.common.Threads;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.TableView;
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
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The key table keeps the Attention page's keys: J/K move, T and Enter open the highlighted key's timeline (as a
 * double-click does), and a key typed while the search field has the focus stays in the search field.
 */
@ExtendWith(ApplicationExtension.class)
class JobViewKeysTest {

    @TempDir
    Path tmp;
    Stage stage;
    ConsoleFixture fx;
    final List<String> opened = new CopyOnWriteArrayList<>();

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
    void tAndEnterOpenTheHighlightedKeysTimeline(FxRobot robot) throws Exception {
        fx = new ConsoleFixture(tmp);
        fx.publishJob("daily", null);
        Instant now = fx.wb.clock.instant();
        for (String key : List.of("2026-11-01", "2026-11-02", "2026-11-03")) {
            KeyRecord fresh = fx.ws.store().ensure(KeyRecord.fresh("daily", key, now));
            fx.ws.store().apply(fresh, fresh.withState(KeyState.FAILED).withStep("publish", 1), null,
                    new KeyEvent(0, "daily", key, now, "seed", EventType.CLAIMED, null, 0, KeyState.FAILED, null,
                            "seeded", null, null, null));
        }
        JobViewModel vm = new JobViewModel(fx.services, Threads.javafx());
        Navigator nothing = new NoNavigation();
        Navigator nav = new Navigator() {
            @Override
            public void showTimeline(String job, String key) {
                opened.add(job + " " + key);
            }

            @Override
            public void showInbox() {
                nothing.showInbox();
            }

            @Override
            public void showJob(String job) {
                nothing.showJob(job);
            }

            @Override
            public void confirm(String job, String key) {
                nothing.confirm(job, key);
            }

            @Override
            public void renewCredential(String name) {
                nothing.renewCredential(name);
            }

            @Override
            public void plan(String job) {
                nothing.plan(job);
            }

            @Override
            public void plan(String job, List<String> keys) {
                nothing.plan(job, keys);
            }

            @Override
            public void refresh() {
                nothing.refresh();
            }
        };
        JobView[] view = new JobView[1];
        robot.interact(() -> {
            view[0] = new JobView(vm, nav);
            stage.setScene(new Scene(view[0], 1024, 680));
            stage.show();
            vm.load("daily");
        });
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> vm.rows().size() == 3);
        WaitForAsyncUtils.waitForFxEvents();
        @SuppressWarnings("unchecked")
        TableView<JobViewModel.KeyRow> table = robot.lookup("#key-table").queryAs(TableView.class);
        robot.interact(() -> {
            table.requestFocus();
            table.getSelectionModel().clearAndSelect(0);
        });
        robot.push(KeyCode.J);
        WaitForAsyncUtils.waitForFxEvents();
        String second = table.getSelectionModel().getSelectedItem().key();
        assertThat(second).as("J moved down").isEqualTo(table.getItems().get(1).key());

        robot.push(KeyCode.T);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(opened).as("T on the highlighted key").containsExactly("daily " + second);

        robot.push(KeyCode.K);
        robot.push(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        String first = table.getItems().get(0).key();
        assertThat(opened).as("Enter on the highlighted key").containsExactly("daily " + second, "daily " + first);

        // in the search field, T is a letter of the search
        robot.interact(() -> robot.lookup("#key-search").query().requestFocus());
        robot.push(KeyCode.T);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(opened).hasSize(2);
    }
}
