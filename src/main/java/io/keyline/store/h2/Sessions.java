package io.keyline.store.h2;

import org.h2.api.ErrorCode;
import org.h2.jdbc.JdbcConnection;
import org.h2.jdbcx.JdbcConnectionPool;
import org.h2.jdbcx.JdbcDataSource;
import org.h2.message.DbException;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;
import javax.sql.ConnectionEvent;
import javax.sql.ConnectionEventListener;
import javax.sql.ConnectionPoolDataSource;
import javax.sql.PooledConnection;
import javax.sql.StatementEventListener;

/**
 * The sessions of one H2 user on the state file: H2's own {@link JdbcConnectionPool}, fed by a source that waits
 * out another process's open, looks at every new physical session before the pool hands it out, and hands each
 * session out through a handle that keeps what the session has parsed.
 *
 * <p>Why the wait: with AUTO_SERVER every new physical session goes through H2's lock-file protocol; while another
 * process opens the same state (it holds the lock file but has not published its server address yet) or closes it,
 * H2 answers "Locked by another process" or "Lock file recently modified". That is transient: wait and try again.
 *
 * <p>Why the look: a new session may be the first of this JVM on a file it opens itself - at the open, at a
 * takeover after the serving process died, or when H2's driver opens the file behind a broken pool (AUTO_SERVER
 * tries the file first) - and such a session must find what a killed process left half-committed
 * ({@link LeftoverTransactions}) before anything reads the rows.
 *
 * <p>Why our own handle ({@link Reusable}): an H2 session keeps the statements it parsed (its query cache) until it
 * rolls back, and the handle of H2's {@code JdbcXAConnection} rolls the session back when the pool hands it out and
 * again when it is given back, transaction or not: with it every statement prepared on a pooled session is parsed
 * again (a tenth of the engine's time, in H2's parser). Our handle is H2's with one difference: only a session
 * given back outside auto-commit (a transaction may be open) is rolled back. {@code SessionsTest} fails the day H2's
 * own handle stops emptying the cache. HikariCP keeps the cache too, but over H2 a session still out when its pool
 * closes stays open for good (H2's {@code Connection.abort} does nothing, and Hikari forgets the session), which
 * after a takeover would keep the file open in this process; it also opens new sessions on a thread of its own,
 * which the open lock a takeover holds on its thread does not cover ({@link Guard}), and makes a borrower whose
 * new session cannot be opened wait out its whole timeout instead of failing with the reason.
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

    /**
     * The process that serves the database over AUTO_SERVER is closing it while we talk to it: the database answers
     * that it is closed, or that our open transaction is rolled back (the close rolls back every session's). Only
     * a session served by another process may read these so: in a database this process opened itself they mean
     * it was closed here.
     */
    static boolean serverClosing(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && (s.getErrorCode() == ErrorCode.DATABASE_IS_CLOSED
                    || s.getErrorCode() == ErrorCode.GENERAL_ERROR_1
                    && String.valueOf(s.getMessage()).contains("has status ROLLED_BACK"))) {
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
                JdbcConnection session = (JdbcConnection) patiently(source::getConnection);
                try {
                    onConnect.accept(session);
                    // H2 prepares COMMIT and ROLLBACK once per connection object (they are not in the query
                    // cache) and a handle starts with its session's: prepared here, no handle parses them again
                    session.rollback();
                    session.commit();
                    return new Reusable(session);
                } catch (SQLException | RuntimeException e) {
                    session.close();
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

    /**
     * One physical session of the pool, handed out through one {@link Handle} at a time. Taking it does not roll
     * the session back: it came back in auto-commit, with no transaction open.
     */
    private static final class Reusable implements PooledConnection {
        private final JdbcConnection session;
        private final List<ConnectionEventListener> listeners = new CopyOnWriteArrayList<>();

        Reusable(JdbcConnection session) {
            this.session = session;
        }

        @Override
        public Connection getConnection() {
            return new Handle(session, this);
        }

        /** The pool takes the session back. */
        private void givenBack() {
            ConnectionEvent event = new ConnectionEvent(this);
            for (ConnectionEventListener l : listeners) {
                l.connectionClosed(event);
            }
        }

        @Override
        public void close() throws SQLException {
            session.close();
        }

        @Override
        public void addConnectionEventListener(ConnectionEventListener listener) {
            listeners.add(listener);
        }

        @Override
        public void removeConnectionEventListener(ConnectionEventListener listener) {
            listeners.remove(listener);
        }

        @Override
        public void addStatementEventListener(StatementEventListener listener) {
            // H2's pool listens to connections only
        }

        @Override
        public void removeStatementEventListener(StatementEventListener listener) {
            // as above
        }
    }

    /**
     * What a borrower holds: H2's connection over the pooled session (as {@code JdbcXAConnection}'s handle is).
     * Closing it gives the session back, rolled back only when it is outside auto-commit; used after that, it
     * answers as a closed connection does.
     */
    private static final class Handle extends JdbcConnection {
        private final Reusable owner;
        private volatile boolean closed;

        Handle(JdbcConnection session, Reusable owner) {
            super(session);
            this.owner = owner;
        }

        @Override
        public void close() {
            lock();
            try {
                if (closed) {
                    return;
                }
                try {
                    if (!getAutoCommit()) {
                        rollback();
                        setAutoCommit(true);
                    }
                } catch (SQLException e) {
                    // a broken session: its next borrower finds out (as with H2's own handle)
                }
                closed = true;
            } finally {
                unlock();
            }
            owner.givenBack();
        }

        @Override
        public boolean isClosed() throws SQLException {
            return closed || super.isClosed();
        }

        @Override
        protected void checkClosed() {
            if (closed) {
                throw DbException.get(ErrorCode.OBJECT_CLOSED);
            }
            super.checkClosed();
        }
    }
}
