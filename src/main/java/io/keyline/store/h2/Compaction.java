package io.keyline.store.h2;

import org.h2.engine.Session;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.FileStore;
import org.h2.mvstore.MVStore;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Keeps the state file near the size of its live data in a process that keeps it open for long (the console, a
 * worker, a large backfill): what H2's background writer would do, which H2 does not run with
 * {@code WRITE_DELAY=0}.
 *
 * <p>Why: every commit writes a new chunk at the end of the file (about 25 KB for a key's transition). The space of
 * a dead chunk is reused only when the chunk is older than H2's {@code RETENTION_TIME} (45 s), and with
 * {@code WRITE_DELAY=0} H2 runs no background thread to move the few live pages out of mostly dead chunks
 * ({@code FileStore.doCompaction} runs only in the background writer, which {@code WRITE_DELAY=0} turns off).
 * Under thousands of commits a second the file grew by tens of megabytes a second: 900 MB after 10,000 keys of
 * three steps in one process, for well under a megabyte of live data.
 *
 * <p>What H2's 45 s stand for: chunks written since the last time the file reached the disk must not be written
 * over, because after a power failure a store header on the disk may still lead through them; H2 assumes the
 * operating system writes everything within 45 s. This thread makes that true instead of assuming it, and then
 * shortens the wait, in the process that opened the file (the one that serves it to the others):
 * <ol>
 *   <li>every {@link #periodMillis}, when anything was written to the file since the last round, it forces the
 *       file to the disk ({@code fsync});</li>
 *   <li>with that, the retention time is {@link #retentionMillis} instead of 45 s, so a chunk written since the
 *       last {@code fsync} is not written over while the rounds keep their pace. When a round finds that the time
 *       from the previous round's check to the end of its own {@code fsync} was longer (a slow disk, a long
 *       compaction, a starved thread), it raises the retention to twice that, for the next {@link #WINDOW}
 *       rounds;</li>
 *   <li>then, when the file is larger than {@link #SMALL_FILE} and its chunks are less than {@link #TARGET_FILL} %
 *       live or less than that much of the file is in use, it runs H2's own compaction of the file for about {@link #MOVE_MILLIS} ms ({@code MVStore.compactFile},
 *       what H2 does on close): it rewrites the live pages of the emptiest chunks so that their space becomes free,
 *       moves the last chunks into the holes and cuts the file.</li>
 * </ol>
 * A SIGKILL is not what the retention guards against: the operating system keeps every write of a killed process,
 * and H2's recovery plus {@link Recovery} find the newest commit whatever the retention (the crash loop runs with
 * this on). The margins for a power failure are narrower than H2's 45 s, said plainly: the retention is raised only
 * after a stall was seen, so the first stall longer than the retention (or a forward step of the wall clock that
 * long: H2 ages chunks by {@code System.currentTimeMillis}) can let a chunk be written over before it was synced;
 * and like H2's default, a chunk older than the retention that has just died may be written over before the commit
 * that killed it is on the disk. If the thread ends while the file is open (an {@link Error}), the retention goes
 * back to H2's 45 s.
 */
final class Compaction {

    /** The logger, made on first use: java.util.logging's set-up is not part of a one-shot command that logs nothing. */
    private static final class Log {
        static final Logger LOG = Logger.getLogger(Compaction.class.getName());
    }

    /** One per open store in this process (several {@link H2Database}s of one folder share a store). */
    private static final Map<MVStore, Compaction> RUNNING = Collections.synchronizedMap(new IdentityHashMap<>());

    /** How often a round runs (tests shorten it). */
    static volatile long periodMillis = 100;
    /** The retention time it sets, before any slow {@code fsync} raises it (tests shorten it). */
    static volatile int retentionMillis = 300;
    /** Compacts when the file as a whole is less live than this (percent); H2 picks the emptiest chunks. */
    static final int TARGET_FILL = 50;
    /** H2's own retention time, assumed again if the thread ends while the file is open. */
    static final int H2_RETENTION_MILLIS = 45_000;
    /** A file smaller than this is left as it is: compacting it would cost more than the space it gives back. */
    static final long SMALL_FILE = 16L << 20;
    /** How long a round may move chunks to cut the file short ({@code MVStore.compactFile}: commits wait meanwhile). */
    static final int MOVE_MILLIS = 50;

    private final MVStore store;
    private final long period;
    private final Thread thread;
    /** Whether a round slower than the retention raises it (always for the thread; tests choose). */
    private final boolean raises;
    /** The retention it sets when no round was slow. */
    private final int base;
    /** What the last {@link #WINDOW} synced rounds needed (ms: twice the time from a check to the next fsync's end). */
    private final long[] needs = new long[WINDOW];
    private int nextNeed;
    /** How many synced rounds a slow one keeps the retention raised (10 s at the default period). */
    static final int WINDOW = 100;
    /** The clock the rounds are timed by ({@code System::nanoTime}; a test steps its own). */
    private final java.util.function.LongSupplier nanos;
    /** The file's write count that the last {@code fsync} covered. */
    private long syncedWrites = -1;
    /** When the last round read the write count ({@code System.nanoTime}, 0 before the first). */
    private long lastCheck;
    private volatile boolean stopped;
    /** What the thread waits on between rounds ({@link #stop} wakes it). */
    private final Object sleeper = new Object();
    /** Rounds that synced (tests, bench logs). */
    private volatile long rounds;
    /** Time spent in {@code fsync} and in compaction (bench logs). */
    private volatile long syncNanos;
    private volatile long compactNanos;

    private Compaction(MVStore store, long periodMillis, int retentionMillis, boolean background,
            boolean raises, java.util.function.LongSupplier nanos) {
        this.store = store;
        this.period = periodMillis;
        this.raises = raises;
        this.nanos = nanos;
        this.base = retentionMillis;
        store.setRetentionTime(retentionMillis);
        if (background) {
            thread = new Thread(this::loop, "keyline-state-compaction");
            thread.setDaemon(true);
        } else {
            thread = null;
        }
    }

    /**
     * Starts the compaction of the store behind {@code c} when this process opened the file (its
     * session is local); nothing when another process serves the state (that one keeps it) or when
     * this store has it already.
     */
    static void startIfOpener(Connection c) throws SQLException {
        MVStore store = localStore(c);
        if (store == null) {
            return;
        }
        synchronized (RUNNING) {
            if (RUNNING.containsKey(store) || store.isClosed()) {
                return;
            }
            Compaction h = new Compaction(store, periodMillis, retentionMillis, true, true, System::nanoTime);
            RUNNING.put(store, h);
            h.thread.start();
        }
    }

    /**
     * A housekeeper without its thread, whose rounds a test runs ({@link #round}), with a retention that
     * stays where it is set: a test that measures what compaction frees must not depend on how fast the
     * machine ran its rounds (a CI run failed that way: a slow round had raised it).
     */
    static Compaction manual(Connection c, int retentionMillis) throws SQLException {
        return manual(c, retentionMillis, null);
    }

    /**
     * As {@link #manual(Connection, int)}, timed by {@code nanos}: a round later than the retention allows
     * after the last raises it, as the thread's do ({@code null}: never raises, real time).
     */
    static Compaction manual(Connection c, int retentionMillis, java.util.function.LongSupplier nanos)
            throws SQLException {
        MVStore store = localStore(c);
        if (store == null) {
            throw new IllegalStateException("the state is served by another process");
        }
        Compaction running = RUNNING.get(store);
        if (running != null) {
            running.stop();
        }
        return new Compaction(store, 0, retentionMillis, false, nanos != null,
                nanos != null ? nanos : System::nanoTime);
    }

    /** The running housekeeper of the store behind {@code c}, or {@code null}. */
    static Compaction of(Connection c) throws SQLException {
        MVStore store = localStore(c);
        return store == null ? null : RUNNING.get(store);
    }

    /** The running housekeeper of {@code store}, or {@code null}. */
    static Compaction running(MVStore store) {
        return RUNNING.get(store);
    }

    /** Its thread ({@code null} for a manual one). */
    Thread thread() {
        return thread;
    }

    /** The MVStore of the file when {@code c}'s session is in this process, else {@code null}. */
    static MVStore localStore(Connection c) throws SQLException {
        if (!c.isWrapperFor(JdbcConnection.class)) {
            return null;
        }
        Session s = c.unwrap(JdbcConnection.class).getSession();
        if (s instanceof SessionLocal local) {
            var st = local.getDatabase().getStore();
            return st == null ? null : st.getMvStore();
        }
        return null;
    }

    private void loop() {
        try {
            while (!stopped && !store.isClosed()) {
                synchronized (sleeper) {
                    if (!stopped) {
                        try {
                            sleeper.wait(period);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }
                if (stopped) {
                    return;
                }
                try {
                    round();
                } catch (RuntimeException e) {
                    if (stopped) {
                        return;
                    }
                    if (store.isClosed()) {
                        // H2 closes the store after a failed write (its "panic"), whichever thread wrote
                        Log.LOG.severe("state compaction: H2 closed the state after " + e);
                        return;
                    }
                    Log.LOG.warning("state compaction: " + e + " (the next round tries again)");
                }
            }
        } finally {
            RUNNING.remove(store, this);
            if (!stopped && !store.isClosed()) {
                // ended by an Error: no more fsyncs, so back to H2's own assumption
                store.setRetentionTime(H2_RETENTION_MILLIS);
            }
        }
    }

    /**
     * One round: {@code fsync}, then compact. Skips the {@code fsync} when nothing was written to the
     * file since the last one (and compacts what is left to compact: what it rewrites is synced by the
     * next round).
     *
     * @return whether it synced
     */
    synchronized boolean round() {
        FileStore<?> fs = store.getFileStore();
        if (store.isClosed() || fs == null) {
            return false;
        }
        // read before the fsync: every write counted here has returned, so the fsync covers it (the
        // store's version would not do: H2 raises it before it writes the chunk)
        long check = nanos.getAsLong();
        long writes = fs.getWriteCount();
        if (writes == syncedWrites) {
            lastCheck = check;
            compact();
            return false;
        }
        store.sync();
        long end = nanos.getAsLong();
        syncNanos += end - check;
        syncedWrites = writes;
        rounds++;
        // a chunk written just after the last check is on the disk only now: if that took longer than
        // the retention allows (a slow fsync, a long compaction, a starved thread), raise the retention
        // (for as long as the last WINDOW rounds saw such a stall; then back to the base, or the file would stay
        // as large as the slowest moment of a long-lived process made it)
        if (raises && lastCheck != 0) {
            needs[nextNeed] = 2 * ((end - lastCheck) / 1_000_000);
            nextNeed = (nextNeed + 1) % WINDOW;
            long wanted = base;
            for (long n : needs) {
                wanted = Math.max(wanted, n);
            }
            if (wanted != store.getRetentionTime()) {
                store.setRetentionTime((int) Math.min(Integer.MAX_VALUE, wanted));
            }
        }
        lastCheck = check;
        compact();
        return true;
    }

    private void compact() {
        FileStore<?> fs = store.getFileStore();
        if (fs == null || fs.size() < SMALL_FILE
                || fs.getChunksFillRate() >= TARGET_FILL && store.getFillRate() >= TARGET_FILL) {
            return;
        }
        // H2's own compaction of the file (what it does on close), for a moment: it rewrites the live pages of the
        // emptiest chunks, syncs, moves the last chunks into the holes and cuts the file. It holds the store's lock
        // meanwhile (commits wait); MVStore.compact, which only tries the lock, hardly ever got it under sustained
        // commits. It sets the retention to 0 for its work, which is given back here.
        long t0 = System.nanoTime();
        int retention = store.getRetentionTime();
        try {
            store.compactFile(MOVE_MILLIS);
        } finally {
            store.setRetentionTime(retention);
        }
        compactNanos += System.nanoTime() - t0;
    }

    /** "12 rounds, fsync 340 ms, compaction 95 ms" (bench logs). */
    String summary() {
        return rounds + " rounds, fsync " + syncNanos / 1_000_000 + " ms, compaction " + compactNanos / 1_000_000
                + " ms";
    }

    /** Rounds that synced so far. */
    long rounds() {
        return rounds;
    }

    /**
     * Stops the thread (if any) after its current round. Never by an interrupt: a thread interrupted in
     * the middle of an {@code fsync} or a compaction would close H2's file channel under every session.
     */
    void stop() {
        stopped = true;
        synchronized (sleeper) {
            sleeper.notifyAll();
        }
        RUNNING.remove(store, this);
        if (Thread.currentThread() != thread) {
            synchronized (this) {
                // waits for a round in progress: after stop() no round of this one changes the store
            }
        }
    }

    /** Stops the compaction of stores that are closed (after {@link H2Database#close}). */
    static void forgetClosed() {
        synchronized (RUNNING) {
            for (Compaction h : RUNNING.values().toArray(new Compaction[0])) {
                if (h.store.isClosed()) {
                    h.stop();
                }
            }
        }
    }
}
