package io.keyline.app;

import io.keyline.core.CredentialAlerts;
import io.keyline.core.RunTrace;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Threads;
import io.keyline.ui.shell.ConsoleView;
import io.keyline.ui.shell.ConsoleViewModel;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

import java.util.Map;
import java.util.concurrent.CountDownLatch;

/** Opens the operator console on a workspace and returns when its window is closed. */
public final class ConsoleApp {

    private ConsoleApp() {
    }

    /** The console's services over a workspace: the same state, jobs and credentials the CLI uses. */
    public static ConsoleServices services(Workspace ws, RunTrace trace, Map<String, String> env) {
        return new ConsoleServices(() -> io.keyline.core.jobfile.JobFileLoader.loadFolder(ws.jobsDir()), ws.store(),
                ws.planner(), ws.actions(), ws.engine(trace), ws.credentials(), ws.options().clock(),
                ws.options().user(), ws.stateDir(), ws.jobsDir(), CredentialAlerts.warnWindow(env));
    }

    /** The main window's scene, ready to show. */
    public static Scene scene(ConsoleServices services, Threads threads) {
        ConsoleView view = new ConsoleView(new ConsoleViewModel(services, threads));
        return new Scene(view, 1320, 820);
    }

    /**
     * Shows the console and blocks until it is closed.
     *
     * @return the exit code: 0, or 1 when no display is available
     */
    public static int run(Workspace ws, Map<String, String> env) throws InterruptedException {
        String display = env.get("DISPLAY");
        String wayland = env.get("WAYLAND_DISPLAY");
        if ((display == null || display.isBlank()) && (wayland == null || wayland.isBlank())
                && !"Monocle".equals(System.getProperty("glass.platform"))) {
            System.err.println("keyline: cannot open the console: no display (DISPLAY is not set). "
                    + "The commands work without one: keyline --help");
            return 1;
        }
        ws.store();
        RunTrace trace = RunTrace.open(ws.stateDir(), null);
        ConsoleServices services = services(ws, trace, env);
        CountDownLatch closed = new CountDownLatch(1);
        Platform.setImplicitExit(true);
        try {
            Platform.startup(() -> {
                Stage stage = new Stage();
                stage.setTitle("Keyline — " + ws.stateDir());
                stage.setScene(scene(services, Threads.javafx()));
                stage.setOnHidden(e -> closed.countDown());
                stage.show();
            });
        } catch (UnsupportedOperationException | IllegalStateException e) {
            System.err.println("keyline: cannot open the console: " + e.getMessage());
            return 1;
        }
        closed.await();
        trace.close();
        Platform.exit();
        return 0;
    }
}
