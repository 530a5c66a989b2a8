package io.keyline.store.postgres;

import io.keyline.core.PrivateFiles;
import io.keyline.core.StateUnavailableException;
import io.keyline.store.Database;
import io.keyline.store.Dialect;
import io.keyline.store.Migrations;
import io.keyline.store.StateLocation;
import io.keyline.text.Said;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.postgresql.ds.PGSimpleDataSource;
import org.postgresql.ds.common.BaseDataSource;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * A state in a PostgreSQL database that several machines share. The same migrations as the
 * embedded state, run under an advisory lock (instead of the state folder's lock file: processes on
 * different machines share no file); key columns sort byte-wise ({@code COLLATE "C"}, as on H2).
 *
 * <p>Commits are durable when they return ({@code synchronous_commit} is set on for Keyline's sessions,
 * whatever the server's default), so "step started" is safe before an effect without an extra sync.
 * Processes that change keys announce it on the channel {@code keyline_state} (at most every 200 ms),
 * and consoles listen to it instead of waiting for their next poll.
 */
public final class PostgresDatabase implements Database {

    /** The channel that says "keys or workers changed" (payload: nothing worth parsing). */
    static final String CHANNEL = "keyline_state";
    private static final Logger LOG = Logger.getLogger(PostgresDatabase.class.getName());

    private final StateLocation.Postgres where;
    /** The sessions (HikariCP): a backend process per connection is too slow to start for every read. */
    private final HikariDataSource pool;
    private final PGSimpleDataSource direct;
    private final AtomicBoolean dirty = new AtomicBoolean();
    private ScheduledExecutorService announcer;
    private volatile boolean closed;

    private PostgresDatabase(StateLocation.Postgres where, HikariDataSource pool, PGSimpleDataSource direct) {
        this.where = where;
        this.pool = pool;
        this.direct = direct;
    }

    /** Opens (migrating, under an advisory lock) the database {@code where} names; run logs go to its local folder. */
    public static PostgresDatabase open(StateLocation.Postgres where) {
        return open(where, true);
    }

    /**
     * Opens the database {@code where} names; with {@code create} false, a database that holds no Keyline state
     * yet (no schema history) is refused instead of being made one.
     */
    public static PostgresDatabase open(StateLocation.Postgres where, boolean create) {
        try {
            PrivateFiles.ensurePrivateDirectory(where.logs());
        } catch (IOException e) {
            throw new StateUnavailableException(Said.of("core.store.postgres.cannotCreateLogs", where.logs().toString(),
                    String.valueOf(e.getMessage())), e);
        }
        PGSimpleDataSource direct = new PGSimpleDataSource();
        configure(direct, where);
        HikariConfig config = new HikariConfig();
        config.setDataSource(direct);
        config.setPoolName("keyline-state");
        config.setMaximumPoolSize(16);
        config.setMinimumIdle(0); // a one-shot command keeps no session it does not use
        config.setConnectionTimeout(30_000);
        config.setInitializationFailTimeout(-1); // the migration below says what is wrong, in our words
        HikariDataSource pool = new HikariDataSource(config);
        PostgresDatabase db = new PostgresDatabase(where, pool, direct);
        try {
            db.migrate(create);
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
                throw new IllegalArgumentException(Said.of("core.store.postgres.badSetting", where.display(),
                        e.getKey(), String.valueOf(ex.getMessage())).text(), ex);
            }
        }
    }

    @Override
    public Dialect dialect() {
        return Dialect.POSTGRESQL;
    }

    @Override
    public String where() {
        return where.display();
    }

    @Override
    public java.nio.file.Path stateDir() {
        return where.logs();
    }

    /** A connection of the pool (auto-commit). */
    @Override
    public Connection connection() throws SQLException {
        return pool.getConnection();
    }

    /** The user of the URL owns the tables: the same sessions. */
    @Override
    public Connection adminConnection() throws SQLException {
        return connection();
    }

    /** A connection of its own, outside the pool: for a session advisory lock or {@code LISTEN}. */
    @Override
    public Connection dedicated() throws SQLException {
        return direct.getConnection();
    }

    /** A commit returned after the WAL was flushed ({@code synchronous_commit=on}): already durable. */
    @Override
    public void sync() {
    }

    /**
     * The server restarted or the network dropped (SQLSTATE class 08, or 57P01-03: the server is shutting down):
     * the work is tried again on a new connection; every change is guarded by a version, so nothing applies twice.
     */
    @Override
    public boolean connectionLost(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("08") || state.equals("57P01") || state.equals("57P02")
                || state.equals("57P03"));
    }

    /** The server went away: connections kept idle are dropped, the next ones are new. */
    @Override
    public void reconnect() {
        pool.getHikariPoolMXBean().softEvictConnections();
    }

    /**
     * Migrates to the current schema, one process at a time across machines: a session advisory lock
     * on its own connection is held while Flyway runs (Flyway's baseline on an empty database is not
     * safe against a second process doing the same at the same moment).
     */
    private void migrate(boolean create) {
        try (Connection lock = dedicated()) {
            try (PreparedStatement ps = lock.prepareStatement("SELECT pg_advisory_lock(?, ?)")) {
                ps.setInt(1, Dialect.LOCK_SPACE);
                ps.setInt(2, Dialect.MIGRATION_LOCK);
                ps.execute();
            }
            checkServer(lock);
            if (Migrations.current(lock, Migrations.POSTGRES)) {
                return; // closing this connection (its own, not pooled) releases the lock
            }
            if (!create && !hasSchemaHistory(lock)) {
                throw new StateUnavailableException(Said.of("core.store.postgres.noState", where.display()), null);
            }
            Flyway flyway = Migrations.flyway(lock, pool, "classpath:db/migration", "classpath:db/postgresql");
            try {
                flyway.migrate();
            } catch (FlywayException e) {
                Said privilege = privilegeProblem(e);
                if (privilege != null) {
                    throw new StateUnavailableException(privilege, e);
                }
                throw new StateUnavailableException(Said.of("core.state.cannotMigrate", where.display(),
                        Database.firstLine(e.getMessage())), e);
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

    /** Whether Keyline (Flyway) has ever migrated this database: its schema history table exists. */
    private static boolean hasSchemaHistory(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM information_schema.tables "
                + "WHERE table_schema = current_schema() AND table_name = 'flyway_schema_history'");
             java.sql.ResultSet rs = ps.executeQuery()) {
            return rs.next();
        }
    }

    private void checkServer(Connection c) throws SQLException {
        int version = c.getMetaData().getDatabaseMajorVersion();
        if (version < 12) {
            throw new StateUnavailableException(Said.of("core.store.postgres.tooOld", where.host(),
                    String.valueOf(where.port()), String.valueOf(version)), null);
        }
    }

    private Said privilegeProblem(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && "42501".equals(s.getSQLState())) {
                return Said.of("core.store.postgres.mayNotCreate", where.user(), where.database(),
                        Database.firstLine(s.getMessage()));
            }
        }
        return null;
    }

    /** A clear message for a connection that failed: who, where, and what to do. */
    @Override
    public Said describe(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String at = where.host() + ":" + where.port();
        String msg = Database.firstLine(e.getMessage());
        if (state.equals("28P01") || state.equals("28000")) {
            return where.note() == null ? Said.of("core.store.postgres.refused", at, where.user(), msg)
                    : Said.of("core.store.postgres.refusedNote", at, where.user(), msg, where.note());
        }
        if (state.equals("3D000")) {
            return Said.of("core.store.postgres.noDatabase", where.database(), at, where.user());
        }
        if (state.startsWith("08")) {
            return Said.of("core.store.postgres.unreachable", at, msg);
        }
        return Said.of("core.store.postgres.failed", where.display(), msg);
    }

    /** Something changed keys or workers: consoles hear about it within 200 ms (one NOTIFY for many changes). */
    @Override
    public void touched() {
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
    @Override
    public AutoCloseable listen(Runnable onChange) {
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
        if (closed) {
            return;
        }
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
}
