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
        return services(ws, trace, env, new DemoSandbox(Demo.DEFAULT_PORT));
    }

    /**
     * The console's services; a demo workspace created from the console keeps its sandbox site in
     * {@code sandbox} (the caller stops it).
     */
    public static ConsoleServices services(Workspace ws, RunTrace trace, Map<String, String> env, DemoSandbox sandbox) {
        return new ConsoleServices(() -> io.keyline.core.jobfile.JobFileLoader.loadFolder(ws.jobsDir()), ws.store(),
                ws.planner(), ws.actions(), ws.engine(trace), ws.credentials(), ws.options().clock(),
                ws.options().user(), ws.stateDir(), ws.jobsDir(), CredentialAlerts.warnWindow(env),
                () -> createDemo(ws, trace, sandbox));
    }

    private static String createDemo(Workspace ws, RunTrace trace, DemoSandbox sandbox) {
        Demo.Result r = Demo.create(ws, sandbox.demoPort(), false, trace, null);
        sandbox.adopt(r.site());
        int waiting = r.counts().values().stream().flatMap(m -> m.entrySet().stream())
                .filter(e -> e.getKey().needsAttention()).mapToInt(Map.Entry::getValue).sum();
        return "Demo workspace created in " + ws.jobsDir() + " from real runs against the sandbox site "
                + r.site().base() + "/ (it runs while the console is open): " + waiting + " keys wait for you below. "
                + "Retry the failed one, confirm the waiting one, renew the cookie (log in on the sandbox site and "
                + "paste its cookies.txt line), then look at daily-article's heatmap.";
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
        DemoSandbox sandbox = new DemoSandbox(Demo.DEFAULT_PORT);
        sandbox.startIfDemo(ws.jobsDir(), ws.options().clock(), System.err);
        ConsoleServices services = services(ws, trace, env, sandbox);
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
            sandbox.close();
            return 1;
        }
        closed.await();
        sandbox.close();
        trace.close();
        Platform.exit();
        return 0;
    }
}
