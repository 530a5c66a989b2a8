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
    private volatile int failures;

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
    }

    /** The engine holds the key from now on (called before its claim is committed): the beat renews its lease. */
    public void hold(String job, String key) {
        if (!registered) {
            start();
        }
        held.add(new Held(job, key));
    }

    /** The engine is done with the key (whatever state it left it in). */
    public void release(String job, String key) {
        held.remove(new Held(job, key));
    }

    /** The keys held now. */
    public Set<Held> held() {
        return Set.copyOf(held);
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

    /** Stops beating and deregisters (a key still held keeps its lease until it expires). */
    @Override
    public synchronized void close() {
        closed = true;
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

    /** This build's version (the jar's), or {@code dev}. */
    public static String version() {
        String v = LeaseKeeper.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0" : v;
    }
}
