package io.keyline.core;


import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * This process as a holder of key leases: its owner id, and one heartbeat per process that renews
 * the leases of every key it holds (one batch in one transaction, whatever the number of keys) and
 * tells the state's {@link WorkerRegistry} that the process is alive. The engine holds a key from its claim
 * to the end of its run; the beat goes on while the process is registered.
 *
 * <p>A beat that fails (the database hiccups) is retried at the next one: the lease outlives several
 * missed beats, and one failure is reported, never a silent stop.
 */
public final class LeaseKeeper implements AutoCloseable {

    /** A key this process holds. */
    public record Held(String job, String key) {
    }

    private final Leases store;
    private final RunOptions options;
    private final String kind;
    private final String owner = LeaseOwner.forThisProcess();
    private final Set<Held> held = ConcurrentHashMap.newKeySet();
    private volatile Consumer<String> warn = m -> { };
    private ScheduledExecutorService beater;
    private volatile boolean registered;
    private volatile boolean closed;
    /** The process is on its way out ({@link #stopAtExit}): no key is held from now on. */
    private boolean exiting;
    /** Deregisters when the JVM exits without {@link #close} (a signal, {@code System.exit}). */
    private Thread exitHook;
    private volatile int failures;

    /** How long the exit hook waits for the registry: a busy or closed database does not hold the JVM's exit. */
    public static final Duration EXIT_BOUND = Duration.ofSeconds(2);

    /**
     * @param kind what the process is, for the Workers panel: {@code worker}, {@code console} or {@code run}
     */
    public LeaseKeeper(Leases store, RunOptions options, String kind) {
        this.store = store;
        this.options = options;
        this.kind = kind;
    }

    /** Where a failed beat is reported (the worker's log, stderr). */
    public LeaseKeeper onProblem(Consumer<String> sink) {
        this.warn = sink;
        return this;
    }

    /** The id this process writes as the lease owner of the keys it holds ({@code host/pid/nonce}). */
    public String owner() {
        return owner;
    }

    /** Registers this process and starts beating (a worker or console registers at once; a run when it first claims). */
    public synchronized void start() {
        if (closed || registered) {
            return;
        }
        store.workers().register(new WorkerRegistry.Registration(owner, LeaseOwner.host(), ProcessHandle.current().pid(),
                kind, version()));
        registered = true;
        Duration period = store.workers().beatPeriod(options.lease());
        beater = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "keyline-lease-heartbeat");
            t.setDaemon(true);
            return t;
        });
        beater.scheduleAtFixedRate(this::beat, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
        Thread hook = new Thread(() -> stopAtExit(EXIT_BOUND), "keyline-deregister-at-exit");
        try {
            Runtime.getRuntime().addShutdownHook(hook);
            exitHook = hook;
        } catch (IllegalStateException e) {
            // the JVM is exiting already
        }
    }

    /**
     * The engine holds the key from now on (called before its claim is committed): the beat renews its lease.
     *
     * @throws IllegalStateException when the process deregistered on its way out: the key is not to be run
     */
    public synchronized void hold(String job, String key) {
        if (exiting) {
            throw new IllegalStateException("the process is exiting: " + job + " " + key + " is left to another run");
        }
        if (!registered) {
            start();
        }
        held.add(new Held(job, key));
    }

    /** The engine is done with the key (whatever state it left it in). */
    public void release(String job, String key) {
        held.remove(new Held(job, key));
    }

    /** One beat: renew the held keys' leases and say the process is alive. Public for tests that move the clock. */
    public void beat() {
        try {
            List<Held> keys = List.copyOf(held);
            if (!keys.isEmpty()) {
                store.renewLeases(owner, keys, options.clock().instant().plus(options.lease()));
            }
            store.workers().beat(owner);
            if (failures > 0) {
                warn.accept("heartbeat works again after " + failures + " failed beat" + (failures == 1 ? "" : "s"));
            }
            failures = 0;
        } catch (Throwable e) {
            // a hiccup: the next beat tries again; the lease outlives several missed beats
            failures++;
            if (failures == 1 || failures % 10 == 0) {
                warn.accept("heartbeat failed (" + failures + " in a row, retried at the next beat): " + e.getMessage());
            }
        }
    }

    /**
     * The process is exiting without {@link #close} (SIGTERM, Ctrl+C, {@code System.exit}): it deregisters, so that
     * the Workers page says "stopped" rather than "gone", waiting at most {@code bound} for the registry. Only while
     * it holds no key: a key in flight keeps its holder registered until the process is gone, as a crash leaves it
     * (on a shared state a deregistered holder is not alive, and its key could be taken over and its step sent again
     * while this process still sends it); from here on the process holds no further key.
     *
     * @return whether it deregistered within {@code bound} (or had nothing to deregister)
     */
    public boolean stopAtExit(Duration bound) {
        synchronized (this) {
            if (!registered) {
                return true;
            }
            if (!held.isEmpty()) {
                return false;
            }
            exiting = true;
            closed = true;
            registered = false;
            if (beater != null) {
                beater.shutdownNow();
                beater = null;
            }
        }
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        Thread t = new Thread(() -> {
            try {
                store.workers().deregister(owner);
                done.set(true);
            } catch (RuntimeException e) {
                // the database is closed already, or out of reach: the row says "gone", as before
            }
        }, "keyline-deregister");
        t.setDaemon(true);
        t.start();
        try {
            t.join(Math.max(1, bound.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return done.get();
    }

    /** Stops beating and deregisters (a key still held keeps its lease until it expires). */
    @Override
    public synchronized void close() {
        closed = true;
        if (exitHook != null && Thread.currentThread() != exitHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(exitHook);
            } catch (IllegalStateException e) {
                // the JVM is exiting: the hook finds the process deregistered
            }
            exitHook = null;
        }
        if (beater != null) {
            beater.shutdownNow();
            beater = null;
        }
        if (registered) {
            registered = false;
            try {
                store.workers().deregister(owner);
            } catch (RuntimeException e) {
                warn.accept("could not deregister " + owner + ": " + e.getMessage());
            }
        }
    }

    /** This build's version, or {@code dev} (see {@link io.keyline.domain.Build#version()}). */
    public static String version() {
        return io.keyline.domain.Build.version();
    }
}
