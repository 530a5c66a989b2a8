package io.keyline.store;

import org.h2.engine.Session;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.db.Store;
import org.h2.mvstore.tx.KeylineLeftoverCommits;

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

    private static final Logger LOG = Logger.getLogger(LeftoverTransactions.class.getName());

    /** Said once per repair (the crash loop counts these lines in its children's output). */
    static final String REPAIRED = "transaction(s) that a killed process had left half-committed";

    /** The stores already looked at in this JVM (a store is looked at by its first open only). */
    private static final Set<Store> SEEN = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    /** What the last open that finished something found (tests and diagnostics). */
    static volatile String lastReport;

    /** How many the opens in this JVM finished. */
    static final AtomicInteger FINISHED = new AtomicInteger();

    /**
     * Finishes the leftovers when {@code c} is the first session of this process on a file it opened
     * itself; a state served by another process was repaired by that process when it opened it.
     *
     * @return how many transactions were finished
     */
    static int finishOnFirstOpen(Connection c, java.nio.file.Path dir) throws SQLException {
        if (!c.isWrapperFor(JdbcConnection.class)) {
            return 0;
        }
        Session s = c.unwrap(JdbcConnection.class).getSession();
        if (!(s instanceof SessionLocal local)) {
            return 0;
        }
        Store store = local.getDatabase().getStore();
        if (store == null || !SEEN.add(store)) {
            return 0;
        }
        // only while no other session of this process can be in the middle of a commit
        if (local.getDatabase().getSessions(false).length > 1) {
            return 0;
        }
        int n = KeylineLeftoverCommits.finish(store.getTransactionStore());
        if (n > 0) {
            FINISHED.addAndGet(n);
            lastReport = "state " + dir + ": finished " + n + " " + REPAIRED
                    + " (their rows would have stayed locked)";
            LOG.warning(lastReport);
        }
        return n;
    }
}
