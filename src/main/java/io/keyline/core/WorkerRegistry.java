package io.keyline.core;

import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The processes that hold key leases on a state, and the rule that says whether a key's holder is
 * still alive. On the embedded state the holder is alive while its lease has not expired
 * and, when it is a process of this host, while that process runs. On a shared PostgreSQL state a
 * holder is alive while it holds its session advisory lock and its heartbeat (the database's clock)
 * is recent: never "same host name, dead pid", which cloned machines would get wrong.
 */
public interface WorkerRegistry {

    /** What a process says about itself when it registers. */
    record Registration(String id, String host, long pid, String kind, String version) {
    }

    /**
     * A registered process, as the console's Workers panel shows it.
     *
     * @param id        its lease-owner id ({@code host/pid/nonce})
     * @param host      host name
     * @param pid       process id on that host
     * @param kind      {@code worker}, {@code console} or {@code run}
     * @param version   Keyline version
     * @param since     when it registered
     * @param heartbeat its last heartbeat
     * @param alive     whether it is alive now (lock held and heartbeat recent; or, embedded, running)
     * @param stopped   when it deregistered, or {@code null}
     * @param keys      keys it holds now ({@code job key}), at most a few
     */
    record Worker(String id, String host, long pid, String kind, String version, Instant since, Instant heartbeat,
                  boolean alive, Instant stopped, List<String> keys) {
    }

    /** Registers this process (idempotent for the same id); on PostgreSQL takes its advisory lock. */
    void register(Registration self);

    /** One heartbeat of a registered process: it is alive now. A failure throws; the next beat tries again. */
    void beat(String id);

    /** The process deregisters (its lock is released; its row stays for a while as "stopped"). */
    void deregister(String id);

    /** Whether the holder of a {@code RUNNING} key is alive: while it is, the key is not taken over. */
    boolean holderAlive(KeyRecord running, Instant now);

    /** How often a registered process beats (the lease is renewed by the same beat). */
    Duration beatPeriod(Duration lease);

    /** The registered processes, live ones first, with the keys each holds; stopped ones of the last day too. */
    List<Worker> list(Instant now);

    /**
     * The rule of the embedded state without a worker table: the lease has not expired and its holder
     * is not provably a dead process of this host.
     */
    static boolean localRule(KeyRecord r, Instant now) {
        return r != null && r.state() == KeyState.RUNNING && r.leaseOwner() != null && r.leaseUntil() != null
                && r.leaseUntil().isAfter(now) && !LeaseOwner.provablyDead(r.leaseOwner());
    }

    /** No worker table (tests, stores without one): the local rule, nothing registered. */
    WorkerRegistry LOCAL = new WorkerRegistry() {
        @Override
        public void register(Registration self) {
        }

        @Override
        public void beat(String id) {
        }

        @Override
        public void deregister(String id) {
        }

        @Override
        public boolean holderAlive(KeyRecord running, Instant now) {
            return localRule(running, now);
        }

        @Override
        public Duration beatPeriod(Duration lease) {
            return Duration.ofMillis(Math.max(1, lease.toMillis() / 3));
        }

        @Override
        public List<Worker> list(Instant now) {
            return List.of();
        }
    };
}
