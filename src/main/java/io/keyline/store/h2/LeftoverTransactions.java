package io.keyline.store.h2;

import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.db.Store;
import org.h2.mvstore.tx.Transaction;
import org.h2.mvstore.tx.TransactionStore;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * Finishes the transactions that a killed process left committed but unapplied, once, in the process that
 * opens the state file. Without it the crash loop at {@code concurrency: 8} left keys whose rows read as before
 * their last commit and whose next write spun for ever, in this and every later process.
 *
 * <p>The H2 defect (2.5.252, and H2's development head): H2 commits a transaction by first writing a "committed"
 * record to its undo log and then turning each of its changes into a committed value. When another session's
 * commit writes a chunk in between (every commit writes one with {@code WRITE_DELAY=0}) and the process is then
 * killed, the next open finds that undo log and registers the transaction as {@code COMMITTED}, meaning to
 * finish it: {@code TransactionStore.endLeftoverTransactions()} calls {@code Transaction.commit()}, which does
 * nothing for a transaction whose status is already {@code COMMITTED}. The transaction stays open in that
 * process for good: its rows read as before the commit, and a write to one of them spins at full CPU
 * ({@code Transaction.waitForThisToEnd} takes {@code COMMITTED} as ended, the decision maker still names it as
 * the blocker). Every later open registers it again.
 *
 * <p>This finishes such a transaction the way the commit began it: {@code TransactionStore.commit(t, true)}
 * (the "recovery" commit H2 has for exactly this case), then {@code endTransaction}, which closes it and stores
 * the result. H2 offers no public way to do either, so both are called by reflection, as is the owner field that
 * tells a leftover from a live transaction ({@code init} registers a leftover with owner 0, a session's
 * transactions carry the session's id) and the set of transactions being committed. {@code LeftoverCommitTest}
 * reproduces the state with a real child process and asserts that H2 alone still leaves it so: the day it fails
 * there, an H2 upgrade fixed the defect and this class can go.
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

    /** H2's members this repair reaches, or the reason this H2 does not have them. */
    private static final class H2 {
        static final Field OWNER;
        static final Field COMMITTING;
        static final Method COMMIT;
        static final Method END;
        static final String MISSING;

        static {
            Field owner = null;
            Field committing = null;
            Method commit = null;
            Method end = null;
            String missing = null;
            try {
                owner = Transaction.class.getDeclaredField("ownerId");
                committing = TransactionStore.class.getDeclaredField("committingTransactions");
                commit = TransactionStore.class.getDeclaredMethod("commit", Transaction.class, boolean.class);
                end = TransactionStore.class.getDeclaredMethod("endTransaction", Transaction.class, boolean.class);
                for (var m : List.of(owner, committing, commit, end)) {
                    m.setAccessible(true);
                }
                if (owner.getType() != int.class) {
                    missing = "Transaction.ownerId is not an int";
                }
            } catch (ReflectiveOperationException | RuntimeException e) {
                missing = e.toString();
            }
            OWNER = owner;
            COMMITTING = committing;
            COMMIT = commit;
            END = end;
            MISSING = missing;
        }
    }

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
     * For a read-only open (a one-shot reader alone): refuses the session, with an {@link SQLException}, when the
     * file holds half-committed transactions, which only a read-write open can finish (read-only, their rows would
     * read as before the commit).
     */
    static void refuseIfAnyLeft(Connection c) throws SQLException {
        SessionLocal local = local(c);
        Store store = local == null ? null : local.getDatabase().getStore();
        if (store == null) {
            return;
        }
        int n;
        try {
            n = leftovers(store.getTransactionStore()).size();
        } catch (RuntimeException e) {
            throw new SQLException("cannot tell whether transactions are left half-committed: " + e.getMessage(), e);
        }
        if (n > 0) {
            throw new SQLException(n + " " + REPAIRED + " in a file opened read-only: open it read-write");
        }
    }

    /**
     * Finishes the leftovers when {@code c} is the first connection of this JVM to a store it opened itself (an
     * open, or a takeover after the serving process died); a state served by another process was repaired by that
     * process. Safe beside other sessions: a session's own transaction has a non-zero owner, and a transaction
     * without changes (H2 opens maps in such) is not touched. A repair that fails is logged and the open goes on:
     * the rows of an unfinished transaction stay locked, the rest of the state works.
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
            n = finish(store.getTransactionStore());
        } catch (RuntimeException e) {
            Log.LOG.warning("state " + dir + ": could not finish the " + REPAIRED + ": " + e
                    + " (writes to their rows will wait)");
            return 0;
        }
        if (n > 0) {
            FINISHED.addAndGet(n);
            lastReport = "state " + dir + ": finished " + n + " " + REPAIRED + " (their rows would have stayed locked)";
            Log.LOG.warning(lastReport);
        }
        return n;
    }

    /** Finishes every leftover of {@code store} as H2's recovery commit would. */
    private static int finish(TransactionStore store) {
        List<Transaction> left = leftovers(store);
        for (Transaction t : left) {
            try {
                call(H2.COMMIT, store, t);
            } finally {
                // as Transaction.commit closes a transaction whose commit failed
                call(H2.END, store, t);
            }
        }
        return left.size();
    }

    /** The transactions registered from the file as committed, with changes, that nobody is committing. */
    static List<Transaction> leftovers(TransactionStore store) {
        if (H2.MISSING != null) {
            throw new IllegalStateException("this H2 is not the one the repair of half-committed transactions was "
                    + "written for (" + H2.MISSING + ")");
        }
        List<Transaction> out = new ArrayList<>();
        for (Transaction t : store.getOpenTransactions()) {
            if (t.getStatus() == Transaction.STATUS_COMMITTED && owner(t) == 0 && t.hasChanges()
                    && !committing(store).get(t.getId())) {
                out.add(t);
            }
        }
        return out;
    }

    private static int owner(Transaction t) {
        try {
            return H2.OWNER.getInt(t);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read H2's Transaction.ownerId", e);
        }
    }

    private static java.util.BitSet committing(TransactionStore store) {
        try {
            Object set = ((java.util.concurrent.atomic.AtomicReference<?>) H2.COMMITTING.get(store)).get();
            Field bits = set.getClass().getDeclaredField("bits"); // VersionedBitSet: words as java.util.BitSet's
            bits.setAccessible(true);
            return java.util.BitSet.valueOf((long[]) bits.get(set));
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException("cannot read H2's TransactionStore.committingTransactions", e);
        }
    }

    private static void call(Method m, TransactionStore store, Transaction t) {
        try {
            m.invoke(store, t, true);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot call H2's TransactionStore." + m.getName(), e);
        } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
