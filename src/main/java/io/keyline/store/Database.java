package io.keyline.store;

import io.keyline.core.StateUnavailableException;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.h2.jdbcx.JdbcConnectionPool;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

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

    private final JdbcConnectionPool pool;
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
        String url = "jdbc:h2:file:" + dir.resolve("keyline") + SETTINGS;
        JdbcConnectionPool pool = JdbcConnectionPool.create(url, "keyline", "");
        pool.setMaxConnections(16);
        try (Connection c = pool.getConnection()) {
            c.isValid(1);
        } catch (SQLException e) {
            pool.dispose();
            throw new StateUnavailableException(describe(dir, e), e);
        }
        try {
            Flyway.configure()
                    .dataSource(pool)
                    .locations("classpath:db/migration")
                    .loggers("slf4j")
                    .load()
                    .migrate();
        } catch (FlywayException e) {
            pool.dispose();
            throw new StateUnavailableException("cannot migrate the state in " + dir + ": " + firstLine(e.getMessage()), e);
        }
        return new Database(pool, dir);
    }

    private static String describe(Path dir, SQLException e) {
        String msg = firstLine(e.getMessage());
        if (msg.contains("Database may be already in use") || msg.contains("locked")) {
            return "the state in " + dir + " is locked by another process and could not be shared: " + msg;
        }
        if (msg.contains("File corrupted") || msg.contains("is not a valid") || msg.contains("Unsupported")) {
            return "the state file " + dir.resolve("keyline.mv.db") + " is unreadable (corrupt or not a Keyline state): "
                    + msg + " - restore it from a backup (SCRIPT/BACKUP) or move it aside";
        }
        return "cannot open the state in " + dir + ": " + msg;
    }

    static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    public Connection connection() throws SQLException {
        return pool.getConnection();
    }

    public Path stateDir() {
        return stateDir;
    }

    @Override
    public void close() {
        pool.dispose();
    }
}
