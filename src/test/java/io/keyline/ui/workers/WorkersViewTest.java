package io.keyline.ui.workers;

import io.keyline.app.ConsoleApp;
import io.keyline.workspace.Workspace;
import io.keyline.core.LeaseKeeper;
import io.keyline.core.RunTrace;
import io.keyline.core.StateStore;
import io.keyline.core.WorkerRegistry;
import io.keyline.domain.EventType;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.store.StateLocation;
import io.keyline.testing.Workbench;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Threads;
import io.keyline.ui.shell.ConsoleView;
import javafx.scene.Scene;
import javafx.scene.control.TableView;
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
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Workers page: on a PostgreSQL state the console lists the workers of every machine, with
 * host, since, last heartbeat and the keys each runs; the view model alone on the embedded state.
 */
@ExtendWith(ApplicationExtension.class)
class WorkersViewTest {

    @TempDir
    Path tmp;
    Stage stage;
    Workspace ws;
    LeaseKeeper keeper;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @AfterEach
    void close() {
        if (keeper != null) {
            keeper.close();
        }
        if (ws != null) {
            ws.close();
        }
    }

    /** A worker of this JVM holding one running key, and one of another machine, registered on the state. */
    private void twoWorkers(Workbench wb) {
        keeper = new LeaseKeeper(ws.store(), ws.options(), "worker");
        keeper.start();
        StateStore store = ws.store();
        KeyRecord fresh = KeyRecord.fresh("daily", "2026-11-29", Instant.now());
        store.applyChain(List.of(new StateStore.Change(null, fresh.withState(KeyState.RUNNING).withLease("run-1",
                keeper.owner(), Instant.now().plusSeconds(120)), null, new KeyEvent(0, "daily", "2026-11-29",
                Instant.now(), "run-1", EventType.CLAIMED, null, 0, KeyState.RUNNING, null, "started", null, null, null))));
        store.workers().register(new WorkerRegistry.Registration("build-2/77/beef", "build-2", 77, "worker", "0.1.0"));
    }

    @Test
    void theConsoleListsTheWorkersOfEveryMachine(FxRobot robot) throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.usePostgres();
        ws = new Workspace(StateLocation.parse(wb.stateArg, wb.env()), wb.jobs, wb.options(), wb.env());
        twoWorkers(wb);
        ConsoleServices services = ConsoleApp.services(ws, RunTrace.NONE, wb.env());
        robot.interact(() -> {
            Scene scene = ConsoleApp.scene(services, Threads.javafx());
            ((ConsoleView) scene.getRoot()).notifications(false);
            stage.setScene(scene);
            stage.show();
        });
        WaitForAsyncUtils.waitForFxEvents();
        robot.clickOn("#nav-workers");
        @SuppressWarnings("unchecked")
        TableView<WorkersViewModel.Row> table = robot.lookup("#workers-table").queryAs(TableView.class);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> table.getItems().size() >= 2);
        List<WorkersViewModel.Row> rows = List.copyOf(table.getItems());
        assertThat(rows).anySatisfy(r -> {
            assertThat(r.id()).isEqualTo(keeper.owner());
            assertThat(r.status()).isEqualTo("alive");
            assertThat(r.keys()).isEqualTo("daily 2026-11-29");
            assertThat(r.what()).startsWith("worker · pid " + ProcessHandle.current().pid());
            assertThat(r.heartbeat()).endsWith("s ago");
        });
        assertThat(rows).anySatisfy(r -> {
            assertThat(r.host()).isEqualTo("build-2");
            assertThat(r.status()).isEqualTo("alive"); // its lock is held by this JVM's registry, it just beat
            assertThat(r.keys()).isEmpty();
        });
        assertThat(robot.lookup("#workers-summary").queryLabeled().getText()).contains("running 1 key");
        // the running key shows in the sidebar too, with the process that runs it
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS,
                () -> robot.lookup("#running-keys .label").tryQuery().isPresent());
        assertThat(robot.lookup("#running-keys .label").queryLabeled().getText()).contains("daily 2026-11-29");
    }

    @Test
    void onTheEmbeddedStateTheViewModelListsThisMachinesProcesses() {
        Workbench wb;
        try {
            wb = new Workbench(tmp);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env());
        twoWorkers(wb);
        ConsoleServices services = ConsoleApp.services(ws, RunTrace.NONE, wb.env());
        WorkersViewModel vm = new WorkersViewModel(services, Threads.direct());
        vm.refresh();
        assertThat(vm.rows()).anySatisfy(r -> {
            assertThat(r.id()).isEqualTo(keeper.owner());
            assertThat(r.status()).isEqualTo("alive");
            assertThat(r.keys()).isEqualTo("daily 2026-11-29");
        });
        // build-2's pid 77 is not checked here (another host): it counts as alive while it beats
        assertThat(vm.summaryProperty().get()).contains("running 1 key");
        keeper.close();
        vm.refresh();
        assertThat(vm.rows()).filteredOn(r -> r.id().equals(keeper.owner())).singleElement()
                .satisfies(r -> assertThat(r.status()).startsWith("stopped"));
    }

    /**
     * The build each process runs is said once, in the summary, while they all run the same; where they differ (a
     * machine not yet upgraded) each row says its own. (Each row said it, and at 1024 px a development build's
     * "0.1.0-SNAPSHOT" pushed the last column's title off the page.)
     */
    @Test
    void theBuildIsSaidOnceWhileEveryProcessRunsTheSameAndPerRowWhereTheyDiffer() throws Exception {
        Workbench wb = new Workbench(tmp);
        ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env());
        keeper = new LeaseKeeper(ws.store(), ws.options(), "worker");
        keeper.start();
        String build = io.keyline.domain.Build.version();
        ws.store().workers().register(new WorkerRegistry.Registration("build-2/77/beef", "build-2", 77, "worker", build));
        WorkersViewModel vm = new WorkersViewModel(ConsoleApp.services(ws, RunTrace.NONE, wb.env()), Threads.direct());
        vm.refresh();
        assertThat(vm.rows()).hasSize(2).allSatisfy(r -> assertThat(r.what()).doesNotContain(build));
        assertThat(vm.summaryProperty().get()).endsWith(" · all on Keyline " + build);

        ws.store().workers().register(new WorkerRegistry.Registration("build-3/78/cafe", "build-3", 78, "worker", "0.0.9"));
        vm.refresh();
        assertThat(vm.rows()).hasSize(3).anySatisfy(r -> assertThat(r.what()).isEqualTo("worker · pid 78 · 0.0.9"))
                .filteredOn(r -> !r.host().equals("build-3")).allSatisfy(r -> assertThat(r.what()).endsWith(" · " + build));
        assertThat(vm.summaryProperty().get()).doesNotContain("Keyline");
    }
}
