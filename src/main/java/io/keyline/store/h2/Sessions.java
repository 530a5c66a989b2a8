package io.keyline.store.h2;

import org.h2.api.ErrorCode;
import org.h2.jdbcx.JdbcConnectionPool;
import org.h2.jdbcx.JdbcDataSource;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;
import javax.sql.ConnectionPoolDataSource;
import javax.sql.PooledConnection;

/**
 * The sessions of one H2 user on the state file: H2's own {@link JdbcConnectionPool}, fed by a source that waits
 * out another process's open and looks at every new physical session before the pool hands it out.
 *
 * <p>Why the wait: with AUTO_SERVER every new physical session goes through H2's lock-file protocol; while another
 * process opens the same state (it holds the lock file but has not published its server address yet) or closes it,
 * H2 answers "Locked by another process" or "Lock file recently modified". That is transient: wait and try again.
 *
 * <p>Why the look: a new session may be the first of this JVM on a file it opens itself - at the open, at a
 * takeover after the serving process died, or when H2's driver opens the file behind a broken pool (AUTO_SERVER
 * tries the file first) - and such a session must find what a killed process left half-committed
 * ({@link LeftoverTransactions}) before anything reads the rows.
 */
final class Sessions {

    /** How long to wait for another process that is opening or closing the same state at the same moment. */
    static final Duration PATIENCE = Duration.ofSeconds(30);

    /** What a new physical session is given before it is used (throwing closes it). */
    interface OnConnect {
        void accept(Connection c) throws SQLException;
    }

    /** What is held while a new physical session is opened ({@link Guard}). */
    interface Held extends AutoCloseable {
        @Override
        void close();

        /** Nothing held. */
        Held NOTHING = () -> { };
    }

    /** Taken before a new physical session is opened, let go after it was looked at. */
    interface Guard {
        Held enter() throws SQLException;

        /** No guard. */
        Guard NONE = () -> Held.NOTHING;
    }

    private Sessions() {
    }

    /** A pool of at most {@code max} sessions of {@code user}; a borrower waits up to 30 s for a free one. */
    static JdbcConnectionPool pool(String url, String user, String password, int max, OnConnect onConnect) {
        return pool(url, user, password, max, Guard.NONE, onConnect);
    }

    /** As {@link #pool(String, String, String, int, OnConnect)}, each new physical session opened under {@code guard}. */
    static JdbcConnectionPool pool(String url, String user, String password, int max, Guard guard,
                                   OnConnect onConnect) {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL(url);
        ds.setUser(user);
        ds.setPassword(password);
        JdbcConnectionPool pool = JdbcConnectionPool.create(new Checked(ds, guard, onConnect));
        pool.setMaxConnections(max);
        pool.setLoginTimeout((int) PATIENCE.toSeconds());
        return pool;
    }

    /** A session of its own, outside any pool, with the same patience. */
    static Connection connect(String url, String user, String password) throws SQLException {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL(url);
        ds.setUser(user);
        ds.setPassword(password);
        return patiently(ds::getConnection);
    }

    private interface Opener<T> {
        T open() throws SQLException;
    }

    private static <T> T patiently(Opener<T> opener) throws SQLException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            try {
                return opener.open();
            } catch (SQLException e) {
                if (!lockRace(e) || System.nanoTime() > deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(100 + ThreadLocalRandom.current().nextInt(200));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** Another process is opening or closing the file at this moment. */
    static boolean lockRace(SQLException e) {
        String msg = e.getMessage() == null ? "" : e.getMessage();
        return e.getErrorCode() == ErrorCode.DATABASE_ALREADY_OPEN_1
                || msg.contains("Lock file recently modified") || msg.contains("Another process was faster");
    }

    /** The process that served the database over AUTO_SERVER exited while we talked to it (or the file closed). */
    static boolean serverWentAway(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && (s.getErrorCode() == ErrorCode.CONNECTION_BROKEN_1
                    || s.getErrorCode() == ErrorCode.DATABASE_CALLED_AT_SHUTDOWN
                    || s.getErrorCode() == ErrorCode.OBJECT_CLOSED)) {
                return true;
            }
            if (t.getMessage() != null && t.getMessage().contains("Connection is broken")) {
                return true;
            }
        }
        return false;
    }

    /** Physical sessions for the pool: patiently opened, each looked at once ({@link OnConnect}). */
    private record Checked(JdbcDataSource source, Guard guard, OnConnect onConnect)
            implements ConnectionPoolDataSource {

        @Override
        public PooledConnection getPooledConnection() throws SQLException {
            try (Held held = guard.enter()) {
                PooledConnection pc = patiently(source::getPooledConnection);
                try {
                    // a handle, closed before the pool listens: the pool's own handles come after
                    try (Connection c = pc.getConnection()) {
                        onConnect.accept(c);
                    }
                    return pc;
                } catch (SQLException | RuntimeException e) {
                    pc.close();
                    throw e;
                }
            }
        }

        @Override
        public PooledConnection getPooledConnection(String user, String password) throws SQLException {
            return getPooledConnection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
            // H2 logs on its own
        }

        @Override
        public void setLoginTimeout(int seconds) {
            // the patience above
        }

        @Override
        public int getLoginTimeout() {
            return (int) PATIENCE.toSeconds();
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getLogger("org.h2");
        }
    }
}
