package io.keyline.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import javax.sql.ConnectionEvent;
import javax.sql.ConnectionEventListener;
import javax.sql.ConnectionPoolDataSource;
import javax.sql.PooledConnection;

/**
 * A small pool of physical PostgreSQL connections (what H2's {@code JdbcConnectionPool} is for the
 * embedded state): a backend process per connection is too slow to start for every read. A handle's
 * {@code close()} returns its connection; one the driver reports broken is thrown away. No
 * dependency beyond the driver's {@link ConnectionPoolDataSource}.
 */
final class PgPool implements AutoCloseable {

    private final ConnectionPoolDataSource source;
    private final int max;
    private final long waitMillis;
    private final Deque<PooledConnection> idle = new ArrayDeque<>();
    /** Every physical connection that is open (idle or handed out). */
    private final java.util.Set<PooledConnection> all = new java.util.HashSet<>();
    /** Physical connections being opened (they count towards {@link #max}). */
    private int opening;
    private boolean closed;

    PgPool(ConnectionPoolDataSource source, int max, long waitMillis) {
        this.source = source;
        this.max = max;
        this.waitMillis = waitMillis;
    }

    /** A connection in auto-commit mode; {@code close()} gives it back. */
    Connection connection() throws SQLException {
        PooledConnection pc = take();
        try {
            Connection c = pc.getConnection();
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
            return c;
        } catch (SQLException e) {
            discard(pc);
            throw e;
        }
    }

    private PooledConnection take() throws SQLException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        synchronized (this) {
            while (true) {
                if (closed) {
                    throw new SQLException("the connection pool of the state is closed", "08003");
                }
                PooledConnection pc = idle.pollFirst();
                if (pc != null) {
                    return pc;
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
        try {
            PooledConnection pc = source.getPooledConnection();
            synchronized (this) {
                opening--;
                all.add(pc);
            }
            pc.addConnectionEventListener(new ConnectionEventListener() {
                @Override
                public void connectionClosed(ConnectionEvent event) {
                    giveBack(pc);
                }

                @Override
                public void connectionErrorOccurred(ConnectionEvent event) {
                    discard(pc);
                }
            });
            return pc;
        } catch (SQLException | RuntimeException e) {
            synchronized (this) {
                opening--;
                notifyAll();
            }
            throw e;
        }
    }

    private void giveBack(PooledConnection pc) {
        synchronized (this) {
            if (!all.contains(pc)) {
                return; // discarded already (the driver reported it broken)
            }
            if (!closed && !idle.contains(pc)) {
                idle.addFirst(pc);
                notifyAll();
                return;
            }
        }
        discard(pc);
    }

    private void discard(PooledConnection pc) {
        synchronized (this) {
            all.remove(pc);
            idle.remove(pc);
            notifyAll();
        }
        try {
            pc.close();
        } catch (SQLException ignored) {
            // a broken connection may not close cleanly; it is gone either way
        }
    }

    /** Closes the idle connections (after the server went away: the next ones are new). */
    void evictIdle() {
        Deque<PooledConnection> gone;
        synchronized (this) {
            gone = new ArrayDeque<>(idle);
            idle.clear();
            all.removeAll(gone);
            notifyAll();
        }
        for (PooledConnection pc : gone) {
            try {
                pc.close();
            } catch (SQLException ignored) {
                // already broken
            }
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        evictIdle();
    }
}
