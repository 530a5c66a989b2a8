package io.keyline.store;

import java.sql.Connection;
import java.sql.SQLException;

/** Statements on one connection as one transaction: the store's one place for commit, rollback and auto-commit. */
final class Transaction {

    /** Statements on a connection. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private Transaction() {
    }

    /**
     * Runs {@code work} on {@code c} as one transaction: committed when it returns, rolled back when it throws.
     * Afterwards the connection commits as it did before (each statement on its own, as the pools hand it out).
     */
    static <T> T run(Connection c, Work<T> work) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            T result = work.run(c);
            c.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }
}
