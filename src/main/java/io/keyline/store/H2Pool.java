package io.keyline.store;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The embedded state's pool of physical connections (the app user's sessions), handed out behind a thin
 * handle whose {@code close()} gives the session back.
 *
 * <p>Why not H2's {@code JdbcConnectionPool} [issue 14]: every checkout there rolls the session back, wraps
 * it in a new {@code JdbcConnection} and rolls back again on close; the engine takes a connection several
 * times per key (the pause read before each step, each commit), and B1 measured a pooled
 * {@code jobControl} read at 13–25 µs against 2 µs for the same statement on a connection kept open. Here a
 * session goes back as it was handed out: an open transaction is rolled back and auto-commit restored, the
 * isolation level reset if the borrower changed it; one whose use failed is closed rather than reused. The
 * most recently returned session is handed out first, so the hot path keeps finding its statements in that
 * session's query cache.
 */
final class H2Pool implements AutoCloseable {

    private final BoundedPool<Connection> pool;

    /** What a new physical connection is given before it is used (throwing closes it). */
    interface OnConnect {
        void accept(Connection c) throws SQLException;
    }

    H2Pool(DataSource source, int max, long waitMillis) {
        this(source, max, waitMillis, c -> { });
    }

    H2Pool(DataSource source, int max, long waitMillis, OnConnect onConnect) {
        // with the lock-file patience of Database.connect: another process may be opening the state
        this.pool = new BoundedPool<>(max, waitMillis, () -> {
            Connection c = Database.connect(source);
            try {
                onConnect.accept(c);
            } catch (SQLException | RuntimeException e) {
                c.close();
                throw e;
            }
            return c;
        }, Connection::close);
    }

    /** How many sessions are open: after {@link #close}, the ones still handed out. */
    int open() {
        return pool.open();
    }

    /** A connection in auto-commit mode; {@code close()} gives it back. */
    Connection connection() throws SQLException {
        return new PooledConnection(pool.take(), this);
    }

    /**
     * A session its borrower closed ({@link PooledConnection}): back to the pool the way a new one is, or
     * closed when its use failed or it cannot be restored.
     */
    void handBack(Connection physical, boolean failed, boolean isolationChanged) {
        if (!failed && restore(physical, isolationChanged)) {
            pool.giveBack(physical);
        } else {
            pool.discard(physical);
        }
    }

    /** Puts a session back the way a new one is; false when it cannot be (it is closed instead). */
    private static boolean restore(Connection c, boolean isolationChanged) {
        try {
            if (c.isClosed()) {
                return false;
            }
            if (!c.getAutoCommit()) {
                c.rollback();
                c.setAutoCommit(true);
            }
            if (isolationChanged) {
                c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            }
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * Closes the idle connections and refuses new ones; a connection still handed out is closed when it
     * is given back.
     */
    @Override
    public void close() {
        pool.close();
    }
}
