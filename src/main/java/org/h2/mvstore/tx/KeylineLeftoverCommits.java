package org.h2.mvstore.tx;

import java.lang.reflect.Field;

/**
 * Keyline's repair of an H2 2.5.252 defect (in H2's package: it calls two package-private methods of
 * {@link TransactionStore}). Not part of H2; only {@code io.keyline.store.LeftoverTransactions} calls it.
 *
 * <p>The defect: H2 commits a transaction by first writing a "committed" record to its undo log and then
 * turning each of its changes into a committed value. When another session's commit writes a chunk in
 * between (every commit writes one with {@code WRITE_DELAY=0}) and the process is then killed, the next
 * open finds that undo log and registers the transaction as {@code COMMITTED}, meaning to finish it:
 * {@code TransactionStore.endLeftoverTransactions()} calls {@link Transaction#commit()} - which does nothing
 * for a transaction whose status is already {@code COMMITTED} ({@code isActive} is false for it). The
 * transaction stays open in that process for good: its rows read as before the commit, and a write to
 * one of them spins at full CPU ({@code Transaction.waitForThisToEnd} takes {@code COMMITTED} as ended,
 * the decision maker still names it as the blocker). Every later open registers it again.
 *
 * <p>This finishes such a transaction the way the commit began it: {@code TransactionStore.commit(t, true)}
 * (the "recovery" commit H2 has for exactly this case), then {@code endTransaction}, which closes it and
 * stores the result. A leftover is told from a live transaction by its owner: {@code init} registers it
 * with owner 0, a session's transactions carry the session's id.
 */
public final class KeylineLeftoverCommits {

    /**
     * {@code Transaction.ownerId} (private in H2): 0 for the transactions {@code TransactionStore.init} registers
     * from the file, a session's id (from 1) for a session's transaction. Null when this H2 has no such field.
     */
    private static final Field OWNER = ownerField();

    private KeylineLeftoverCommits() {
    }

    private static Field ownerField() {
        try {
            Field f = Transaction.class.getDeclaredField("ownerId");
            f.setAccessible(true);
            return f.getType() == int.class ? f : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Finishes every transaction that the store registered from the file as {@code COMMITTED} and that
     * nobody is committing. Safe while other sessions work: a session's own transaction has a non-zero
     * owner, and a transaction without changes (H2 opens maps in such) is not touched.
     *
     * @return how many transactions were finished
     * @throws IllegalStateException when this H2 is not the one this was written for (no owner field)
     */
    public static int finish(TransactionStore store) {
        java.util.List<Transaction> left = leftovers(store);
        for (Transaction t : left) {
            try {
                store.commit(t, true);
            } finally {
                // as Transaction.commit closes a transaction whose commit failed
                store.endTransaction(t, true);
            }
        }
        return left.size();
    }

    /** How many transactions {@link #finish} would finish (a read-only store cannot: its opener must open read-write). */
    public static int pending(TransactionStore store) {
        return leftovers(store).size();
    }

    /** The transactions registered from the file as committed, with changes, that nobody is committing. */
    private static java.util.List<Transaction> leftovers(TransactionStore store) {
        if (OWNER == null) {
            throw new IllegalStateException("H2's Transaction has no int field ownerId: this repair was written for "
                    + "H2 2.5.252 and does not know this version");
        }
        java.util.List<Transaction> out = new java.util.ArrayList<>();
        for (Transaction t : store.getOpenTransactions()) {
            if (t.getStatus() == Transaction.STATUS_COMMITTED && owner(t) == 0 && t.hasChanges()
                    && !store.committingTransactions.get().get(t.getId())) {
                out.add(t);
            }
        }
        return out;
    }

    private static int owner(Transaction t) {
        try {
            return OWNER.getInt(t);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read H2's Transaction.ownerId", e);
        }
    }
}
