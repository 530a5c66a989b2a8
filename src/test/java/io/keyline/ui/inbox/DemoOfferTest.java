package io.keyline.ui.inbox;

import io.keyline.app.ConsoleApp;
import io.keyline.workspace.Demo;
import io.keyline.workspace.DemoSandbox;
import io.keyline.workspace.Workspace;
import io.keyline.core.RunTrace;
import io.keyline.domain.KeyState;
import io.keyline.testing.Workbench;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Threads;
import io.keyline.ui.shell.ConsoleView;
import io.keyline.ui.shell.ConsoleViewModel;
import io.keyline.core.operations.Attention;
import io.keyline.ui.shell.Snapshot;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
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
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The empty console offers the demo workspace; one click creates it off the FX thread and fills the inbox. */
@ExtendWith(ApplicationExtension.class)
class DemoOfferTest {

    @TempDir
    Path tmp;
    Stage stage;
    Workspace ws;
    DemoSandbox sandbox;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @AfterEach
    void tearDown() {
        if (sandbox != null) {
            sandbox.close();
        }
        if (ws != null) {
            ws.close();
        }
    }

    private ConsoleServices services(Workbench wb) {
        ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env());
        sandbox = new DemoSandbox(0);
        return ConsoleApp.services(ws, RunTrace.NONE, wb.env(), sandbox);
    }

    @Test
    void theDemoIsOfferedOnlyOnAnEmptyState() throws Exception {
        Workbench wb = new Workbench(tmp);
        ConsoleServices s = services(wb);
        ConsoleViewModel vm = new ConsoleViewModel(s, Threads.direct());
        vm.refresh();
        assertThat(vm.demoOfferedProperty().get()).isTrue();

        wb.job("daily-report", """
            { "name": "daily-report", "key": { "type": "date", "zone": "UTC" },
              "steps": [ { "id": "a", "kind": "command", "effect": "none", "command": ["true"] } ] }
            """, null);
        vm.refresh();
        // the demo is offered only where there is nothing of the operator's own, not beside real jobs
        assertThat(vm.demoOfferedProperty().get()).as("a job file exists (no keys yet)").isFalse();
        assertThat(wb.cli("run", "daily-report").exit()).isZero();
        vm.refresh();
        assertThat(vm.demoOfferedProperty().get()).as("the state has a key").isFalse();

        ConsoleServices without = s.withoutDemo();
        ConsoleViewModel plain = new ConsoleViewModel(without, Threads.direct());
        plain.refresh();
        assertThat(plain.demoOfferedProperty().get()).as("no demo wired").isFalse();
    }

    @Test
    void creatingTheDemoFromTheEmptyInboxFillsIt(FxRobot robot) throws Exception {
        Workbench wb = new Workbench(tmp);
        ConsoleServices s = services(wb);
        robot.interact(() -> {
            Scene scene = ConsoleApp.scene(s, Threads.javafx());
            ((ConsoleView) scene.getRoot()).notifications(false);
            stage.setScene(scene);
            stage.show();
        });
        Button create = robot.lookup("#create-demo").queryAs(Button.class);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> create.getParent().isVisible());
        robot.clickOn("#create-demo");
        assertThat(create.isDisabled())
                .as("the button waits while the demo runs in the background").isTrue();

        Label message = robot.lookup("#demo-message").queryAs(Label.class);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> message.getText().startsWith("Demo workspace created"));
        ListView<Attention.Item> inbox = robot.lookup("#inbox-list").queryListView();
        // grouped by cause: the failed key, the one to confirm, one item for the rejected login's 3 keys
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> inbox.getItems().stream()
                .mapToInt(Attention.Item::waitingKeys).sum() == 5);
        assertThat(inbox.getItems()).filteredOn(i -> i.waitingKeys() > 0).extracting(Attention.Item::kind)
                .containsExactlyInAnyOrder(Attention.Kind.FAILED, Attention.Kind.CONFIRMATION,
                        Attention.Kind.CREDENTIAL);
        assertThat(inbox.getItems()).filteredOn(i -> i.kind() == Attention.Kind.CREDENTIAL).singleElement()
                .satisfies(i -> assertThat(i.keys()).hasSize(3));
        ListView<Snapshot.JobSummary> jobs = robot.lookup("#job-list").queryListView();
        assertThat(jobs.getItems()).extracting(Snapshot.JobSummary::name)
                .containsExactlyInAnyOrder(Demo.ARTICLE_JOB, Demo.DIGEST_JOB);
        assertThat(message.getText()).contains(sandbox.site().base(), "5 keys wait for you");
        assertThat(create.getParent().isVisible()).as("the offer is gone once the state has keys").isFalse();
        assertThat(sandbox.site().effects(inbox.getItems().get(0).key())).isZero();
    }
}
