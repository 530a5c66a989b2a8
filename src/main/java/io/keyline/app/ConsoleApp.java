package io.keyline.app;

import io.keyline.workspace.Workspace;
import io.keyline.workspace.Demo;
import io.keyline.workspace.DemoSandbox;
import io.keyline.core.CredentialAlerts;
import io.keyline.core.Engine;
import io.keyline.core.RunTrace;
import io.keyline.core.Scheduler;
import io.keyline.core.SchedulerControl;
import io.keyline.core.Targets;
import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Threads;
import io.keyline.ui.shell.ConsoleView;
import io.keyline.ui.shell.ConsoleViewModel;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import static io.keyline.text.Text.t;

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
        return services(ws, ws.engine(trace), trace, env, sandbox, SchedulerControl.NONE);
    }

    /** The console's services with a scheduler that runs keys through the same engine (no demo). */
    public static ConsoleServices services(Workspace ws, Engine engine, Map<String, String> env,
                                           SchedulerControl scheduler) {
        return services(ws, engine, RunTrace.NONE, env, null, scheduler);
    }

    /** Everything: the engine, the demo's sandbox ({@code null}: no demo to offer) and the scheduler. */
    public static ConsoleServices services(Workspace ws, Engine engine, RunTrace trace, Map<String, String> env,
                                           DemoSandbox sandbox, SchedulerControl scheduler) {
        return new ConsoleServices(() -> JobFileLoader.loadFolder(ws.jobsDir()), ws.operations(), engine,
                ws.credentialService(), ws.options().clock(), ws.options().user(), ws.stateDir(), ws.jobsDir(),
                CredentialAlerts.warnWindow(env), sandbox == null ? null : () -> createDemo(ws, trace, sandbox),
                scheduler);
    }

    private static String createDemo(Workspace ws, RunTrace trace, DemoSandbox sandbox) {
        Demo.Result r = Demo.create(ws, sandbox.demoPort(), false, trace, null);
        sandbox.adopt(r.site());
        int waiting = r.counts().values().stream().flatMap(m -> m.entrySet().stream())
                .filter(e -> e.getKey().needsAttention()).mapToInt(Map.Entry::getValue).sum();
        return io.keyline.text.Text.t("ui.console.demoCreated", ws.jobsDir().toString(), r.site().base() + "/",
                waiting);
    }

    /**
     * While the console is open, notifications are delivered every 30 s in the background, for
     * keys any process put in an attention state; failures go to the run log and stderr.
     */
    static java.util.concurrent.ScheduledExecutorService startNotifications(Workspace ws, RunTrace trace) {
        java.util.concurrent.ScheduledExecutorService ex = java.util.concurrent.Executors
                .newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "keyline-notifications");
                    t.setDaemon(true);
                    return t;
                });
        java.util.concurrent.atomic.AtomicReference<io.keyline.core.notify.Notifier> notifier =
                new java.util.concurrent.atomic.AtomicReference<>();
        ex.scheduleWithFixedDelay(() -> {
            try {
                if (notifier.get() == null) {
                    notifier.set(ws.notifier(trace, m -> System.err.println(t("cli.worker.problem", m))));
                }
                notifier.get().dispatch(Duration.ofSeconds(20));
            } catch (RuntimeException e) {
                // the state is not open (yet): the console says so; the next round tries again
            }
        }, 30, 30, java.util.concurrent.TimeUnit.SECONDS);
        return ex;
    }

    /**
     * Starts JavaFX's toolkit on a thread of its own and returns at once: the future completes on the JavaFX
     * thread once it runs, or with the reason it cannot start (no display, no toolkit).
     */
    private static java.util.concurrent.CompletableFuture<Void> startJavaFx() {
        java.util.concurrent.CompletableFuture<Void> started = new java.util.concurrent.CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                Platform.setImplicitExit(true);
                Platform.startup(() -> {
                    io.keyline.core.StartupTrace.mark("console: JavaFX started");
                    started.complete(null);
                });
            } catch (RuntimeException e) {
                started.completeExceptionally(e);
            }
        }, "keyline-start-javafx");
        t.setDaemon(true);
        t.start();
        return started;
    }

    /** The main window's scene, ready to show. */
    public static Scene scene(ConsoleServices services, Threads threads) {
        ConsoleView view = new ConsoleView(new ConsoleViewModel(services, threads));
        // the preferred size, or the screen when it is smaller (1024×680: the window opened off its edges)
        javafx.geometry.Rectangle2D screen = io.keyline.ui.common.Theme.screenOf(null);
        return new Scene(view, Math.min(1320, screen.getWidth()), Math.min(820, screen.getHeight() - 32));
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
            System.err.println(t("cli.console.noDisplay", "DISPLAY", "keyline --help"));
            return 1;
        }
        Duration window;
        try {
            window = Targets.catchUpWindow(env.get("KEYLINE_CATCH_UP"));
        } catch (IllegalArgumentException e) {
            System.err.println(t("cli.console.badCatchUp", "KEYLINE_CATCH_UP", e.getMessage()));
            return 64;
        }
        // The state opens in the background while the window comes up (fast start); everything
        // that reads it runs in the background anyway.
        // the language chosen in the console last time, unless KEYLINE_LANG says otherwise
        io.keyline.ui.common.Language.atStart(env.get("KEYLINE_LANG"));
        ws.kind("console"); // one heartbeat for the keys this console runs; the Workers panel lists it as a console
        ws.openLater();
        Thread opener = new Thread(() -> {
            try {
                ws.store();
                ws.credentials();
            } catch (RuntimeException e) {
                // shown by the console ("Could not read the state: ...") on its first load
            }
        }, "keyline-open-state");
        opener.setDaemon(true);
        opener.start();
        io.keyline.core.StartupTrace.mark("console: state opening in the background");
        // JavaFX's toolkit starts meanwhile too: the window's first frame waits for both
        CountDownLatch closed = new CountDownLatch(1);
        java.util.concurrent.CompletableFuture<Void> toolkit = startJavaFx();
        RunTrace trace = ws.trace(null);
        io.keyline.core.StartupTrace.mark("console: run log open");
        DemoSandbox sandbox = new DemoSandbox(Demo.DEFAULT_PORT);
        sandbox.startIfDemo(ws.jobsDir(), ws.options().clock(), System.err);
        io.keyline.core.LeaseKeeper leases = ws.leases();
        // SIGTERM (kill, systemctl stop, the session ending) and Ctrl+C: the console says it stopped, then exits as
        // the JVM would. Keys in flight are left as a crash leaves them (see LeaseKeeper.stopAtExit); a second signal
        // exits at once. The exit hook of the leases does the same where signals are not handled, but it races the
        // database's own hook, which closes the state
        io.keyline.cli.Signals.onTerminate(code -> {
            Thread exit = new Thread(() -> {
                leases.stopAtExit(io.keyline.core.LeaseKeeper.EXIT_BOUND);
                System.exit(code);
            }, "keyline-console-exit");
            exit.start();
        });
        Engine engine = ws.engine(trace);
        // picking: a console and workers on one state take different keys
        Scheduler scheduler = ws.scheduler(engine, window).picking(true);
        ConsoleServices services = services(ws, engine, trace, env, sandbox, scheduler);
        java.util.concurrent.ScheduledExecutorService notifications = startNotifications(ws, trace);
        boolean probe = Boolean.getBoolean("keyline.startupProbe");
        io.keyline.core.StartupTrace.mark("console: engine and services made");
        try {
            toolkit.join();
            Platform.runLater(() -> {
                Stage stage = new Stage();
                stage.setTitle(io.keyline.text.Text.t("ui.console.windowTitle", ws.stateName()));
                Scene scene = scene(services, Threads.javafx());
                io.keyline.core.StartupTrace.mark("console: scene built");
                stage.setScene(scene);
                stage.setOnHidden(e -> closed.countDown());
                if (probe) {
                    StartupProbe.install(scene, stage);
                }
                stage.show();
                io.keyline.core.StartupTrace.mark("console: window shown");
                // The first tick waits one period: the status bar shows what it will run (catch-ups
                // marked) and the operator can pause the scheduler before it starts anything.
                scheduler.start(Scheduler.PERIOD, Scheduler.PERIOD);
            });
        } catch (java.util.concurrent.CompletionException e) {
            System.err.println(t("cli.console.cannotOpen", e.getCause().getMessage()));
            scheduler.close();
            sandbox.close();
            notifications.shutdownNow();
            leases.close();
            return 1;
        }
        closed.await();
        notifications.shutdownNow();
        scheduler.close();
        leases.close();
        sandbox.close();
        trace.close();
        Platform.exit();
        return 0;
    }
}
