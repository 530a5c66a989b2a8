package io.keyline.core;

import io.keyline.text.Said;
import io.keyline.text.Text;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The scheduler without a console ({@code keyline worker}): ticks until it is stopped, each
 * tick starting the due keys of every unpaused job (retries and catch-ups included), picked from the
 * store so that several workers on one state take different keys. After every tick that ran keys it
 * hands their reports on (notifications); it says what it does on {@code log}.
 *
 * <p>{@link #stop} (SIGTERM) starts nothing new; a key that is running finishes the step it is in,
 * is recorded, and goes back to PENDING for the next worker (intent before effect is unchanged: a worker
 * killed between "step started" and the effect leaves the key to the probe or a person).
 */
public final class Worker {

    private final Scheduler scheduler;
    private final Engine engine;
    private final Duration period;
    private final Consumer<List<RunReport>> afterTick;
    private final Consumer<String> log;
    private final Object wake = new Object();
    private volatile String stopReason;
    private int ran;
    private int ticks;

    /**
     * @param scheduler picks and runs the due keys (set to picking)
     * @param engine    the scheduler's engine (asked to stop at the next step boundary)
     * @param period    pause between two ticks that found nothing more to do
     * @param afterTick the reports of the runs of one tick (may be empty): queue and send notifications
     * @param log       one line per notable thing (started, stopping, stopped, tick problems)
     */
    public Worker(Scheduler scheduler, Engine engine, Duration period, Consumer<List<RunReport>> afterTick,
                  Consumer<String> log) {
        this.scheduler = scheduler;
        this.engine = engine;
        this.period = period;
        this.afterTick = afterTick;
        this.log = log;
    }

    /**
     * Ticks until {@link #stop} (or, with {@code untilIdle}, until a tick finds nothing to start).
     *
     * @return the number of keys this worker ran
     */
    public int run(boolean untilIdle) {
        try {
            while (stopReason == null) {
                List<RunReport> reports = new ArrayList<>();
                scheduler.onRun(reports::add);
                List<Scheduler.Started> started = scheduler.tick();
                ticks++;
                int n = reports.stream().mapToInt(RunReport::ran).sum();
                ran += n;
                Said problem = scheduler.status().problem();
                if (problem != null) {
                    log.accept(Text.t("core.worker.tick", problem));
                }
                afterTick.accept(reports);
                if (stopReason != null || untilIdle && started.isEmpty()) {
                    break;
                }
                if (started.isEmpty()) {
                    synchronized (wake) {
                        if (stopReason == null) {
                            wake.wait(period.toMillis());
                        }
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return ran;
    }

    /**
     * Stops: nothing new starts, the key running now stops at its next step boundary. Returns at once. The
     * reason is said in the language of whoever shows it (English in the state).
     */
    public void stop(Said reason) {
        stopReason = reason.english();
        engine.stopStarting(reason);
        scheduler.disable();
        synchronized (wake) {
            wake.notifyAll();
        }
    }

    /** Ticks so far. */
    public int ticks() {
        return ticks;
    }
}
