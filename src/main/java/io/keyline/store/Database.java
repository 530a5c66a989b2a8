package io.keyline.store;

import io.keyline.core.StateUnavailableException;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.h2.api.ErrorCode;
import org.h2.jdbcx.JdbcConnectionPool;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The embedded H2 database in the state folder, migrated by Flyway.
 *
 * <p>Opened with {@code AUTO_SERVER=TRUE} so that the console and a CLI run can share one state
 * folder (the first process serves the others over loopback), and with {@code WRITE_DELAY=0} so
 * that every commit reaches the file before the call returns: H2's default of 500 ms would lose
 * a committed "step started" when the process is killed right after an unsafe request went out.
 */
public final class Database implements AutoCloseable {

    /** Settings appended to every URL; PostgreSQL mode keeps the SQL portable. */
    static final String SETTINGS = ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH"
            + ";WRITE_DELAY=0;AUTO_SERVER=TRUE;LOCK_TIMEOUT=10000";

    private volatile JdbcConnectionPool pool;
    private final Path stateDir;

    private Database(JdbcConnectionPool pool, Path stateDir) {
        this.pool = pool;
        this.stateDir = stateDir;
    }

    /** Opens (creating if needed) {@code stateDir/keyline.mv.db} and migrates it to the current schema. */
    public static Database open(Path stateDir) {
        Path dir = stateDir.toAbsolutePath().normalize();
        try {
            Files.createDirectories(dir);
        } catch (AccessDeniedException e) {
            throw new StateUnavailableException("cannot create state folder " + dir + ": permission denied", e);
        } catch (IOException e) {
            throw new StateUnavailableException("cannot create state folder " + dir + ": " + e.getMessage(), e);
        }
        if (!Files.isWritable(dir)) {
            throw new StateUnavailableException("state folder " + dir + " is not writable", null);
        }
        // Opening and migrating is serialized across processes (and threads) by a lock file: two
        // processes migrating at once would both create the tables, and H2 commits DDL at once.
        synchronized (OPENING.computeIfAbsent(dir, d -> new Object())) {
            try (FileChannel ch = FileChannel.open(dir.resolve("keyline.open.lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); FileLock lock = ch.lock()) {
                return openLocked(dir);
            } catch (IOException e) {
                throw new StateUnavailableException("cannot lock " + dir.resolve("keyline.open.lock") + ": "
                        + e.getMessage(), e);
            }
        }
    }

    private static final java.util.Map<Path, Object> OPENING = new java.util.concurrent.ConcurrentHashMap<>();

    private static Database openLocked(Path dir) {
        return new Database(pool(dir, true), dir);
    }

    /** A pool on the state, migrated when {@code migrate}; the caller holds the open lock. */
    private static JdbcConnectionPool pool(Path dir, boolean migrate) {
        String url = "jdbc:h2:file:" + dir.resolve("keyline") + SETTINGS;
        for (int attempt = 1; ; attempt++) {
            Recovery.repairIfUnclean(dir.resolve("keyline.mv.db"));
            JdbcConnectionPool pool = JdbcConnectionPool.create(url, "keyline", "");
            pool.setMaxConnections(16);
            try (Connection c = connect(pool)) {
                c.isValid(1);
            } catch (SQLException e) {
                pool.dispose();
                if (serverWentAway(e) && attempt < 5) {
                    continue;
                }
                throw new StateUnavailableException(describe(dir, e), e);
            }
            if (!migrate) {
                return pool;
            }
            try {
                migrate(pool);
                return pool;
            } catch (FlywayException e) {
                pool.dispose();
                if (serverWentAway(e) && attempt < 5) {
                    continue;
                }
                String full = diskFull(dir, e);
                throw new StateUnavailableException(full != null ? full : "cannot migrate the state in " + dir + ": "
                        + firstLine(e.getMessage()), e);
            }
        }
    }

    /**
     * Migrates to the current schema. The migrations are idempotent ({@code IF NOT EXISTS}), so a
     * migration that a killed process left half done is repaired and run again.
     */
    private static void migrate(JdbcConnectionPool pool) {
        Flyway flyway = Flyway.configure()
                .dataSource(new PatientDataSource(pool))
                .locations("classpath:db/migration")
                // Tables without a history table can only be a first migration cut short (the history
                // table may not have been written yet): start the history at 0 and run every migration.
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .loggers("slf4j")
                .load();
        try {
            flyway.migrate();
        } catch (FlywayException e) {
            if (serverWentAway(e)) {
                throw e;
            }
            flyway.repair();
            flyway.migrate();
        }
    }

    /** The process that served the database over AUTO_SERVER exited while we talked to it. */
    private static boolean serverWentAway(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && (s.getErrorCode() == ErrorCode.CONNECTION_BROKEN_1
                    || s.getErrorCode() == ErrorCode.DATABASE_CALLED_AT_SHUTDOWN)) {
                return true;
            }
            if (t.getMessage() != null && t.getMessage().contains("Connection is broken")) {
                return true;
            }
        }
        return false;
    }

    /** How long to wait for another process that is opening the same state at the same moment. */
    static final Duration OPEN_PATIENCE = Duration.ofSeconds(30);

