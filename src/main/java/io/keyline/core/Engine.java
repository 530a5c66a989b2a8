package io.keyline.core;

import io.keyline.core.exec.ChildProcesses;
import io.keyline.core.exec.CredentialMaterial;
import io.keyline.core.exec.ExecutionListener;
import io.keyline.core.exec.Executors;
import io.keyline.core.exec.ProbeOutcome;
import io.keyline.core.exec.Rendering;
import io.keyline.core.exec.StepContext;
import io.keyline.core.exec.StepExecutor;
import io.keyline.core.exec.StepOutcome;
import io.keyline.credentials.Redactor;
import io.keyline.domain.Effect;
import io.keyline.domain.EventType;
import io.keyline.domain.Evidence;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.KeyStateMachine;
import io.keyline.domain.ProbeAnswer;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepKind;
import io.keyline.domain.StepRecord;
import io.keyline.domain.StepStatus;
import io.keyline.domain.Trigger;
import io.keyline.domain.WaitReason;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs keys: it asks {@link KeyDecision} what a key does next and does exactly that, one action
 * at a time, with every transition committed before and after each step.
 *
 * <p>Intent before effect: "step started" is committed (and, for an unsafe step, made durable)
 * before a step does anything, so a run that dies mid-step is recognised by the next one. A safe
 * step is then redone; an unsafe one goes through its probe or waits for a person. Only failures
 * that are provably safe are retried.
 */
public final class Engine {

    private static final DateTimeFormatter RUN_ID = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss")
            .withZone(ZoneOffset.UTC);

    private final StateStore store;
    private final Executors executors;
    private final CredentialProvider credentials;
    private final RunTrace trace;
    private final RunOptions options;
    // issue 13: leases are renewed by one heartbeat per process (LeaseKeeper), whose registry also says
    // whether another holder is alive (H2: lease + same-host pid; PostgreSQL: advisory lock + heartbeat)
    private final LeaseKeeper leases;
    private final String owner;

    public Engine(StateStore store, Executors executors, CredentialProvider credentials, RunTrace trace,
                  RunOptions options) {
        this(store, executors, credentials, trace, options, new LeaseKeeper(store, options, "run"));
    }

    /** An engine whose leases are kept by {@code leases} (one keeper per process, shared by its engines). */
    public Engine(StateStore store, Executors executors, CredentialProvider credentials, RunTrace trace,
                  RunOptions options, LeaseKeeper leases) {
        this.store = store;
        this.executors = executors;
        this.credentials = credentials;
        this.trace = trace;
        this.options = options;
        this.leases = leases;
        this.owner = leases.owner();
    }

    /**
     * Asks this engine to stop (a worker got SIGTERM): no key is started any more, and a key that is
     * running stops at its next step boundary (the step running now finishes and is recorded; the key
     * goes back to PENDING for the next run, like a paused job's).
     */
    public void requestStop(String reason) {
        stopStarting(reason);
    }

    public String newRunId() {
        byte[] b = new byte[3];
        options.random().nextBytes(b);
        return RUN_ID.format(options.clock().instant()) + "-" + HexFormat.of().formatHex(b);
    }

    /** Runs the given keys of a job, one after another, and reports their final states. */
    public RunReport run(JobDefinition job, List<String> keys) {
        return run(job, keys, RunRequest.PLAIN);
    }

    /**
     * Runs the given keys as {@code request} says (ahead of schedule, or exactly as a plan listed) and
     * reports their final states, in target order. Up to the job's {@code concurrency} keys run at once
     * (SPEC §9); each key keeps its own guarantees (lease, intent before effect, probes, the decision).
     */
    public RunReport run(JobDefinition job, List<String> keys, RunRequest request) {
        return run(job, keys, request, () -> true);
    }

    /**
     * As {@link #run(JobDefinition, List, RunRequest)}, taking a new key only while {@code goOn} says so
     * (the console's scheduler, closing or paused): keys not taken are reported as not started.
     */
    public RunReport run(JobDefinition job, List<String> keys, RunRequest request,
                         java.util.function.BooleanSupplier goOn) {
        String runId = newRunId();
        Instant started = now();
        if (store.jobControl(job.name()).pausedAt(started)) {
            String reason = pausedReason(job);
            trace.line(started, runId, job.name(), null, null, 0, "paused", null, 0, reason);
            return new RunReport(runId, job.name(), List.of(), reason);
        }
        Map<String, KeyRecord> known = store.keys(job.name(), keys);
        Batch batch = new Batch(job, keys, known, runId, request, goOn);
        RunProgress watcher = progress;
        watcher.runStarted(job.name(), keys.size());
        try {
            batch.runAll(Math.min(job.concurrency(), keys.size()));
        } finally {
            watcher.runEnded(job.name());
        }
        RunReport report = batch.report();
        trace.run(now(), report, started, request.selection());
        return report;
    }

    /**
     * [issue 14] Stops starting keys (Ctrl+C, SIGTERM): runs in progress take no new key, a key in
     * flight stops at its next step boundary (back to PENDING, like the kill switch), a wait for a
     * retry ends, and each run reports what finished. For the process that is about to exit.
     */
    public void stopStarting(String reason) {
        stopRequest = reason;
        stopLatch.countDown();
    }

    /** Why this engine was told to stop, or {@code null}. */
    public String stopRequested() {
        return stopRequest;
    }

    /** Who is told how runs progress (a live counter); {@link RunProgress#NONE} by default. */
    public Engine progress(RunProgress p) {
        this.progress = p == null ? RunProgress.NONE : p;
        return this;
    }

    private volatile String stopRequest;
    private final java.util.concurrent.CountDownLatch stopLatch = new java.util.concurrent.CountDownLatch(1);
    private volatile RunProgress progress = RunProgress.NONE;

    /** Waits for a retry due soon, or until {@link #stopStarting}; returns false when told to stop. */
    private boolean waitInPlace(Duration wait) throws InterruptedException {
        if (stopRequest != null) {
            return false;
        }
        if (options.sleeper() == Sleeper.REAL) {
            return !stopLatch.await(Math.max(0, wait.toMillis()), TimeUnit.MILLISECONDS);
        }
        options.sleeper().sleep(wait);
        return stopRequest == null;
    }

    /**
     * The keys of one run: taken in target order by up to {@code concurrency} threads (the caller's
     * own thread when it is 1), each key start to end on one thread; results kept by target index so
     * the report is in target order whatever order keys finish in.
     */
    private final class Batch {
        final JobDefinition job;
        final List<String> keys;
        final Map<String, KeyRecord> known;
        final String runId;
        final RunRequest request;
        final java.util.function.BooleanSupplier goOn;
        final Due due;
        final KeyRecord[] finals;
        final boolean[] departed;
        final boolean[] notDue;
        final boolean[] notStarted;
        final java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicInteger ran = new java.util.concurrent.atomic.AtomicInteger();
        volatile String stopped;
        volatile RuntimeException failure;

