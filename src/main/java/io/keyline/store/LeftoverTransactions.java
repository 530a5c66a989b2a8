package io.keyline.store;

import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.db.Store;
import org.h2.mvstore.tx.KeylineLeftoverCommits;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * Finishes the transactions that a killed process left committed but unapplied, once, in the process
 * that opens the state file (see {@link KeylineLeftoverCommits} for the H2 defect). Without it the
 * crash loop at {@code concurrency: 8} left keys whose rows read as before their last commit and whose
 * next write spun for ever, in this and every later process (issue 14).
 */
final class LeftoverTransactions {

    private LeftoverTransactions() {
    }

    /** The logger, made on first use: java.util.logging's set-up is not part of a one-shot command that logs nothing. */
    private static final class Log {
        static final Logger LOG = Logger.getLogger(LeftoverTransactions.class.getName());
    }

    /** Said once per repair (the crash loop counts these lines in its children's output). */
    static final String REPAIRED = "transaction(s) that a killed process had left half-committed";

    /** The stores already looked at in this JVM (a store is looked at by its first open only). */
    private static final Set<Store> SEEN = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    /** What the last open that finished something found (tests and diagnostics). */
    static volatile String lastReport;

    /** How many the opens in this JVM finished. */
    static final AtomicInteger FINISHED = new AtomicInteger();

    /** Whether {@code c} is a session of a database this JVM has open itself (not one served by another process). */
    static boolean embedded(Connection c) throws SQLException {
        return local(c) != null;
    }

    /** {@code c}'s session when it is one of a database this JVM has open itself, else null. */
    private static SessionLocal local(Connection c) throws SQLException {
        return c.isWrapperFor(JdbcConnection.class)
                && c.unwrap(JdbcConnection.class).getSession() instanceof SessionLocal s ? s : null;
    }

    /**
     * For a read-only open (a one-shot reader, {@code Database.openToReadQuickly}): refuses the session, with an
     * {@link SQLException}, when the file holds half-committed transactions, which only a read-write open can
     * finish (read-only, their rows would read as before the commit).
     */
    static void refuseIfAnyLeft(Connection c) throws SQLException {
        SessionLocal local = local(c);
        Store store = local == null ? null : local.getDatabase().getStore();
        if (store == null) {
            return;
        }
        int n;
        try {
            n = KeylineLeftoverCommits.pending(store.getTransactionStore());
        } catch (RuntimeException e) {
            throw new SQLException("cannot tell whether transactions are left half-committed: " + e.getMessage(), e);
        }
        if (n > 0) {
            throw new SQLException(n + " " + REPAIRED + " in a file opened read-only: open it read-write");
        }
    }

    /**
     * Finishes the leftovers when {@code c} is the first connection of this JVM to a store it opened itself
     * (an open, or a takeover after the serving process died); a state served by another process was
     * repaired by that process. Safe beside other sessions ({@link KeylineLeftoverCommits#finish}). A repair
     * that fails is logged and the open goes on: the rows of an unfinished transaction stay locked, the
     * rest of the state works.
     *
     * @return how many transactions were finished
     */
    static int finishOnFirstOpen(Connection c, Path dir) throws SQLException {
        SessionLocal local = local(c);
        if (local == null) {
            return 0;
        }
        Store store = local.getDatabase().getStore();
        if (store == null || !SEEN.add(store)) {
            return 0;
        }
        int n;
        try {
            n = KeylineLeftoverCommits.finish(store.getTransactionStore());
        } catch (RuntimeException e) {
            Log.LOG.warning("state " + dir + ": could not finish the " + REPAIRED + ": " + e
                    + " (writes to their rows will wait)");
            return 0;
        }
        if (n > 0) {
            FINISHED.addAndGet(n);
            lastReport = "state " + dir + ": finished " + n + " " + REPAIRED
                    + " (their rows would have stayed locked)";
            Log.LOG.warning(lastReport);
        }
        return n;
    }
}