    /**
     * A connection from the pool. With AUTO_SERVER every new physical connection goes through H2's
     * lock-file protocol; while another process is opening the same state (it holds the lock file
     * but has not published its server address yet) H2 answers "Locked by another process" or
     * "Lock file recently modified". That is transient: wait and try again instead of failing.
     */
    static Connection connect(JdbcConnectionPool pool) throws SQLException {
        long deadline = System.nanoTime() + OPEN_PATIENCE.toNanos();
        while (true) {
            try {
                return pool.getConnection();
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

    static boolean lockRace(SQLException e) {
        String msg = e.getMessage() == null ? "" : e.getMessage();
        return e.getErrorCode() == ErrorCode.DATABASE_ALREADY_OPEN_1
                || msg.contains("Lock file recently modified") || msg.contains("Another process was faster");
    }

    /** The pool with {@link #connect}'s patience, for Flyway. */
    private static final class PatientDataSource implements DataSource {
        private final JdbcConnectionPool pool;

        PatientDataSource(JdbcConnectionPool pool) {
            this.pool = pool;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return connect(pool);
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return connect(pool);
        }

        @Override
        public PrintWriter getLogWriter() throws SQLException {
            return pool.getLogWriter();
        }

        @Override
        public void setLogWriter(PrintWriter out) throws SQLException {
            pool.setLogWriter(out);
        }

        @Override
        public void setLoginTimeout(int seconds) throws SQLException {
            pool.setLoginTimeout(seconds);
        }

        @Override
        public int getLoginTimeout() throws SQLException {
            return pool.getLoginTimeout();
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getLogger("org.h2");
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            return pool.unwrap(iface);
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) throws SQLException {
            return pool.isWrapperFor(iface);
        }
    }

    private static String describe(Path dir, SQLException e) {
        String msg = firstLine(e.getMessage());
        String full = diskFull(dir, e);
        if (full != null) {
            return full;
        }
        if ((e.getErrorCode() == ErrorCode.IO_EXCEPTION_1 || e.getErrorCode() == ErrorCode.IO_EXCEPTION_2) && Files.isRegularFile(dir.resolve("keyline.mv.db"))
                && causedBy(e, java.io.EOFException.class)) {
            // H2 read past the end of the file: truncated, or not an H2 file at all
            return "the state file " + dir.resolve("keyline.mv.db") + " is unreadable (corrupt, truncated or not a "
                    + "Keyline state): it ends before the data it describes - restore it from a backup "
                    + "(SCRIPT/BACKUP) or move it aside";
        }
        if (msg.contains("Database may be already in use") || msg.contains("locked")) {
            return "the state in " + dir + " is locked by another process and could not be shared: " + msg;
        }
        if (msg.contains("File corrupted") || msg.contains("is not a valid") || msg.contains("Unsupported")) {
            return "the state file " + dir.resolve("keyline.mv.db") + " is unreadable (corrupt or not a Keyline state): "
                    + msg + " - restore it from a backup (SCRIPT/BACKUP) or move it aside";
        }
        return "cannot open the state in " + dir + ": " + msg;
    }

    /**
     * A clear message when opening failed because the disk holding the state is full (H2 only says
     * "Could not save properties" or "Writing to ... failed"), else null.
     */
    public static String diskFull(Path dir, Throwable e) {
        boolean noSpace = false;
        noSpace = mentionsNoSpace(e, 0);
        if (!noSpace) {
            return null;
        }
        String free = "";
        try {
            free = ", " + Files.getFileStore(dir).getUsableSpace() / 1024 + " KiB free";
        } catch (IOException | RuntimeException ignored) {
            // the message is clear without the figure
        }
        return "the disk that holds the state in " + dir + " is full (No space left on device" + free
                + "): free some space and run again (nothing committed is lost; a key cut short resumes)";
    }

    private static boolean mentionsNoSpace(Throwable t, int depth) {
        if (t == null || depth > 12) {
            return false;
        }
        if (t.getMessage() != null && t.getMessage().contains("No space left on device")) {
            return true;
        }
        for (Throwable s : t.getSuppressed()) {
            if (mentionsNoSpace(s, depth + 1)) {
                return true;
            }
        }
        return t.getCause() != t && mentionsNoSpace(t.getCause(), depth + 1);
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /**
     * Makes every commit so far durable against a killed process: H2 writes the store's pending
     * changes and forces the file (CHECKPOINT SYNC).
     */
    public void sync() {
        try (Connection c = connect(pool); java.sql.Statement st = c.createStatement()) {
            st.execute("CHECKPOINT SYNC");
        } catch (SQLException e) {
            throw new StateUnavailableException("cannot make the state durable in " + stateDir + ": "
                    + firstLine(e.getMessage()), e);
        }
    }

    public Connection connection() throws SQLException {
        return connect(pool);
    }

    /**
     * The process that served the state to us (AUTO_SERVER) is gone: opens it again the way {@link #open}
     * does (under the open lock, repairing what H2's quick recovery would miss), instead of letting the
     * driver reopen the file behind our back. Connections of the old pool fail; callers retry.
     */
    public void serverWentAway() {
        JdbcConnectionPool broken = pool;
        synchronized (OPENING.computeIfAbsent(stateDir, d -> new Object())) {
            if (pool != broken) {
                return;
            }
            try (FileChannel ch = FileChannel.open(stateDir.resolve("keyline.open.lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); FileLock lock = ch.lock()) {
                pool = pool(stateDir, false);
            } catch (IOException e) {
                throw new StateUnavailableException("cannot lock " + stateDir.resolve("keyline.open.lock") + ": "
                        + e.getMessage(), e);
            } finally {
                broken.dispose();
            }
        }
    }

    public Path stateDir() {
        return stateDir;
    }

    @Override
    public void close() {
        pool.dispose();
    }
}
