package io.keyline.cli;

import io.keyline.core.Engine;
import io.keyline.core.LeaseKeeper;
import io.keyline.core.RunReport;
import io.keyline.core.RunTrace;
import io.keyline.core.Scheduler;
import io.keyline.core.Targets;
import io.keyline.core.Worker;
import io.keyline.core.notify.Notifier;
import io.keyline.credentials.MasterKeyException;
import io.keyline.text.Said;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "worker")
final class WorkerCommand extends Sub implements Callable<Integer> {

    @Option(names = "--tick", paramLabel = "DURATION")
    String tick = "PT10S";

    @Option(names = "--catch-up", paramLabel = "DURATION")
    String catchUp;

    @Option(names = "--until-idle")
    boolean untilIdle;

    @Override
    public Integer call() throws InterruptedException {
        Duration period;
        try {
            period = Duration.parse(tick);
        } catch (DateTimeParseException e) {
            throw new UsageError(t("cli.worker.badTick", "--tick", tick));
        }
        if (period.isNegative() || period.isZero()) {
            throw new UsageError(t("cli.worker.zeroTick", "--tick", tick));
        }
        Duration window;
        try {
            window = Targets.catchUpWindow(catchUp != null ? catchUp : ws().setting("KEYLINE_CATCH_UP"));
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage());
        }
        ws().kind("worker");
        if (ws().shared()) {
            try {
                String fingerprint = ws().credentials().checkMasterKey();
                out().println(t("cli.worker.masterKey", fingerprint));
            } catch (MasterKeyException e) {
                err().println(t("cli.worker.problem", e.getMessage()));
                return RunReport.EXECUTION_FAILURE;
            }
        }
        LeaseKeeper leases = ws().leases().onProblem(m -> err().println(t("cli.worker.problem", m)));
        leases.start();
        java.util.concurrent.CountDownLatch finished = new java.util.concurrent.CountDownLatch(1);
        try (RunTrace trace = ws().trace(out())) {
            Engine engine = ws().engine(trace);
            Scheduler scheduler = ws().scheduler(engine, window).picking(true);
            Notifier notifier = ws().notifier(trace, m -> err().println(t("cli.worker.problem", m)));
            Worker worker = new Worker(scheduler, engine, period, reports -> afterTick(notifier, reports),
                    m -> out().println(t("cli.worker.says", m)));
            // SIGTERM (systemctl stop) and Ctrl-C: stop in order, then exit normally (see Signals)
            boolean handled = Signals.onTerminate(() -> worker.stop(Said.of("cli.worker.stoppingSignal",
                    leases.owner())));
            Thread hook = new Thread(() -> {
                // where the signal could not be handled: the same, as far as the JVM's shutdown allows
                worker.stop(Said.of("cli.worker.stoppingShutdown", leases.owner()));
                try {
                    finished.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "keyline-worker-stop");
            if (!handled) {
                Runtime.getRuntime().addShutdownHook(hook);
            }
            out().println(t("cli.worker.started", leases.owner(), ws().stateName(), String.valueOf(ws().jobsDir()),
                    io.keyline.core.operations.EvidenceText.duration(period),
                    io.keyline.core.operations.EvidenceText.duration(window)));
            int ran = worker.run(untilIdle);
            if (!handled) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // shutting down: the hook waits for this command to end
                }
            }
            out().println(t("cli.worker.stopped", leases.owner(), ran, worker.ticks(),
                    String.valueOf(ws().operations().claimConflicts()))
                    + (engine.stopRequested() == null ? "" : " (" + engine.stopRequested() + ")"));
            out().flush();
            return 0;
        } finally {
            leases.close();
            out().flush();
            finished.countDown();
        }
    }

    /** After a tick: queue the run events, then deliver what is due (never changes what the worker does). */
    private void afterTick(Notifier notifier, List<RunReport> reports) {
        try {
            if (!reports.isEmpty()) {
                notifier.runEnded(reports);
            }
            notifier.dispatch(NOTIFY_BUDGET);
        } catch (RuntimeException e) {
            err().println(t("cli.worker.notifyFailed", e.getMessage()));
        }
    }
}
