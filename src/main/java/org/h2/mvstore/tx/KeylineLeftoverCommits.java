package org.h2.mvstore.tx;

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
 * stores the result.
 */
public final class KeylineLeftoverCommits {

    private KeylineLeftoverCommits() {
    }

    /**
     * Finishes every transaction that is {@code COMMITTED} but not being committed by anyone. Call it
     * only right after the store was opened, before any session of this process wrote: a live commit is
     * {@code COMMITTED} for a moment before it marks itself as committing.
     *
     * @return how many transactions were finished
     */
    public static int finish(TransactionStore store) {
        int finished = 0;
        for (Transaction t : store.getOpenTransactions()) {
            if (t.getStatus() == Transaction.STATUS_COMMITTED
                    && !store.committingTransactions.get().get(t.getId())) {
                store.commit(t, true);
                store.endTransaction(t, true);
                finished++;
            }
        }
        return finished;
    }
}
