package io.keyline.store;

import io.keyline.core.PrivateFiles;
import io.keyline.core.StateUnavailableException;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.postgresql.ds.PGConnectionPoolDataSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.postgresql.ds.common.BaseDataSource;

import java.io.IOException;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A state in a PostgreSQL database that several machines share (SPEC §8). The same migrations as the
 * embedded state, run under an advisory lock (instead of the state folder's lock file: processes on
 * different machines share no file); key columns sort byte-wise ({@code COLLATE "C"}, as on H2).
 *
 * <p>Commits are durable when they return ({@code synchronous_commit} is set on for Keyline's sessions,
 * whatever the server's default), so "step started" is safe before an effect without an extra sync.
 * Processes that change keys announce it on the channel {@code keyline_state} (at most every 200 ms),
 * and consoles listen to it instead of waiting for their next poll.
 */
final class PostgresDatabase implements AutoCloseable {

    /** The channel that says "keys or workers changed" (payload: nothing worth parsing). */
    static final String CHANNEL = "keyline_state";
    private static final Logger LOG = Logger.getLogger(PostgresDatabase.class.getName());

    private final StateLocation.Postgres where;
    private final PgPool pool;
    private final PGSimpleDataSource direct;
    private final AtomicBoolean dirty = new AtomicBoolean();
    private ScheduledExecutorService announcer;
    private volatile boolean closed;

    private PostgresDatabase(StateLocation.Postgres where, PgPool pool, PGSimpleDataSource direct) {
        this.where = where;
        this.pool = pool;
        this.direct = direct;
    }

    static PostgresDatabase open(StateLocation.Postgres where) {
        try {
            PrivateFiles.ensurePrivateDirectory(where.logs());
        } catch (IOException e) {
            throw new StateUnavailableException("cannot create the local folder for run logs " + where.logs() + ": "
                    + e.getMessage(), e);
        }
        PGConnectionPoolDataSource pooled = new PGConnectionPoolDataSource();
        PGSimpleDataSource direct = new PGSimpleDataSource();
        configure(pooled, where);
        configure(direct, where);
        PgPool pool = new PgPool(pooled, 16, 30_000);
        PostgresDatabase db = new PostgresDatabase(where, pool, direct);
        try {
            db.migrate();
            return db;
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    private static void configure(BaseDataSource ds, StateLocation.Postgres where) {
        ds.setUrl(where.jdbcUrl());
        ds.setUser(where.user());
        if (where.password() != null) {
            ds.setPassword(where.password());
        }
        ds.setApplicationName("keyline");
        ds.setTcpKeepAlive(true);
        ds.setConnectTimeout(10);
        ds.setReWriteBatchedInserts(true);
        // durable commits whatever the server's default; a lock waited for is bounded as on H2
        ds.setOptions("-c synchronous_commit=on -c lock_timeout=10000");
        for (var e : where.settings().entrySet()) {
            try {
                ds.setProperty(e.getKey(), e.getValue());
            } catch (SQLException ex) {
                throw new IllegalArgumentException("--state " + where.display() + ": setting " + e.getKey() + ": "
                        + ex.getMessage(), ex);
            }
        }
    }

    /** A connection of the pool (auto-commit). */
    Connection connection() throws SQLException {
        return pool.connection();
    }

    /** A connection of its own, outside the pool: for a session advisory lock or {@code LISTEN}. */
    Connection dedicated() throws SQLException {
        return direct.getConnection();
    }

    StateLocation.Postgres where() {
        return where;
    }

    /** The server went away: connections kept idle are dropped, the next ones are new. */
    void connectionsLost() {
        pool.evictIdle();
    }

    /**
     * Migrates to the current schema, one process at a time across machines: a session advisory lock
     * on its own connection is held while Flyway runs (Flyway's baseline on an empty database is not
     * safe against a second process doing the same at the same moment).
     */
    private void migrate() {
        try (Connection lock = dedicated()) {
            try (PreparedStatement ps = lock.prepareStatement("SELECT pg_advisory_lock(?, ?)")) {
                ps.setInt(1, Dialect.LOCK_SPACE);
                ps.setInt(2, Dialect.MIGRATION_LOCK);
                ps.execute();
            }
            checkServer(lock);
            if (Migrations.current(lock, Migrations.POSTGRES)) {
                return; // closing this session (a connection of its own, not pooled) releases the lock
            }
            Migrations.FLYWAY_RUNS.incrementAndGet();
            Flyway flyway = Flyway.configure()
                    .dataSource(new PoolDataSource(this))
                    .locations("classpath:db/migration", "classpath:db/postgresql")
                    .baselineOnMigrate(true)
                    .baselineVersion("0")
                    .loggers("slf4j")
                    .load();
            try {
                flyway.migrate();
            } catch (FlywayException e) {
                String privilege = privilegeProblem(e);
                if (privilege != null) {
                    throw new StateUnavailableException(privilege, e);
                }
                throw new StateUnavailableException("cannot migrate the state in " + where.display() + ": "
                        + Database.firstLine(e.getMessage()), e);
            } finally {
                try (PreparedStatement ps = lock.prepareStatement("SELECT pg_advisory_unlock(?, ?)")) {
                    ps.setInt(1, Dialect.LOCK_SPACE);
                    ps.setInt(2, Dialect.MIGRATION_LOCK);
                    ps.execute();
                } catch (SQLException ignored) {
                    // the lock ends with the session, which ends now
                }
            }
        } catch (SQLException e) {
            throw new StateUnavailableException(describe(e), e);
        }
    }

    private void checkServer(Connection c) throws SQLException {
        int version = c.getMetaData().getDatabaseMajorVersion();
        if (version < 12) {
            throw new StateUnavailableException("the PostgreSQL server at " + where.host() + ":" + where.port()
                    + " is version " + version + "; Keyline needs PostgreSQL 12 or later", null);
        }
    }

    private String privilegeProblem(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && "42501".equals(s.getSQLState())) {
                return "user " + where.user() + " may not create Keyline's tables in database " + where.database()
                        + " (" + Database.firstLine(s.getMessage()) + "): make it the database's owner "
                        + "(ALTER DATABASE " + where.database() + " OWNER TO " + where.user() + ")";
            }
        }
        return null;
    }

    /** A clear message for a connection that failed: who, where, and what to do. */
    String describe(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String at = where.host() + ":" + where.port();
        String msg = Database.firstLine(e.getMessage());
        if (state.equals("28P01") || state.equals("28000")) {
            return "PostgreSQL at " + at + " refused user " + where.user() + " (" + msg + "): give the password in "
                    + "PGPASSWORD, ~/.pgpass or the URL's password=" + (where.note() == null ? "" : "; " + where.note());
        }
        if (state.equals("3D000")) {
            return "database " + where.database() + " does not exist on PostgreSQL at " + at + ": create it "
                    + "(createdb -O " + where.user() + " " + where.database() + ")";
        }
        if (state.startsWith("08")) {
            return "cannot reach PostgreSQL at " + at + " (" + msg + "): is the server running, and does it accept "
                    + "connections from this machine?";
        }
        return "the state in " + where.display() + " failed: " + msg;
    }

    /** Something changed keys or workers: consoles hear about it within 200 ms (one NOTIFY for many changes). */
    void touched() {
        if (closed) {
            return;
        }
        dirty.set(true);
        synchronized (this) {
            if (announcer == null) {
                announcer = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "keyline-state-notify");
                    t.setDaemon(true);
                    return t;
                });
                announcer.scheduleWithFixedDelay(this::announce, 200, 200, TimeUnit.MILLISECONDS);
            }
        }
    }

    private void announce() {
        if (!dirty.getAndSet(false)) {
            return;
        }
        try (Connection c = connection(); Statement st = c.createStatement()) {
            st.execute("NOTIFY " + CHANNEL);
        } catch (SQLException e) {
            // consoles still poll; the next change announces again
            LOG.fine(() -> "NOTIFY failed: " + e.getMessage());
        }
    }

    /**
     * Calls {@code onChange} (on a daemon thread of its own) whenever a process announces a change,
     * until the returned handle is closed. A lost connection is opened again (after 1 s, then up to 30 s).
     */
    AutoCloseable listen(Runnable onChange) {
        AtomicBoolean stop = new AtomicBoolean();
        Thread t = new Thread(() -> {
            long backoff = 1000;
            while (!stop.get() && !closed) {
                try (Connection c = dedicated(); Statement st = c.createStatement()) {
                    st.execute("LISTEN " + CHANNEL);
                    backoff = 1000;
                    PGConnection pg = c.unwrap(PGConnection.class);
                    onChange.run(); // whatever happened while not listening
                    while (!stop.get() && !closed) {
                        PGNotification[] n = pg.getNotifications(1000);
                        if (n != null && n.length > 0) {
                            onChange.run();
                        }
                    }
                } catch (SQLException | RuntimeException e) {
                    try {
                        Thread.sleep(backoff);
                    } catch (InterruptedException ie) {
                        return;
                    }
                    backoff = Math.min(30_000, backoff * 2);
                }
            }
        }, "keyline-state-listen");
        t.setDaemon(true);
        t.start();
        return () -> {
            stop.set(true);
            t.interrupt();
        };
    }

    @Override
    public void close() {
        closed = true;
        synchronized (this) {
            if (announcer != null) {
                announcer.shutdown();
                try {
                    announcer.awaitTermination(1, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                announce();
            }
        }
        pool.close();
    }

    /** The pool as a {@link DataSource}, for Flyway. */
    private static final class PoolDataSource implements DataSource {
        private final PostgresDatabase db;

        PoolDataSource(PostgresDatabase db) {
            this.db = db;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return db.connection();
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return db.connection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
            // Flyway logs through SLF4J
        }

        @Override
        public void setLoginTimeout(int seconds) {
            // the pool's data source has its own connect timeout
        }

        @Override
        public int getLoginTimeout() {
            return 10;
        }

        @Override
        public Logger getParentLogger() {
            return LOG;
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }

    /** Runs {@code sql} returning one long (a helper for counts). */
    static long single(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
