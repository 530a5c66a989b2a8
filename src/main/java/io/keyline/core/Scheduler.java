package io.keyline.core;

import io.keyline.core.jobfile.JobCatalog;
import io.keyline.domain.CronExpression;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeyState;
import io.keyline.domain.KeyType;
import io.keyline.domain.StepRecord;
import io.keyline.text.Said;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The embedded scheduler: on every {@link #tick()} it starts the due keys of every job that is not
 * paused ({@link Targets#dueKeys}: the key of the latest cron tick in the job's zone, missed ticks
 * within the catch-up window, stored pending keys and retries that are due, and the keys a job's key source
 * lists that are not done).
 *
 * <p>It executes keys only through the {@link Engine}, so the engine's leases decide who runs a
 * key: a key another process holds is passed by, and a key is never executed twice. It holds no
 * SQL and no JavaFX. {@link #start} drives {@code tick} from a daemon thread in real time; tests call
 * {@code tick} directly with a clock they move.
 */
public final class Scheduler implements SchedulerControl, AutoCloseable {

    /** How often the real-time driver ticks. */
    public static final Duration PERIOD = Duration.ofSeconds(30);
    private static final int NEXT_SEARCH = 200;

    private final Supplier<JobCatalog> catalog;
    private final KeyRecords store;
    private final JobControls controls;
    private final Leases leases;
    private final Engine engine;
    private final Clock clock;
    private final Duration window;
    private final Object tickLock = new Object();
    private volatile boolean enabled = true;
    private volatile boolean closed;
    private final java.util.Queue<Said> runningNow = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private volatile Said problem;
    private volatile Instant nextTick;
    private volatile Ran lastRan;
    private ScheduledExecutorService driver;
    /** The driver's thread, joined by {@link #close} (the executor's termination is signalled before it ends). */
    private volatile Thread driverThread;
    private Duration period = PERIOD;
    // a worker picks keys from the state (FOR UPDATE SKIP LOCKED) and hears of every run
    private volatile boolean picking;
    private volatile java.util.function.Consumer<RunReport> afterRun = r -> { };

    /**
     * @param catalog loads the job files (again on every tick, so edits are picked up)
     * @param window  the catch-up window (missed ticks older than this are not run automatically)
     */
    public Scheduler(Supplier<JobCatalog> catalog, KeyRecords store, JobControls controls, Leases leases, Engine engine,
                     Clock clock, Duration window) {
        this.catalog = catalog;
        this.store = store;
        this.controls = controls;
        this.leases = leases;
        this.engine = engine;
        this.clock = clock;
        this.window = window;
    }

    /**
     * Lets the store pick the keys of each job ({@link Engine#runPicking}): processes that share a state
     * (several workers, a console) take different keys instead of racing for the same ones.
     */
    public Scheduler picking(boolean on) {
        this.picking = on;
        return this;
    }

    /** Called with the report of every run a tick made (a worker queues notifications from them). */
    public Scheduler onRun(java.util.function.Consumer<RunReport> listener) {
        this.afterRun = listener;
        return this;
    }

    /** A key the tick started and where it ended. */
    public record Started(String job, String key, boolean catchUp, KeyState state) {
    }

    /**
     * Starts the due keys of every unpaused job once (one run per job, up to its {@code concurrency}
     * keys at once; jobs side by side), and returns what it started. Ticks do not overlap; a paused
     * scheduler or job starts nothing, and closing or pausing the scheduler starts no further key.
     */
    public List<Started> tick() {
        synchronized (tickLock) {
            List<Started> started = java.util.Collections.synchronizedList(new ArrayList<>());
            if (!enabled || closed) {
                return started;
            }
            List<Said> problems = java.util.Collections.synchronizedList(new ArrayList<>());
            List<Runnable> runs = new ArrayList<>();
            for (JobDefinition job : jobs()) {
                runs.add(() -> tickJob(job, started, problems));
            }
            // jobs side by side: one job waiting for a retry does not hold the others back
            if (runs.size() <= 1) {
                runs.forEach(Runnable::run);
            } else {
                List<Thread> threads = new ArrayList<>();
                for (Runnable r : runs) {
                    Thread t = new Thread(r, "keyline-scheduler-job");
                    t.setDaemon(true);
                    threads.add(t);
                    t.start();
                }
                for (Thread t : threads) {
                    try {
                        t.join();
                    } catch (InterruptedException e) {
                        threads.forEach(Thread::interrupt);
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
            }
            problem = problems.isEmpty() ? null : problems.get(problems.size() - 1);
            List<Started> out = new ArrayList<>(started);
            if (!out.isEmpty()) {
                // the console says what a tick ran
                lastRan = new Ran(clock.instant(), out.stream().map(x -> x.job() + " " + x.key()).toList(),
                        out.stream().map(Started::state).toList());
            }
            return out;
        }
    }

    private void tickJob(JobDefinition job, List<Started> started, List<Said> problems) {
        try {
            // waits for a confirmation end by their step's expireAfter, whether or not the job has anything due
            engine.expireConfirmations(job);
            List<String> listed = List.of();
            if (job.key().source() != null) {
                KeyListing.Listed l = engine.listKeys(job);
                problems.addAll(l.problems());
                listed = l.keys();
            }
            List<Upcoming> upcoming = runnable(job, clock.instant(), listed);
            if (upcoming.isEmpty() || !enabled || closed) {
                return;
            }
            Map<String, Boolean> catchUp = new java.util.HashMap<>();
            upcoming.forEach(u -> catchUp.put(u.key(), u.catchUp()));
            Said what = upcoming.size() > 1 ? Said.of("core.scheduler.runningMore", job.name(), upcoming.get(0).key(),
                    upcoming.size() - 1) : Said.plain(job.name() + " " + upcoming.get(0).key());
            runningNow.add(what);
            try {
                List<String> keys = upcoming.stream().map(Upcoming::key).toList();
                RunReport r = picking ? engine.runPicking(job, keys)
                        : engine.run(job, keys, RunRequest.SCHEDULED, () -> enabled && !closed
                                && !controls.jobControl(job.name()).pausedAt(clock.instant()));
                afterRun.accept(r);
                for (KeyRecord k : r.keys()) {
                    started.add(new Started(job.name(), k.key(), catchUp.getOrDefault(k.key(), false), k.state()));
                }
            } finally {
                runningNow.remove(what);
            }
        } catch (RuntimeException e) {
            problems.add(Said.of("core.scheduler.jobProblem", job.name(), why(e)));
        }
    }

    /** What went wrong, as words: an operator's refusal keeps its own, any other failure says its message. */
    private static Said why(RuntimeException e) {
        return e instanceof OperatorException o ? o.said() : Said.plain(String.valueOf(e.getMessage()));
    }

    /** What ticks are running now, for the status bar ({@code null} when nothing). */
    private String running() {
        List<Said> now = new ArrayList<>(runningNow);
        return now.isEmpty() ? null : String.join(", ", now.stream().map(Said::text).toList());
    }

    private List<JobDefinition> jobs() {
        List<JobDefinition> jobs = new ArrayList<>(catalog.get().jobs());
        jobs.sort(Comparator.comparing(JobDefinition::name));
        return jobs;
    }

    /**
     * The due keys of a job that a run would take now: not those of a paused job, not retries
     * that are due later, and not keys a live process holds (the engine would pass them by).
     */
    private List<Upcoming> runnable(JobDefinition job, Instant now, List<String> listed) {
        return due(job, now, listed, false);
    }

    /**
     * {@link #runnable}; with {@code startsOnly}, without the keys a run takes only to park them for the review of
     * the job's unsafe steps (no step of theirs runs): what the status says the scheduler is about to run.
     */
    private List<Upcoming> due(JobDefinition job, Instant now, List<String> listed, boolean startsOnly) {
        if (controls.jobControl(job.name()).pausedAt(now)) {
            return List.of();
        }
        List<Targets.DueKey> due = Targets.dueKeys(job, store, now, window, listed);
        if (due.isEmpty()) {
            return List.of();
        }
        Map<String, KeyRecord> known = store.keys(job.name(), due.stream().map(Targets.DueKey::key).toList());
        DecisionInputs inputs = DecisionInputs.unattended(job, controls.jobControl(job.name()), false, clock,
                leases.workers(), Duration.ZERO);
        List<Targets.DueKey> taken = new ArrayList<>();
        for (Targets.DueKey d : due) {
            // whether a run would take the key now: the engine's own decision, read only
            if (!KeyDecision.decide(inputs.unheld(d.key(), known.get(d.key()), now)).leavesKeyAlone()) {
                taken.add(d);
            }
        }
        Map<String, Map<String, StepRecord>> steps = !startsOnly || taken.isEmpty() ? Map.of()
                : store.steps(job.name(), taken.stream().map(Targets.DueKey::key).toList());
        List<Upcoming> out = new ArrayList<>();
        for (Targets.DueKey d : taken) {
            if (!startsOnly || starts(inputs, d.key(), known.get(d.key()), steps.get(d.key()), now)) {
                out.add(new Upcoming(job.name(), d.key(), d.firstTick(), d.catchUp(), d.note()));
            }
        }
        return out;
    }

    @Override
    public Status status() {
        Instant now = clock.instant();
        List<Upcoming> dueNow = new ArrayList<>();
        Upcoming next = null;
        Said readProblem = null;
        try {
            for (JobDefinition job : jobs()) {
                if (controls.jobControl(job.name()).pausedAt(now)) {
                    continue;
                }
                dueNow.addAll(due(job, now, List.of(), true));
                Upcoming n = nextOf(job, now);
                if (n != null && (next == null || n.tick().toInstant().isBefore(next.tick().toInstant()))) {
                    next = n;
                }
            }
        } catch (RuntimeException e) {
            readProblem = why(e);
        }
        Mode mode = closed ? Mode.OFF : enabled ? Mode.ON : Mode.PAUSED;
        return new Status(mode, running(), List.copyOf(dueNow), next, mode == Mode.ON ? nextTick : null, window,
                problem != null ? problem : readProblem);
    }

    /**
     * The first future tick of the job that will start its key: the decision a run takes at that tick, read
     * only, as {@link #runnable} reads it now. A key that is finished, waits for a person (a confirmation, a
     * login, a review) or for a later retry is left alone by the tick, and a key of a job that waits for its
     * review is only parked for it ({@link #starts}), so the tick is not named for either.
     */
    private Upcoming nextOf(JobDefinition job, Instant now) {
        CronExpression cron = job.schedule();
        if (cron == null || job.key().type() == KeyType.MANUAL) {
            return null;
        }
        Map<String, ZonedDateTime> candidates = new LinkedHashMap<>();
        ZonedDateTime t = now.atZone(job.key().zone());
        for (int i = 0; i < NEXT_SEARCH; i++) {
            t = cron.next(t);
            if (t == null) {
                break;
            }
            candidates.putIfAbsent(KeyRules.keyAt(job.key(), t), t);
            if (candidates.size() >= 3) {
                break;
            }
        }
        Map<String, KeyRecord> known = store.keys(job.name(), candidates.keySet());
        Map<String, Map<String, StepRecord>> steps = known.isEmpty() ? Map.of()
                : store.steps(job.name(), known.keySet());
        io.keyline.domain.JobControl control = controls.jobControl(job.name());
        for (var e : candidates.entrySet()) {
            Instant at = e.getValue().toInstant();
            // at its tick the key is the current one: the inputs are those of a run at that time
            DecisionInputs inputs = DecisionInputs.unattended(job, control, false, Clock.fixed(at, job.key().zone()),
                    leases.workers(), Duration.ZERO);
            KeyRecord rec = known.get(e.getKey());
            if (!KeyDecision.decide(inputs.unheld(e.getKey(), rec, at)).leavesKeyAlone()
                    && starts(inputs, e.getKey(), rec, steps.get(e.getKey()), at)) {
                return new Upcoming(job.name(), e.getKey(), e.getValue(), false, null);
            }
        }
        return null;
    }

    /**
     * Whether a run that takes the key starts its work, and does not only park it for the review of its job's
     * unsafe steps: the engine decides that after its claim, from the key's step records (a key whose unsafe steps
     * are all done is not held by the review), and so is it read here.
     */
    private static boolean starts(DecisionInputs inputs, String key, KeyRecord rec, Map<String, StepRecord> steps,
                                  Instant at) {
        KeyDecision.Stop stop = KeyDecision.decide(inputs.afterClaim(key, rec, steps, at)).stop();
        return stop == null || stop.kind() != KeyDecision.StopKind.NEEDS_REVIEW;
    }

    @Override
    public Ran lastRan() {
        return lastRan;
    }

    @Override
    public Duration window() {
        return window;
    }

    @Override
    public void enable() {
        enabled = true;
    }

    @Override
    public void disable() {
        enabled = false;
    }

    /**
     * Ticks every {@code period} on a daemon thread, the first time after {@code firstDelay} (the
     * console shows what the first tick will catch up, and the operator may pause it before).
     */
    public synchronized void start(Duration firstDelay, Duration period) {
        if (driver != null || closed) {
            return;
        }
        this.period = period;
        driver = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread th = new Thread(r, "keyline-scheduler");
            th.setDaemon(true);
            driverThread = th;
            return th;
        });
        nextTick = clock.instant().plus(firstDelay);
        // a process that runs a scheduler is one of the state's workers from now on, not from its first key
        // (the Workers page of any process lists it as alive); on the driver's thread, never the caller's
        driver.execute(() -> {
            try {
                engine.register();
            } catch (RuntimeException e) {
                problem = Said.of("core.scheduler.notRegistered", why(e));
            }
        });
        driver.scheduleWithFixedDelay(this::driverTick, firstDelay.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void driverTick() {
        try {
            tick();
        } catch (Throwable e) {
            problem = Said.of("core.scheduler.tickFailed", e.toString());
        } finally {
            nextTick = clock.instant().plus(period);
        }
    }

    /** Stops ticking; waits a little for a key being run to finish its step, then interrupts it. */
    @Override
    public void close() {
        ScheduledExecutorService d;
        synchronized (this) {
            closed = true;
            d = driver;
            driver = null;
        }
        if (d == null) {
            return;
        }
        d.shutdown();
        try {
            if (!d.awaitTermination(5, TimeUnit.SECONDS)) {
                d.shutdownNow();
                d.awaitTermination(5, TimeUnit.SECONDS);
            }
            Thread th = driverThread;
            if (th != null) {
                th.join(5_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            d.shutdownNow();
        }
    }
}