        Batch(JobDefinition job, List<String> keys, Map<String, KeyRecord> known, String runId, RunRequest request,
              java.util.function.BooleanSupplier goOn) {
            this.job = job;
            this.keys = keys;
            this.known = known;
            this.runId = runId;
            this.request = request;
            this.goOn = goOn;
            this.due = new Due(job, request.ahead());
            int n = keys.size();
            finals = new KeyRecord[n];
            departed = new boolean[n];
            notDue = new boolean[n];
            notStarted = new boolean[n];
        }

        void runAll(int concurrency) {
            if (concurrency <= 1) {
                drain();
            } else {
                inParallel(concurrency);
            }
            if (failure != null) {
                throw failure;
            }
        }

        private void inParallel(int n) {
            // the caller is being stopped (the console's scheduler closing): so are the keys it started
            onThreads(n, "keyline-" + job.name() + "-", this::drain,
                    () -> stopped = stopped != null ? stopped : "interrupted");
        }

        /** Takes keys until there are none left. */
        private void drain() {
            int i;
            while ((i = next.getAndIncrement()) < keys.size()) {
                try {
                    one(i);
                } catch (RuntimeException e) {
                    if (failure == null) {
                        failure = e;
                    }
                    stopped = stopped != null ? stopped : String.valueOf(e.getMessage());
                    return;
                }
            }
        }

        private void one(int i) {
            String key = keys.get(i);
            KeyRecord rec = known.get(key);
            if (rec != null && rec.state().finished()) {
                finals[i] = rec;
                progress.keyEnded(job.name(), key, rec.state());
                return;
            }
            if (stopped != null || failure != null) {
                finals[i] = rec != null ? rec : KeyRecord.fresh(job.name(), key, now());
                progress.keyEnded(job.name(), key, finals[i].state());
                return;
            }
            if (stopRequest != null || !goOn.getAsBoolean()) {
                notStarted[i] = true;
                progress.keyEnded(job.name(), key, null);
                return;
            }
            progress.keyStarted(job.name(), key);
            KeyRun kr = new KeyRun(job, key, runId, request, due.notYetDue(key));
            KeyRecord after = kr.run(rec);
            if (kr.claimed) {
                ran.incrementAndGet();
            }
            departed[i] = kr.departed;
            if (kr.notYetDue) {
                notDue[i] = true;
                progress.keyEnded(job.name(), key, null);
                return;
            }
            finals[i] = after;
            progress.keyEnded(job.name(), key, after.state());
            if (after.state() == KeyState.PENDING && !kr.departed && stopRequest == null
                    && store.jobControl(job.name()).pausedAt(now())) {
                stopped = pausedReason(job);
            }
        }

