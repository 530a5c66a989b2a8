package io.keyline.store;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What the state's two session pools share ({@link H2Pool}, {@link PgPool}): at most {@code max} sessions
 * open, idle or handed out; a borrower waits up to {@code waitMillis} for one to be free; the session given
 * back last is handed out first (its caches are warm). Opening a session happens outside the lock.
 */
final class BoundedPool<T> implements AutoCloseable {

    /** Opens a new session. */
    interface Opener<T> {
        T open() throws SQLException;
    }

    /** Closes a session for good. */
    interface Closer<T> {
        void close(T session) throws SQLException;
    }

    private final int max;
    private final long waitMillis;
    private final Opener<T> opener;
    private final Closer<T> closer;
    private final Deque<T> idle = new ArrayDeque<>();
    /** Every session that is open, idle or handed out. */
    private final Set<T> all = new HashSet<>();
    /** Sessions being opened (they count towards {@link #max}). */
    private int opening;
    private boolean closed;

    BoundedPool(int max, long waitMillis, Opener<T> opener, Closer<T> closer) {
        this.max = max;
        this.waitMillis = waitMillis;
        this.opener = opener;
        this.closer = closer;
    }

    /** An idle session, or a new one while fewer than {@code max} are open; else waits for one. */
    T take() throws SQLException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        synchronized (this) {
            while (true) {
                if (closed) {
                    throw new SQLException("the connection pool of the state is closed", "08003");
                }
                T s = idle.pollFirst();
                if (s != null) {
                    return s;
                }
                if (all.size() + opening < max) {
                    opening++;
                    break;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new SQLException("no free database connection after " + waitMillis + " ms (" + max
                            + " in use)", "08001");
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("interrupted while waiting for a database connection", "08001", e);
                }
            }
        }
        T s = null;
        try {
            s = opener.open();
            return s;
        } finally {
            synchronized (this) {
                opening--;
                if (s != null) {
                    all.add(s);
                }
                notifyAll();
            }
        }
    }

    /** Makes a handed-out session idle again; one the pool no longer knows, or a closed pool's, is closed. */
    void giveBack(T s) {
        synchronized (this) {
            if (!all.contains(s)) {
                return; // discarded already (reported broken)
            }
            if (!closed && !idle.contains(s)) {
                idle.addFirst(s);
                notifyAll();
                return;
            }
        }
        discard(s);
    }

    /** Closes a session for good (broken, or not fit to hand out again). */
    void discard(T s) {
        synchronized (this) {
            all.remove(s);
            idle.remove(s);
            notifyAll();
        }
        try {
            closer.close(s);
        } catch (SQLException ignored) {
            // a broken session may not close cleanly; it is gone either way
        }
    }

    /** Closes the idle sessions (after the server went away: the next ones are new). */
    void evictIdle() {
        Deque<T> gone;
        synchronized (this) {
            gone = new ArrayDeque<>(idle);
            idle.clear();
            all.removeAll(gone);
            notifyAll();
        }
        for (T s : gone) {
            try {
                closer.close(s);
            } catch (SQLException ignored) {
                // already broken
            }
        }
    }

    /** How many sessions are open (idle, handed out or being opened). */
    synchronized int open() {
        return all.size() + opening;
    }

    /** Refuses new borrowers and closes the idle sessions; one still handed out is closed when given back. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        evictIdle();
    }
}
