package io.keyline.store;

import org.flywaydb.core.Flyway;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which schema versions this build ships, and whether a database already has all of them, so a
 * one-shot command ({@code status}, {@code jobs}) does not start Flyway (about 360 classes, a scan of
 * the jar for migrations and a validation of every checksum) just to learn that there is nothing to do
 *. A database that lacks a version, has a failed one, or has one this build does not know
 * (a newer Keyline wrote it) goes through Flyway as before, which migrates, repairs or refuses.
 */
public final class Migrations {
    /** The versions in {@code src/main/resources/db/migration} ({@code MigrationsTest} compares). */
    public static final List<String> COMMON = List.of("1", "2", "3", "4", "6", "9", "10", "11", "12", "13", "14",
            "15", "16", "17");
    /** PostgreSQL adds {@code src/main/resources/db/postgresql}. */
    public static final List<String> POSTGRES = List.of("1", "2", "3", "4", "6", "9", "10", "11", "12", "13", "14",
            "15", "16", "17", "9.1");

    /**
     * Migrations whose comments were reworded after states had applied them: version to {checksum a state
     * recorded, checksum now}. Flyway checks each applied migration's checksum, comments included; only these
     * exact pairs are carried over ({@link #acceptReworded}), any other difference still refuses.
     */
    static final Map<String, int[]> REWORDED = Map.of(
            "3", new int[] {-2025552927, 1445970871},
            "4", new int[] {-2126111440, 1708417348},
            "6", new int[] {1208449500, 1110736139},
            "9", new int[] {-260810666, 1815656227},
            "10", new int[] {-1340261696, 944320396});

    /**
     * Gives the migrations of {@link #REWORDED} their new checksum where a state recorded the old one; call it
     * before Flyway validates. A database without a history table has nothing to carry over.
     */
    public static void acceptReworded(Connection c) throws SQLException {
        if (!hasHistory(c)) {
            return; // asked first: a statement on a missing table is an error in H2's trace file of a new state
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE \"flyway_schema_history\" SET \"checksum\" = ? "
                + "WHERE \"version\" = ? AND \"checksum\" = ?")) {
            for (Map.Entry<String, int[]> e : REWORDED.entrySet()) {
                ps.setInt(1, e.getValue()[1]);
                ps.setString(2, e.getKey());
                ps.setInt(3, e.getValue()[0]);
                ps.executeUpdate();
            }
        } catch (SQLException e) {
            if (!c.getAutoCommit()) {
                c.rollback();
            }
            if (hasHistory(c)) {
                throw e;
            }
            return;
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }

    private static boolean hasHistory(Connection c) throws SQLException {
        try (ResultSet rs = c.getMetaData().getTables(null, null, "flyway_schema_history", null)) {
            return rs.next();
        }
    }

    /**
     * Flyway over {@code admin} with the migrations of {@code locations}, after the reworded migrations were given
     * their new checksum through {@code session} ({@link #acceptReworded}); counted in {@link #FLYWAY_RUNS}. Tables
     * without a history table can only be a first migration cut short (the history table may not have been
     * written yet): the history starts at 0 and every migration runs.
     */
    public static Flyway flyway(Connection session, DataSource admin, String... locations) throws SQLException {
        acceptReworded(session);
        FLYWAY_RUNS.incrementAndGet();
        return Flyway.configure()
                .dataSource(admin)
                .locations(locations)
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .loggers("slf4j")
                .load();
    }

    /** How many times Flyway was started in this process (tests: a current schema does not start it). */
    public static final AtomicInteger FLYWAY_RUNS = new AtomicInteger();

    private Migrations() {
    }

    /**
     * Whether every shipped version is applied successfully and nothing else is (the baseline row
     * "0" aside). Any doubt — no history table, a failed row, an unknown version — says no.
     */
    public static boolean current(Connection c, List<String> shipped) {
        Set<String> applied = new HashSet<>();
        try {
            if (!hasHistory(c)) {
                return false;
            }
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT \"version\", \"success\" FROM \"flyway_schema_history\"")) {
                while (rs.next()) {
                    String v = rs.getString(1);
                    if (v == null) {
                        continue; // repeatable migrations: none are shipped, so one present is unknown
                    }
                    if (!rs.getBoolean(2)) {
                        return false;
                    }
                    applied.add(v);
                }
            }
        } catch (SQLException e) {
            return false;
        }
        applied.remove("0");
        return applied.equals(new HashSet<>(shipped));
    }
}