        RunReport report() {
            List<KeyRecord> out = new ArrayList<>(keys.size());
            List<String> dep = new ArrayList<>();
            List<String> nd = new ArrayList<>();
            List<String> ns = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                if (departed[i]) {
                    dep.add(keys.get(i));
                }
                if (notDue[i]) {
                    nd.add(keys.get(i));
                } else if (notStarted[i]) {
                    ns.add(keys.get(i));
                } else if (finals[i] != null) {
                    out.add(finals[i]);
                }
            }
            String why = stopped;
            if (!ns.isEmpty()) {
                String told = stopRequest != null ? stopRequest : "stopped";
                why = told + ": " + ns.size() + " key" + (ns.size() == 1 ? "" : "s") + " not started";
            }
            return new RunReport(runId, job.name(), out, why, ran.get(), dep, nd, ns);
        }
    }

    /** Which keys are later than the job's current key (computed once per run). */
    private final class Due {
        private final JobDefinition job;
        private final boolean ahead;
        private String current;

        Due(JobDefinition job, boolean ahead) {
            this.job = job;
            this.ahead = ahead;
        }

        synchronized boolean notYetDue(String key) {
            if (ahead || job.key().type() == io.keyline.domain.KeyType.MANUAL) {
                return false;
            }
            if (current == null) {
                current = io.keyline.domain.KeyRules.current(job.key(), options.clock());
            }
            return io.keyline.domain.KeyRules.compare(job.key(), key, current) > 0;
        }
    }

    /** Why a running key yields at a step boundary: this process stops, or the job was paused. */
    private String yieldReason(JobDefinition job) {
        String stop = stopRequest;
        return stop != null ? stop : pausedReason(job);
    }

    private String pausedReason(JobDefinition job) {
        var c = store.jobControl(job.name());
        return "job " + job.name() + " is paused" + (c.reason() == null ? "" : ": " + c.reason())
                + (c.until() == null ? "" : " (until " + c.until() + ")");
    }

    static String summary(RunReport r) {
        StringBuilder sb = new StringBuilder();
        for (KeyState s : KeyState.values()) {
            long n = r.count(s);
            if (n > 0) {
                sb.append(sb.isEmpty() ? "" : ", ").append(n).append(' ').append(s.name().toLowerCase(java.util.Locale.ROOT));
            }
        }
        sb.append(sb.isEmpty() ? "no keys" : "").append("; exit ").append(r.exitCode());
        if (r.stopped() != null) {
            sb.append(" (").append(r.stopped()).append(')');
        }
        if (!r.departed().isEmpty()) {
            sb.append(" (departed from the plan: ").append(String.join(", ", r.departed())).append(')');
        }
        return sb.toString();
    }

    /** Runs one key as far as it can go now; returns its final record. */
    public KeyRecord runKey(JobDefinition job, String key, String runId) {
        return new KeyRun(job, key, runId, RunRequest.PLAIN, new Due(job, false).notYetDue(key))
                .run(store.key(job.name(), key).orElse(null));
    }

    /**
     * The state of the credentials a job's steps name, as the decision sees them (a rejected
     * credential is not sent again: the breaker).
     */
    public static Map<String, KeyDecision.CredentialState> credentialStates(JobDefinition job,
                                                                              CredentialProvider provider) {
        Map<String, KeyDecision.CredentialState> out = new HashMap<>();
        for (StepDefinition s : job.steps()) {
            if (s.credential() != null && !out.containsKey(s.credential())) {
                out.put(s.credential(), credentialState(provider, s.credential()));
            }
        }
        return out;
    }

    static KeyDecision.CredentialState credentialState(CredentialProvider provider, String name) {
        CredentialProvider.Lookup l = provider.lookup(name);
        if (!l.present()) {
            return new KeyDecision.CredentialState(name, KeyDecision.CredentialStatus.MISSING, l.problem());
        }
        if (l.rejected() != null) {
            return new KeyDecision.CredentialState(name, KeyDecision.CredentialStatus.REJECTED, l.rejected());
        }
        return KeyDecision.CredentialState.usable(name);
    }

    private boolean leaseLive(KeyRecord rec, Instant now) {
        return leases.holderAlive(rec, now);
    }

    private KeyRecord reload(KeyRecord rec) {
        return store.key(rec.job(), rec.key()).orElse(rec);
    }

    /** The change that claims {@code rec} for {@code runId} (a RUNNING key with a dead holder is taken over). */
    private StateStore.Change claimChange(KeyRecord rec, String runId) {
        Instant now = now();
        boolean recover = rec.state() == KeyState.RUNNING;
        Trigger trigger = recover ? Trigger.RECOVER : Trigger.CLAIM;
        KeyState to = KeyStateMachine.apply(rec.state(), trigger);
        KeyRecord after = rec.withState(to).withLease(runId, owner, now.plus(options.lease()))
                .withNextAttemptAt(null).withUpdatedAt(now);
        String msg = recover ? "took over from " + rec.leaseOwner() + " (run " + rec.runId()
                + " ended without finishing)" : "run " + runId + " started";
        KeyEvent ev = event(rec, now, runId, recover ? EventType.RECOVERED : EventType.CLAIMED, null, 0, to, null,
                msg, null);
        return new StateStore.Change(rec.stored() ? rec : null, after, null, ev);
    }

    /**
     * Runs the startable keys among {@code candidates} (issue 13), each picked by the store as a key no
     * other process is claiming at that moment ({@link StateStore#claimNext}: FOR UPDATE SKIP LOCKED on
     * PostgreSQL), so workers that share a state take different keys instead of racing for the same
     * ones. Keys that are not stored yet are stored as PENDING first; a key left RUNNING by a dead
     * holder is taken over as {@link #run} does. What happens to a claimed key is exactly what
     * {@link #run} does.
     */
    public RunReport runPicking(JobDefinition job, List<String> candidates) {
        String runId = newRunId();
        Instant started = now();
        if (store.jobControl(job.name()).pausedAt(started)) {
            String reason = pausedReason(job);
            trace.line(started, runId, job.name(), null, null, 0, "paused", null, 0, reason);
            return new RunReport(runId, job.name(), List.of(), reason);
        }
        Due due = new Due(job, false);
        Map<String, KeyRecord> known = store.keys(job.name(), candidates);
        List<String> pickable = new ArrayList<>();
        List<String> orphans = new ArrayList<>();
        for (String key : candidates) {
            if (due.notYetDue(key)) {
                continue;
            }
            KeyRecord rec = known.get(key);
            if (rec == null) {
                store.ensure(KeyRecord.fresh(job.name(), key, now()));
                pickable.add(key);
            } else if (rec.state() == KeyState.RUNNING) {
                orphans.add(key);
            } else if (!rec.state().finished()) {
                pickable.add(key);
            }
        }
        java.util.Collections.sort(pickable);
        if (!pickable.isEmpty() || !orphans.isEmpty()) {
            leases.start(); // registered (and beating) before it holds anything
        }
        // [issue 14] up to the job's concurrency pickers, each claiming the next key no one else holds
        List<KeyRecord> picked = java.util.Collections.synchronizedList(new ArrayList<>());
        String[] stop = new String[1];
        java.util.concurrent.atomic.AtomicInteger ranNow = new java.util.concurrent.atomic.AtomicInteger();
        java.util.Set<String> left = new java.util.LinkedHashSet<>(pickable);
        Runnable picker = () -> {
            while (true) {
                List<String> candidatesNow;
                synchronized (left) {
                    if (left.isEmpty() || stop[0] != null) {
                        return;
                    }
                    if (stopRequest != null) {
                        stop[0] = stopRequest;
                        return;
                    }
                    candidatesNow = List.copyOf(left);
                }
                if (store.jobControl(job.name()).pausedAt(now())) {
                    synchronized (left) {
                        stop[0] = stop[0] != null ? stop[0] : pausedReason(job);
                    }
                    return;
                }
                Optional<KeyRecord> claimed = store.claimNext(job.name(), candidatesNow, now(), rec -> {
                    KeyDecision.Decision d = KeyDecision.decide(new KeyDecision.Input(job, rec.key(), rec, Map.of(),
                            Map.of(), Map.of(), null, now(), false, null, false, false, false));
                    return d.leavesKeyAlone() ? null : claimChange(rec, runId);
                });
                if (claimed.isEmpty()) {
                    return;
                }
                KeyRecord c = claimed.get();
                // the claim wrote a lease of options.lease(); from now on the process's heartbeat renews it
                leases.hold(job.name(), c.key());
                synchronized (left) {
                    left.remove(c.key());
                }
                KeyRun kr = new KeyRun(job, c.key(), runId, RunRequest.PLAIN, false);
                picked.add(kr.runClaimed(c));
                ranNow.incrementAndGet();
            }
        };
        onThreads(Math.max(1, Math.min(job.concurrency(), pickable.size())), "keyline-" + job.name() + "-pick-",
                picker, () -> { });
        String stopped = stop[0];
        int ran = ranNow.get();
        List<KeyRecord> finals = new ArrayList<>(picked);
        finals.sort(java.util.Comparator.comparing(KeyRecord::key));
        for (String key : orphans) {
            if (stopped != null || stopRequest != null) {
                break;
            }
            KeyRun kr = new KeyRun(job, key, runId, RunRequest.PLAIN, false);
            KeyRecord after = kr.run(store.key(job.name(), key).orElse(null));
            if (kr.claimed) {
                ran++;
                finals.add(after);
            }
        }
        RunReport report = new RunReport(runId, job.name(), finals, stopped, ran, List.of(), List.of());
        if (ran > 0 || stopped != null) {
            trace.run(now(), report, started, "--due");
        }
        return report;
    }

    /**
     * Runs {@code work} on {@code n} threads (the caller's own when {@code n} is 1) and waits for all; an
     * interrupt of the caller runs {@code onInterrupt} and is passed to them. The first failure is thrown
     * after all have ended.
     */
    private static void onThreads(int n, String name, Runnable work, Runnable onInterrupt) {
        if (n <= 1) {
            work.run();
            return;
        }
        java.util.concurrent.atomic.AtomicReference<RuntimeException> failure =
                new java.util.concurrent.atomic.AtomicReference<>();
        List<Thread> threads = new ArrayList<>(n);
        for (int w = 0; w < n; w++) {
            Thread t = new Thread(() -> {
                try {
                    work.run();
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
            }, name + (w + 1));
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        boolean interrupted = false;
        for (Thread t : threads) {
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                    onInterrupt.run();
                    threads.forEach(Thread::interrupt);
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    /** One key within one run: the decision loop, its claim, and what the run learned on the way. */
    private final class KeyRun {
        final JobDefinition job;
        final String key;
        final String runId;
        final RunRequest request;
        final boolean notYetDueKey;
        final Plan.Expectation expected;
        int cursor;
        boolean claimed;
        boolean departed;
        boolean notYetDue;

        KeyRun(JobDefinition job, String key, String runId, RunRequest request, boolean notYetDue) {
            this.job = job;
            this.key = key;
            this.runId = runId;
            this.request = request;
            this.notYetDueKey = notYetDue;
            this.expected = request.applying() ? request.expected().get(key) : null;
        }

        KeyRecord run(KeyRecord known) {
            // A key never seen is stored by its claim (one transaction), not before it.
            KeyRecord rec = known != null ? known : KeyRecord.fresh(job.name(), key, now());
            while (true) {
                Instant now = now();
                KeyDecision.Decision d = KeyDecision.decide(new KeyDecision.Input(job, key, rec, Map.of(), Map.of(),
                        Map.of(), null, now, false, null, leaseLive(rec, now), false, notYetDueKey));
                if (d.leavesKeyAlone()) {
                    if (d.stop().kind() == KeyDecision.StopKind.NOT_YET_DUE) {
                        notYetDue = true;
                        return rec;
                    }
                    if (d.stop().kind() != KeyDecision.StopKind.WAIT_RETRY) {
                        return rec;
                    }
                    Duration wait = Duration.between(now, d.stop().until());
                    if (wait.compareTo(options.waitInPlace()) > 0) {
                        return rec;
                    }
                    try {
                        if (!waitInPlace(wait)) {
                            return rec; // told to stop: the retry waits for the next run
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return rec;
                    }
                    rec = reload(rec);
                    continue;
                }
                claimed = true;
                leases.hold(job.name(), key);
                try {
                    rec = execute(claim(rec));
                } finally {
                    leases.release(job.name(), key);
                }
                if (rec.state() != KeyState.RETRY_WAIT || departed) {
                    return rec;
                }
            }
        }

        /** Runs a key this run claimed already (a picked claim, committed): the decision loop, then as {@link #run}. */
        KeyRecord runClaimed(KeyRecord claimedRec) {
            claimed = true;
            KeyRecord rec;
            try {
                rec = execute(new Claim(job, claimedRec, runId));
            } finally {
                leases.release(job.name(), key);
            }
            if (rec.state() != KeyState.RETRY_WAIT || departed) {
                return rec;
            }
            return run(rec);
        }

        /**
         * Takes the key for this run. The claim is committed together with the next transition (the
         * first step's "started", a probe's answer, a wait): nothing happens in between, so the lease
         * is held before any step does anything, with one commit less per key.
         */
        private Claim claim(KeyRecord rec) {
            boolean recover = rec.state() == KeyState.RUNNING;
            StateStore.Change ch = claimChange(rec, runId);
            Claim c = new Claim(job, rec, runId);
            c.defer(ch.before(), ch.after(), null, ch.event());
            if (recover) {
                // commit the takeover now: the lease must be ours while we wait for a child the dead run left
                c.flush();
                waitForOrphanedChild(c, rec);
            }
            return c;
        }

        /** Runs the decision loop on a claimed key until it stops; returns its final record. */
        private KeyRecord execute(Claim c) {
            Map<String, KeyDecision.CredentialState> creds = credentialStates(job, credentials);
            try {
                while (true) {
                    // [issue 14] told to stop (SIGTERM): the key stops at this step boundary, as a pause stops it
                    String halt = stopRequest;
                    boolean paused = halt != null || store.jobControl(job.name()).pausedAt(now());
                    KeyDecision.Input in = new KeyDecision.Input(job, key, c.rec, c.steps, creds, c.probes,
                            step -> payloadHash(c, step), now(), paused,
                            paused ? (halt != null ? halt : pausedReason(job)) : null, false, true, false);
                    KeyDecision.Decision d = KeyDecision.decide(in);
                    if (!d.acts()) {
                        return stop(c, d.stop());
                    }
                    KeyDecision.Action a = d.next();
                    StepDefinition step = job.step(a.step());
                    String departure = departure(c, a, step);
                    if (departure != null) {
                        departed = true;
                        return c.move(Trigger.YIELD, c.rec.withStep(step.id(), attempts(c.steps.get(step.id()))),
                                null, EventType.DEPARTED, step.id(), attempts(c.steps.get(step.id())), null,
                                "stopped before " + step.id() + ": this run departs from plan " + request.planId()
                                        + ": " + departure + " (re-plan and review it: keyline plan " + job.name()
                                        + " --key " + key + ")",
                                c.lastProbe == null ? null : c.lastProbe.evidence());
                    }
                    switch (a.kind()) {
                        case PROBE -> probe(c, step, creds);
                        case RECONCILE -> {
                            reconcile(c, step, c.steps.get(step.id()), c.lastProbe);
                            advance(a);
                        }
                        case EXECUTE -> {
                            if (!executeStep(c, step, creds)) {
                                return c.rec;
                            }
                            if (c.steps.get(step.id()) != null && c.steps.get(step.id()).status().finished()) {
                                advance(a);
                            }
                        }
                    }
                }
            } catch (StaleStateException e) {
                // Another process took the key (our lease expired); it is theirs now.
                return reload(c.rec);
            } catch (RuntimeException e) {
                if (c.unrecorded == null) {
                    throw e;
                }
                recordingFailed(c, c.unrecorded, e);
                return c.rec;
            }
        }

        /** Why executing or reconciling {@code a} would depart from the plan being applied, or {@code null}. */
        private String departure(Claim c, KeyDecision.Action a, StepDefinition step) {
            if (expected == null || a.kind() == KeyDecision.ActionKind.PROBE) {
                return null;
            }
            List<Plan.PlannedStep> path = expected.path();
            Plan.PlannedStep next = cursor < path.size() ? path.get(cursor) : null;
            boolean reconcile = a.kind() == KeyDecision.ActionKind.RECONCILE;
            if (next == null) {
                if (reconcile && step.id().equals(expected.stopStep()) && expected.stopProbe() == ProbeAnswer.NOT_ASKED) {
                    return null;
                }
                return "the plan ends " + (expected.stopStep() == null ? "before" : "at " + expected.stopStep() + " ("
                        + expected.stopKind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + ")")
                        + ", but now " + step.id() + " would " + (reconcile ? "be reconciled" : "run")
                        + (a.probe() == null ? "" : " (its probe answered " + a.probe().word() + ")");
            }
            if (!next.step().equals(step.id())) {
                return "the plan's next step is " + next.step() + ", but now " + step.id() + " would run";
            }
            if (reconcile) {
                if (next.executes() && next.probe() != ProbeAnswer.NOT_ASKED) {
                    return "its probe answered present; the plan showed it " + (next.probe() == null ? "without probe"
                            : next.probe().word()) + " and " + step.id() + " to be executed";
                }
                return null;
            }
            if (!next.executes()) {
                return "the plan showed " + step.id() + " as already present (reconciled); now its probe answered "
                        + (a.probe() == null ? "nothing" : a.probe().word());
            }
            if (next.probe() != null && next.probe() != ProbeAnswer.NOT_ASKED && a.probe() != next.probe()) {
                return "its probe answered " + (a.probe() == null ? "nothing" : a.probe().word())
                        + "; the plan showed " + next.probe().word();
            }
            if (next.bodySha256() != null && step.kind() == StepKind.HTTP) {
                String now = bodySha(c, step);
                if (!next.bodySha256().equals(now)) {
                    return "the body of " + step.id() + " changed since the plan (plan: sha256 "
                            + next.bodySha256().substring(0, 12) + "…, now: "
                            + (now == null ? "cannot be read" : "sha256 " + now.substring(0, 12) + "…") + ")";
                }
            }
            return null;
        }

        private void advance(KeyDecision.Action a) {
            if (expected != null && cursor < expected.path().size()
                    && expected.path().get(cursor).step().equals(a.step())) {
                cursor++;
            }
        }

        /** Applies a stop of the decision to a claimed key. */
        private KeyRecord stop(Claim c, KeyDecision.Stop s) {
            StepDefinition step = s.step() == null ? null : job.step(s.step());
            StepRecord sr = step == null ? null : c.steps.get(step.id());
            switch (s.kind()) {
                case COMPLETE -> {
                    return c.move(Trigger.COMPLETE, c.rec.withStep(null, 0).withFailure(null, null).withCredential(null),
                            null, EventType.KEY_DONE, null, 0, null, "all " + job.steps().size() + " steps done", null);
                }
                case YIELD -> {
                    String why = s.detail() != null ? s.detail() : pausedReason(job);
                    return c.move(Trigger.YIELD, c.rec.withStep(s.step(), c.rec.attempts()), null, EventType.YIELDED,
                            s.step(), 0, null, why + (s.step() == null ? "" : "; stopped before step " + s.step()),
                            null);
                }
                case NEEDS_CREDENTIAL -> {
                    ProbeOutcome p = c.lastProbe != null && c.lastProbe.answer() == ProbeOutcome.Answer.AUTH
                            ? c.lastProbe : null;
                    String message = p != null ? "credential " + step.credential() + " was rejected: " + p.message()
                            : s.detail();
                    needCredential(c, step, sr, message, p == null ? null : p.evidence(), p == null ? null
                            : ProbeAnswer.AUTH);
                    return c.rec;
                }
                case NEEDS_CONFIRMATION -> {
                    needConfirmation(c, step, sr, s);
                    return c.rec;
                }
                case PROBE_INCONCLUSIVE -> {
                    ProbeOutcome p = c.lastProbe;
                    boolean unknown = sr != null
                            && (sr.status() == StepStatus.AMBIGUOUS || sr.status() == StepStatus.STARTED);
                    String msg = unknown ? "outcome of " + step.id() + " unknown and " + p.message()
                            + "; the probe will be asked again"
                            : p.message() + "; the step does not run on an inconclusive probe";
                    scheduleRetry(c, step, sr, attempts(sr) + (unknown ? 0 : 1),
                            unknown ? FailureClass.AMBIGUOUS : FailureClass.RETRYABLE, msg, p.evidence(), null,
                            ProbeAnswer.INCONCLUSIVE);
                    return c.rec;
                }
                default -> throw new IllegalStateException("a held key cannot stop with " + s.kind());
            }
        }

        private void needConfirmation(Claim c, StepDefinition step, StepRecord sr, KeyDecision.Stop s) {
            String message;
            FailureClass cls = null;
            Evidence ev = null;
            ProbeAnswer probe = null;
            WaitReason why = s.waitReason() == null ? WaitReason.OUTCOME_UNKNOWN : s.waitReason();
            switch (why) {
                case CONFIRM_ALWAYS -> message = "step " + step.id() + " needs confirmation (confirm: always)";
                case PAYLOAD_CHANGED -> message = "the payload of " + step.id()
                        + " changed since it was confirmed: review it and confirm again";
                default -> {
                    cls = FailureClass.AMBIGUOUS;
                    String what = c.failure != null && c.failure.step.equals(step.id())
                            ? "outcome of " + step.id() + " unknown (" + c.failure.message + ")"
                            : "the outcome of attempt " + attempts(sr) + " of " + step.id() + " is unknown";
                    if (step.probe() == null) {
                        message = what + (c.failure != null ? "; no probe: check the site, then confirm or mark done"
                                : " and the step has no probe: check the site, then confirm or mark done");
                        ev = c.failure != null ? c.failure.evidence : null;
                    } else {
                        message = what + "; " + c.lastProbe.message();
                        ev = c.lastProbe.evidence();
                        probe = c.probes.get(step.id());
                    }
                }
            }
            c.move(Trigger.NEED_CONFIRMATION, c.rec.withStep(step.id(), attempts(sr)).withFailure(cls, message)
                            .withConfirmation(null, null).withWaitReason(why), sr, EventType.WAITING_FOR_CONFIRMATION,
                    step.id(), attempts(sr), cls, message, ev, probe);
        }

        private void probe(Claim c, StepDefinition step, Map<String, KeyDecision.CredentialState> creds) {
            StepContext ctx = context(c, step, attempts(c.steps.get(step.id())) + 1);
            Instant started = now();
            ProbeOutcome p;
            try {
                p = executors.forKind(step.probe().kind()).probe(ctx);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StaleStateException(job.name(), key);
            } catch (RuntimeException e) {
                p = new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, "probe failed: internal error "
                        + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + ctx.redact().apply(e.getMessage())),
                        null);
            }
            trace.line(now(), runId, job.name(), key, step.id(), ctx.attempt(),
                    "probe:" + p.answer().name().toLowerCase(java.util.Locale.ROOT), null,
                    Duration.between(started, now()).toMillis(), p.message());
            if (step.credential() != null && p.answer() != ProbeOutcome.Answer.INCONCLUSIVE) {
                boolean rejected = p.answer() == ProbeOutcome.Answer.AUTH;
                credentials.recordUse(step.credential(), now(), rejected ? "rejected" : "accepted");
                if (rejected) {
                    creds.put(step.credential(), new KeyDecision.CredentialState(step.credential(),
                            KeyDecision.CredentialStatus.REJECTED, "rejected by the probe of " + step.id()));
                }
            }
            c.lastProbe = p;
            c.probes.put(step.id(), switch (p.answer()) {
                case PRESENT -> ProbeAnswer.PRESENT;
                case ABSENT -> ProbeAnswer.ABSENT;
                case INCONCLUSIVE -> ProbeAnswer.INCONCLUSIVE;
                case AUTH -> ProbeAnswer.AUTH;
            });
        }

        private StepContext context(Claim c, StepDefinition step, int attempt) {
            CredentialMaterial credential = null;
            if (step.credential() != null) {
                CredentialProvider.Lookup found = credentials.lookup(step.credential());
                credential = found.material();
            }
            // outputs are data and reach this step unmasked: the secrets of every credential of the job are masked
            Redactor redactor = Redactor.NONE.plus(credential == null ? List.of() : credential.secretStrings())
                    .plus(otherSecrets(job, step));
            return new StepContext(job, step, key, runId, attempt, Map.copyOf(c.outputs), credential, redactor::redact);
        }

        /** The hash of what {@code stepId} would send now, or {@code null}. */
        private String payloadHash(Claim c, String stepId) {
            StepDefinition s = job.step(stepId);
            return Engine.payloadHash(new StepContext(job, s, key, "{runId}", 1, Map.copyOf(c.outputs), null,
                    java.util.function.UnaryOperator.identity()));
        }

        private String bodySha(Claim c, StepDefinition step) {
            try {
                Rendering.RenderedRequest r = Rendering.request(new StepContext(job, step, key, runId, 1,
                        Map.copyOf(c.outputs), null, java.util.function.UnaryOperator.identity()));
                return r.body().length == 0 ? null : r.bodySha256();
            } catch (Rendering.RenderException e) {
                return null;
            }
        }

        /** Executes one step; returns false when the key stopped (waits, fails, retries). */
        private boolean executeStep(Claim c, StepDefinition step, Map<String, KeyDecision.CredentialState> creds) {
            StepRecord sr = c.steps.get(step.id());
            int attempt = attempts(sr) + 1;
            StepContext ctx = context(c, step, attempt);
            Instant started = now();
            Instant firstAttempt = sr != null && sr.firstAttemptAt() != null ? sr.firstAttemptAt() : started;
            // [issue 14] commit points per effect (docs/durability.md): only an unsafe step's intent is committed
            // (with the claim when it is the key's first transition) and synced before it acts; a none/idempotent
            // step may be redone after a crash, so it acts right after the claim or the previous step's success.
            if (step.effect() == Effect.UNSAFE) {
                StepRecord intent = new StepRecord(step.id(), StepStatus.STARTED, attempt, firstAttempt, Map.of(), started);
                c.move(Trigger.PROGRESS, c.rec.withStep(step.id(), attempt).withConfirmation(null, null), intent,
                        EventType.STEP_STARTED, step.id(), attempt, null, "attempt " + attempt + " of " + step.id()
                                + " started", null);
                // the intent of an unsafe step is on disk before the request leaves, whatever the load
                store.sync();
            } else {
                // the lease is ours before the step acts: a claim still waiting to be committed goes now
                c.flushIfPending();
            }
            StepOutcome out;
            try {
                out = executors.forKind(step.kind()).execute(ctx, new ExecutionListener() {
                    @Override
                    public void childStarted(long pid, Instant startedAt) {
                        store.recordChild(new StateStore.Child(job.name(), key, step.id(), LeaseOwner.host(), pid,
                                startedAt, now().plus(step.timeout())));
                    }
                });
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StaleStateException(job.name(), key);
            } catch (RuntimeException e) {
                out = StepOutcome.failure(FailureClass.UNKNOWN, "internal error while executing " + step.id() + ": "
                        + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": "
                        + ctx.redact().apply(e.getMessage())), null);
            }
            // From here on the step may have changed the world: nothing may lose that fact. Until its
            // outcome is committed, a failure to record it parks the key for a person (see execute).
            c.unrecorded = new Unrecorded(step, attempt, firstAttempt, out);
            return record(c, step, sr, ctx, attempt, firstAttempt, started, out, creds);
        }

        /**
         * Recording what a step did failed (state error, a value too large, …): the key must not stay
         * RUNNING, and the fact that the step may have acted must not be lost, so the key waits for a
         * person with the evidence.
         */
        private void recordingFailed(Claim c, Unrecorded u, RuntimeException e) {
            StepDefinition step = u.step();
            int attempt = u.attempt();
            Instant firstAttempt = u.firstAttempt();
            StepOutcome out = u.outcome();
            c.discardPending();
            c.unrecorded = null;
            KeyRecord current = reload(c.rec);
            if (current.state() != KeyState.RUNNING || !owner.equals(current.leaseOwner())) {
                throw e;
            }
            c.rec = current;
            StepRecord unknown = new StepRecord(step.id(), StepStatus.AMBIGUOUS, attempt, firstAttempt, Map.of(), now());
            String msg = "step " + step.id() + " " + (out.succeeded() ? "succeeded (" + out.message() + ")"
                    : "ended (" + out.message() + ")") + " but recording its result failed: "
                    + firstLine(e.getMessage()) + "; check the site, then confirm or mark done";
            c.move(Trigger.NEED_CONFIRMATION, c.rec.withStep(step.id(), attempt).withFailure(FailureClass.AMBIGUOUS,
                    msg).withConfirmation(null, null).withWaitReason(WaitReason.OUTCOME_UNKNOWN), unknown,
                    EventType.WAITING_FOR_CONFIRMATION, step.id(), attempt, FailureClass.AMBIGUOUS, msg, out.evidence());
        }

        private static String firstLine(String s) {
            if (s == null) {
                return "(no message)";
            }
            int nl = s.indexOf('\n');
            String line = nl < 0 ? s : s.substring(0, nl);
            return line.length() > 300 ? line.substring(0, 300) + "…" : line;
        }

        /** Records a step's outcome; returns false when the key stopped. */
        private boolean record(Claim c, StepDefinition step, StepRecord sr, StepContext ctx, int attempt,
                               Instant firstAttempt, Instant started, StepOutcome out,
                               Map<String, KeyDecision.CredentialState> creds) {
            long ms = Duration.between(started, now()).toMillis();
            trace.line(now(), runId, job.name(), key, step.id(), attempt, out.succeeded() ? "ok" : "failed",
                    out.failure() == null ? null : out.failure().name(), ms, out.message());
            if (step.credential() != null) {
                boolean rejected = out.failure() == FailureClass.AUTH;
                credentials.recordUse(step.credential(), now(), rejected ? "rejected" : "accepted");
                if (rejected) {
                    creds.put(step.credential(), new KeyDecision.CredentialState(step.credential(),
                            KeyDecision.CredentialStatus.REJECTED, "rejected by " + step.id()));
                }
            }
            if (out.succeeded()) {
                // outputs are data for later steps: stored as the step produced them (bounded), masked where shown
                Map<String, String> outputs = Outputs.bounded(out.outputs());
                StepRecord done = new StepRecord(step.id(), StepStatus.SUCCEEDED, attempt, firstAttempt, outputs, now());
                boolean last = job.stepIndex(step.id()) == job.steps().size() - 1;
                if (last) {
                    // committed together with KEY_DONE, which follows at once
                    c.stage(Trigger.PROGRESS, c.rec.withStep(step.id(), attempt), done, EventType.STEP_SUCCEEDED,
                            step.id(), attempt, null, step.id() + ": " + out.message(), out.evidence());
                } else {
                    c.move(Trigger.PROGRESS, c.rec.withStep(step.id(), attempt), done, EventType.STEP_SUCCEEDED,
                            step.id(), attempt, null, step.id() + ": " + out.message(), out.evidence());
                }
                c.outputs.put(step.id(), outputs);
                c.probes.remove(step.id());
                return true;
            }
            FailureClass cls = out.failure();
            boolean unsafe = step.effect() == Effect.UNSAFE;
            if (unsafe && (cls == FailureClass.TRANSIENT_AFTER_SEND || cls == FailureClass.AMBIGUOUS)) {
                StepRecord unknown = new StepRecord(step.id(), StepStatus.AMBIGUOUS, attempt, firstAttempt, Map.of(), now());
                String msg = "outcome unknown (" + cls + "): " + out.message();
                if (out.retryAfter() != null) {
                    // the site says it is still working on it (409 in progress): wait, then the probe decides
                    scheduleRetry(c, step, unknown, attempt, FailureClass.AMBIGUOUS, msg
                            + "; its probe decides after the wait", out.evidence(), out.retryAfter());
                    return false;
                }
                c.move(Trigger.PROGRESS, c.rec.withStep(step.id(), attempt), unknown, EventType.STEP_FAILED, step.id(),
                        attempt, FailureClass.AMBIGUOUS, msg, out.evidence());
                c.failure = new Failure(step.id(), out.message(), out.evidence());
                c.probes.remove(step.id());
                // the decision runs again: the probe decides, or a person (no probe)
                return true;
            }
            StepStatus status = unsafe && cls == FailureClass.UNKNOWN ? StepStatus.AMBIGUOUS : StepStatus.FAILED;
            StepRecord failed = new StepRecord(step.id(), status, attempt, firstAttempt, Map.of(), now());
            switch (cls) {
                case RETRYABLE, TRANSIENT_AFTER_SEND, AMBIGUOUS ->
                        scheduleRetry(c, step, failed, attempt, cls, out.message(), out.evidence(), out.retryAfter());
                case AUTH -> needCredential(c, step, failed, "credential " + (step.credential() == null
                        ? "(none declared)" : step.credential()) + " was rejected: " + out.message(), out.evidence(),
                        null);
                case FATAL, UNKNOWN -> c.move(Trigger.FAIL, c.rec.withStep(step.id(), attempt).withFailure(cls,
                                out.message()), failed, EventType.KEY_FAILED, step.id(), attempt, cls,
                        step.id() + " failed: " + out.message(), out.evidence());
            }
            return false;
        }

        private void reconcile(Claim c, StepDefinition step, StepRecord sr, ProbeOutcome p) {
            StepRecord done = new StepRecord(step.id(), StepStatus.RECONCILED, attempts(sr),
                    sr == null ? null : sr.firstAttemptAt(), Map.of(), now());
            c.move(Trigger.PROGRESS, c.rec.withStep(step.id(), attempts(sr)).withConfirmation(null, null), done,
                    EventType.STEP_RECONCILED, step.id(), attempts(sr), null,
                    step.id() + " already done (reconciled by probe: " + p.message() + ")", p.evidence(),
                    ProbeAnswer.PRESENT);
            c.outputs.put(step.id(), Map.of());
            c.probes.remove(step.id());
        }

        private void needCredential(Claim c, StepDefinition step, StepRecord sr, String message, Evidence ev,
                                    ProbeAnswer probe) {
            c.move(Trigger.NEED_CREDENTIAL, c.rec.withStep(step.id(), attempts(sr)).withCredential(step.credential())
                    .withFailure(FailureClass.AUTH, message), sr, EventType.WAITING_FOR_CREDENTIAL, step.id(),
                    attempts(sr), FailureClass.AUTH, message, ev, probe);
        }

        /** Schedules the next attempt per the retry policy, or fails the key when the policy is spent. */
        private void scheduleRetry(Claim c, StepDefinition step, StepRecord sr, int attempt, FailureClass cls,
                                   String message, Evidence ev, Duration retryAfter) {
            scheduleRetry(c, step, sr, attempt, cls, message, ev, retryAfter, null);
        }

        /** As above; {@code probe}: the answer of the step's probe that led here, recorded with the event. */
        private void scheduleRetry(Claim c, StepDefinition step, StepRecord sr, int attempt, FailureClass cls,
                                   String message, Evidence ev, Duration retryAfter, ProbeAnswer probe) {
            var policy = step.retry();
            Instant now = now();
            Instant first = sr != null && sr.firstAttemptAt() != null ? sr.firstAttemptAt() : now;
            StepRecord rec = sr != null ? new StepRecord(step.id(), sr.status(), attempt, first, sr.outputs(), now)
                    : new StepRecord(step.id(), StepStatus.FAILED, attempt, first, Map.of(), now);
            if (attempt >= policy.maxAttempts()) {
                String msg = step.id() + " failed after " + attempt + " attempt" + (attempt == 1 ? "" : "s") + ": "
                        + message;
                c.move(Trigger.FAIL, c.rec.withStep(step.id(), attempt).withFailure(cls, msg), rec, EventType.KEY_FAILED,
                        step.id(), attempt, cls, msg, ev, probe);
                return;
            }
            Duration delay = Backoff.delay(policy, attempt, options.random());
            if (retryAfter != null && retryAfter.compareTo(delay) > 0) {
                // a server's Retry-After never stretches a wait beyond the policy's total budget
                delay = retryAfter.compareTo(policy.maxElapsed()) > 0 ? policy.maxElapsed() : retryAfter;
            }
            Instant next = now.plus(delay);
            if (Duration.between(first, next).compareTo(policy.maxElapsed()) > 0) {
                String msg = step.id() + " failed: the next attempt would be later than maxElapsed "
                        + policy.maxElapsed() + " after the first: " + message;
                c.move(Trigger.FAIL, c.rec.withStep(step.id(), attempt).withFailure(cls, msg), rec, EventType.KEY_FAILED,
                        step.id(), attempt, cls, msg, ev, probe);
                return;
            }
            String msg = message + "; attempt " + (attempt + 1) + " of " + policy.maxAttempts() + " at " + next
                    + (retryAfter != null ? " (Retry-After " + Math.min(retryAfter.toSeconds(), 999_999_999) + "s)" : "");
            c.move(Trigger.SCHEDULE_RETRY, c.rec.withStep(step.id(), attempt).withFailure(cls, msg).withNextAttemptAt(next),
                    rec, EventType.RETRY_SCHEDULED, step.id(), attempt, cls, msg, ev, probe);
        }

        /**
         * A run that takes over from a dead holder first waits for a child process the holder left
         * running (same host, same pid and start time), up to the step's timeout, then kills its group:
         * never two copies of one step of one key at once.
         */
        private void waitForOrphanedChild(Claim c, KeyRecord before) {
            StateStore.Child child = store.child(job.name(), key).orElse(null);
            if (child == null || !LeaseOwner.host().equals(child.host())) {
                return;
            }
            if (!ChildProcesses.alive(child.pid(), child.startedAt())) {
                return;
            }
            Instant deadline = child.deadline();
            String outcome;
            try {
                boolean exited = ChildProcesses.await(child.pid(), child.startedAt(), deadline, options.clock());
                if (!exited) {
                    ChildProcesses.killGroup(child.pid(), child.startedAt());
                    outcome = "killed it (past the step's timeout)";
                } else {
                    outcome = "it exited";
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StaleStateException(job.name(), key);
            }
            trace.line(now(), runId, job.name(), key, child.step(), 0, "waited", null, 0,
                    "process " + child.pid() + " of step " + child.step() + " left by run " + before.runId()
                            + " was still running: waited for it; " + outcome);
        }
    }

    /** The hash of what the step would send now ({@code null} when it cannot be rendered yet). */
    public static String payloadHash(StepContext ctx) {
        // {runId} differs per run; the operator confirms the payload, not the run that sends it.
        StepContext stable = new StepContext(ctx.job(), ctx.step(), ctx.key(), "{runId}", ctx.attempt(), ctx.outputs(),
                null, ctx.redact());
        try {
            return ctx.step().kind() == StepKind.HTTP ? Rendering.request(stable).payloadHash()
                    : Rendering.command(stable).payloadHash();
        } catch (Rendering.RenderException e) {
            return null;
        }
    }

    /** A failure of an unsafe step whose outcome is unknown, kept for the message of the wait that follows. */
    private record Failure(String step, String message, Evidence evidence) {
    }

    /** A step that ran and whose outcome is not committed yet. */
    private record Unrecorded(StepDefinition step, int attempt, Instant firstAttempt, StepOutcome outcome) {
    }

    /** A key's progress within one claim; transitions not yet committed wait in {@code pending}. */
    private final class Claim {
        final JobDefinition job;
        final String runId;
        KeyRecord rec;
        final Map<String, StepRecord> steps;
        final Map<String, Map<String, String>> outputs = new HashMap<>();
        final Map<String, ProbeAnswer> probes = new HashMap<>();
        ProbeOutcome lastProbe;
        Failure failure;
        Unrecorded unrecorded;
        private final List<StateStore.Change> pending = new ArrayList<>();

        Claim(JobDefinition job, KeyRecord rec, String runId) {
            this.job = job;
            this.rec = rec;
            this.runId = runId;
            this.steps = rec.stored() ? new HashMap<>(store.steps(job.name(), rec.key())) : new HashMap<>();
            steps.values().stream().filter(s -> s.status().finished()).forEach(s -> outputs.put(s.step(), s.outputs()));
        }

        /** Queues a change to commit with the next {@link #move}; {@code before == null} inserts the key. */
        void defer(KeyRecord before, KeyRecord after, StepRecord step, KeyEvent ev) {
            pending.add(new StateStore.Change(before, after, step, ev));
            rec = after.withVersion(before == null ? 1 : before.version() + 1);
            if (step != null) {
                steps.put(step.step(), step);
            }
        }

        /** Builds the change a trigger makes (a RUNNING key's lease is extended with it). */
        void stage(Trigger trigger, KeyRecord shape, StepRecord step, EventType type, String stepId, int attempt,
                   FailureClass cls, String message, Evidence evidence) {
            stage(trigger, shape, step, type, stepId, attempt, cls, message, evidence, null);
        }

        /** As {@link #stage}; the event records the answer of the step's probe ({@code null}: none). */
        void stage(Trigger trigger, KeyRecord shape, StepRecord step, EventType type, String stepId, int attempt,
                   FailureClass cls, String message, Evidence evidence, ProbeAnswer probe) {
            KeyState to = KeyStateMachine.apply(rec.state(), trigger);
            Instant now = now();
            KeyRecord after = shape.withState(to).withUpdatedAt(now);
            after = to == KeyState.RUNNING ? after.withLease(runId, owner, now.plus(options.lease())) : after.withoutLease();
            KeyEvent ev = event(rec, now, runId, type, stepId, attempt, to, cls, message,
                    evidence == null ? null : evidence.bounded()).withProbe(probe);
            defer(rec, after, step, ev);
        }

        /** Applies a transition and commits it, with whatever was deferred, in one transaction. */
        KeyRecord move(Trigger trigger, KeyRecord shape, StepRecord step, EventType type, String stepId, int attempt,
                       FailureClass cls, String message, Evidence evidence) {
            return move(trigger, shape, step, type, stepId, attempt, cls, message, evidence, null);
        }

        /** As {@link #move}; the event records the answer of the step's probe ({@code null}: none). */
        KeyRecord move(Trigger trigger, KeyRecord shape, StepRecord step, EventType type, String stepId, int attempt,
                       FailureClass cls, String message, Evidence evidence, ProbeAnswer probe) {
            stage(trigger, shape, step, type, stepId, attempt, cls, message, evidence, probe);
            return flush();
        }

        /** Commits what was deferred. */
        KeyRecord flush() {
            try {
                rec = store.applyChain(List.copyOf(pending));
                unrecorded = null;
            } finally {
                pending.clear();
            }
            return rec;
        }

        /** Commits what was deferred, if anything was. */
        void flushIfPending() {
            if (!pending.isEmpty()) {
                flush();
            }
        }

        /** Forgets deferred changes that failed to commit. */
        void discardPending() {
            pending.clear();
        }
    }

    /** The secrets of the job's other credentials (an output may carry one into this step). */
    private List<String> otherSecrets(JobDefinition job, StepDefinition step) {
        List<String> out = new ArrayList<>();
        job.steps().stream().map(StepDefinition::credential)
                .filter(n -> n != null && !n.equals(step.credential())).distinct()
                .forEach(n -> {
                    CredentialProvider.Lookup l = credentials.lookup(n);
                    if (l.present()) {
                        out.addAll(l.material().secretStrings());
                    }
                });
        return out;
    }

    private static int attempts(StepRecord sr) {
        return sr == null ? 0 : sr.attempts();
    }

    private Instant now() {
        return options.clock().instant();
    }

    static KeyEvent event(KeyRecord rec, Instant ts, String runId, EventType type, String step, int attempt,
                          KeyState state, FailureClass cls, String message, Evidence evidence) {
        return new KeyEvent(0, rec.job(), rec.key(), ts, runId, type, step, attempt, state, cls, message, null, null,
                evidence);
    }

    public String owner() {
        return owner;
    }
}
