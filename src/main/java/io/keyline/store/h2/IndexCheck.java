package io.keyline.store.h2;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * After a process that had the H2 file open was killed: checks that every secondary index of the state
 * still matches its table's rows, and rebuilds one that does not.
 *
 * <p>Why: an MVStore chunk is not a snapshot of all maps at one instant (each map's root is taken in turn
 * while other sessions go on committing), so a kill can leave a chunk in which a commit reached a table's
 * rows but not one of its indexes; the next open rolls the index's half back as a "leftover". The crash
 * loop at {@code concurrency: 8} (seed 37009259683614) left a key whose row said {@code RUNNING} while
 * {@code key_state_by_state} had no entry for it: every later run's update of that key failed in H2 with
 * "Row not found when trying to delete from index", retried at full CPU for the 10 s lock timeout, and
 * ended "retry pending" - the key stayed {@code RUNNING} for good. A missing primary-key entry would be
 * worse (the key looks new).
 *
 * <p>The check, per index on table T whose first column is c: for every value v of c in T (read by a
 * scan of the table, no index, and counted here), the rows the index finds for {@code c = v} must be as many as the table
 * has. An entry missing, pointing at a row with another value, or at no row at all shows as a difference
 * (or as an error from H2). An index that fails is dropped and created again from the table (a primary
 * key or unique constraint by dropping and adding the constraint). It runs only in the process that
 * opens the file itself after an unclean shutdown, under the open lock, as the admin; it reads every
 * row of every indexed table once or twice (B9's 10,000 keys: well under a second).
 */
final class IndexCheck {

    /** The logger, made on first use: java.util.logging's set-up is not part of a one-shot command that logs nothing. */
    private static final class Log {
        static final Logger LOG = Logger.getLogger(IndexCheck.class.getName());
    }

    /** What the last check repaired (tests and the crash loop report it). */
    static volatile String lastReport;

    private IndexCheck() {
    }

    /** An index of the state: its table, its columns in order, and the constraint that owns it, if any. */
    record Index(String table, String name, List<String> columns, String constraint, String constraintType) {
    }

    /**
     * The marker of a check that has begun and not ended (a kill or an error cut it short): while it is
     * there, every open that has the file to itself checks again, clean file or not.
     */
    static final String PENDING = "keyline.index-check";

    /** Whether the state in {@code dir} needs the check: its file was left uncleanly, or a check did not end. */
    static boolean due(Path dir) {
        Path file = dir.resolve("keyline.mv.db");
        return Files.isRegularFile(file) && (!Recovery.closedCleanly(file) || Files.exists(dir.resolve(PENDING)));
    }

    /**
     * {@link #repair} with the {@link #PENDING} marker around it: written before, removed only when the
     * check and every rebuild ended. A marker that cannot be written (a full disk) does not stop the check.
     */
    static List<String> repairPending(Connection admin, Path dir) throws SQLException {
        Path marker = dir.resolve(PENDING);
        try (java.nio.channels.FileChannel ch = io.keyline.core.PrivateFiles.open(marker,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE)) {
            ch.force(true);
        } catch (java.io.IOException e) {
            Log.LOG.warning("cannot write " + marker + " (" + e.getMessage() + "): an index check cut short now "
                    + "would not be taken up again by a later open");
        }
        List<String> rebuilt = repair(admin);
        try {
            Files.deleteIfExists(marker);
        } catch (java.io.IOException e) {
            Log.LOG.warning("cannot remove " + marker + " (" + e.getMessage() + "): the next open checks again");
        }
        return rebuilt;
    }

    /**
     * Checks every secondary index of the state's tables and rebuilds those that do not match their rows.
     *
     * @return the names of the indexes rebuilt
     */
    static List<String> repair(Connection admin) throws SQLException {
        List<String> rebuilt = new ArrayList<>();
        finishInterrupted(admin, rebuilt);
        for (Index ix : indexes(admin)) {
            String problem = mismatch(admin, ix);
            if (problem != null) {
                rebuild(admin, ix);
                Index now = indexes(admin).stream().filter(i -> ix.constraint() != null
                        ? ix.constraint().equals(i.constraint()) : ix.name().equals(i.name())).findFirst()
                        .orElseThrow(() -> new SQLException("index " + ix.name() + " of " + ix.table()
                                + " is missing after it was rebuilt"));
                String still = mismatch(admin, now);
                if (still != null) {
                    throw new SQLException("index " + ix.name() + " of " + ix.table() + " still does not match its "
                            + "rows after it was rebuilt: " + still);
                }
                rebuilt.add(ix.name() + " (" + problem + ")");
            }
        }
        if (!rebuilt.isEmpty()) {
            lastReport = "rebuilt " + rebuilt.size() + " index(es) that a killed process had left out of step "
                    + "with their rows: " + String.join("; ", rebuilt);
            Log.LOG.warning(lastReport);
        }
        return rebuilt;
    }

    /** The secondary indexes of the public schema (not those that are the table's own row order). */
    static List<Index> indexes(Connection c) throws SQLException {
        Map<String, Index> found = new LinkedHashMap<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("""
                SELECT i.table_name, i.index_name, i.index_class, ic.column_name, tc.constraint_name, tc.constraint_type
                FROM information_schema.indexes i
                JOIN information_schema.index_columns ic
                  ON ic.index_schema = i.index_schema AND ic.index_name = i.index_name
                LEFT JOIN information_schema.table_constraints tc
                  ON tc.index_schema = i.index_schema AND tc.index_name = i.index_name
                WHERE i.index_schema = 'public'
                ORDER BY i.table_name, i.index_name, ic.ordinal_position""")) {
            while (rs.next()) {
                String cls = rs.getString(3);
                if (cls != null && (cls.endsWith("MVDelegateIndex") || cls.endsWith("MVPrimaryIndex"))) {
                    continue; // the table's own map: nothing separate to fall out of step
                }
                String name = rs.getString(2);
                Index ix = found.get(name);
                List<String> cols = ix == null ? new ArrayList<>() : new ArrayList<>(ix.columns());
                cols.add(rs.getString(4));
                found.put(name, new Index(rs.getString(1), name, List.copyOf(cols), rs.getString(5), rs.getString(6)));
            }
        }
        return new ArrayList<>(found.values());
    }

    /** Why {@code ix} does not match its table's rows, or {@code null} when it does. */
    static String mismatch(Connection c, Index ix) throws SQLException {
        String first = quote(ix.columns().get(0));
        String table = quote(ix.table());
        Map<Object, Long> truth = new LinkedHashMap<>();
        // counted here, not by GROUP BY: H2 would group through the very index, "sorted" (USE INDEX () or not)
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT " + first + " FROM " + table
                + " USE INDEX ()")) {
            while (rs.next()) {
                truth.merge(rs.getObject(1), 1L, Long::sum);
            }
        }
        try (PreparedStatement eq = c.prepareStatement("SELECT COUNT(*) FROM " + table + " USE INDEX ("
                + quote(ix.name()) + ") WHERE " + first + " = ?");
             PreparedStatement isNull = c.prepareStatement("SELECT COUNT(*) FROM " + table + " USE INDEX ("
                     + quote(ix.name()) + ") WHERE " + first + " IS NULL")) {
            for (Map.Entry<Object, Long> e : truth.entrySet()) {
                PreparedStatement ps = e.getKey() == null ? isNull : eq;
                if (e.getKey() != null) {
                    ps.setObject(1, e.getKey());
                }
                long viaIndex;
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    viaIndex = rs.getLong(1);
                } catch (SQLException ex) {
                    return "reading " + ix.columns().get(0) + " = " + e.getKey() + " through it failed: " + ex.getMessage();
                }
                if (viaIndex != e.getValue()) {
                    return "it finds " + viaIndex + " of the " + e.getValue() + " rows with " + ix.columns().get(0)
                            + " = " + e.getKey();
                }
            }
        }
        return null;
    }

    /** The suffix of a plain index's replacement while it is built (then renamed to the index's name). */
    static final String REPLACEMENT = "_kl_rebuilt";
    /** The prefix of the unique index that keeps a constraint's rows unique while the constraint is rebuilt. */
    static final String GUARD = "kl_guard_";

    /** H2's "index belongs to a constraint": the constraint took the guard over as its own index. */
    private static final int INDEX_BELONGS_TO_CONSTRAINT = 90085;

    /**
     * Builds {@code ix} again from the table. The replacement is built before the old one goes, so a kill or
     * an error halfway leaves one object too many, never one too few: a plain index is built under another
     * name ({@link #REPLACEMENT}), the old one dropped, the new one renamed; a primary key or unique
     * constraint first gets a new unique index on the same columns ({@link #GUARD}, built from the rows),
     * which keeps them unique while the constraint is dropped and added again (H2 may keep the guard as the
     * constraint's index; otherwise it goes). H2 commits each step on its own; {@link #finishInterrupted}
     * completes what a kill cut short.
     */
    private static void rebuild(Connection c, Index ix) throws SQLException {
        String table = quote(ix.table());
        String cols = String.join(", ", ix.columns().stream().map(IndexCheck::quote).toList());
        try (Statement st = c.createStatement()) {
            if (ix.constraint() == null) {
                String replacement = quote(ix.name() + REPLACEMENT);
                st.execute("DROP INDEX IF EXISTS " + replacement);
                st.execute("CREATE INDEX " + replacement + " ON " + table + " (" + cols + ")");
                st.execute("DROP INDEX " + quote(ix.name()));
                st.execute("ALTER INDEX " + replacement + " RENAME TO " + quote(ix.name()));
            } else {
                String guard = quote(GUARD + ix.constraint());
                dropGuard(st, guard);
                st.execute("CREATE UNIQUE INDEX " + guard + " ON " + table + " (" + cols + ")");
                st.execute("ALTER TABLE " + table + " DROP CONSTRAINT " + quote(ix.constraint()));
                st.execute("ALTER TABLE " + table + " ADD CONSTRAINT " + quote(ix.constraint()) + " "
                        + kind(ix) + " (" + cols + ")");
                dropGuard(st, guard);
            }
        }
    }

    /** Drops a guard index unless a constraint has taken it as its own. */
    private static void dropGuard(Statement st, String guard) throws SQLException {
        try {
            st.execute("DROP INDEX IF EXISTS " + guard);
        } catch (SQLException e) {
            if (e.getErrorCode() != INDEX_BELONGS_TO_CONSTRAINT) {
                throw e;
            }
        }
    }

    private static String kind(Index ix) {
        return "PRIMARY KEY".equals(ix.constraintType()) ? "PRIMARY KEY" : "UNIQUE";
    }

    /**
     * Completes rebuilds a kill or an error cut short: a replacement index whose original is gone takes its
     * name, one whose original is still there goes (the check decides about the original); a guard whose
     * constraint is gone gives the constraint back (a primary key when the table has none: every Keyline
     * table has one), and goes unless the constraint took it as its own.
     */
    static void finishInterrupted(Connection c, List<String> done) throws SQLException {
        List<Index> all = indexes(c);
        java.util.Set<String> names = new java.util.HashSet<>();
        java.util.Set<String> constraints = new java.util.HashSet<>();
        java.util.Set<String> tablesWithPk = new java.util.HashSet<>();
        for (Index ix : all) {
            names.add(ix.name());
            if (ix.constraint() != null) {
                constraints.add(ix.constraint());
                if ("PRIMARY KEY".equals(ix.constraintType())) {
                    tablesWithPk.add(ix.table());
                }
            }
        }
        try (Statement st = c.createStatement()) {
            for (Index ix : all) {
                if (ix.name().endsWith(REPLACEMENT)) {
                    String original = ix.name().substring(0, ix.name().length() - REPLACEMENT.length());
                    if (names.contains(original)) {
                        st.execute("DROP INDEX " + quote(ix.name()));
                    } else {
                        st.execute("ALTER INDEX " + quote(ix.name()) + " RENAME TO " + quote(original));
                        done.add(original + " (its rebuild had been cut short)");
                    }
                } else if (ix.name().startsWith(GUARD) && ix.constraint() == null) {
                    String original = ix.name().substring(GUARD.length());
                    if (!constraints.contains(original)) {
                        String cols = String.join(", ", ix.columns().stream().map(IndexCheck::quote).toList());
                        String kind = tablesWithPk.contains(ix.table()) ? "UNIQUE" : "PRIMARY KEY";
                        st.execute("ALTER TABLE " + quote(ix.table()) + " ADD CONSTRAINT " + quote(original) + " "
                                + kind + " (" + cols + ")");
                        done.add(original + " (its rebuild had been cut short)");
                    }
                    dropGuard(st, quote(ix.name()));
                }
            }
        }
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
