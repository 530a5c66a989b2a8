package io.keyline.store;

import java.sql.SQLException;

/**
 * What differs between the two databases Keyline keeps its state in, in one place: how errors are
 * recognised, and the few statements that are not portable. Everything else is the same SQL.
 */
public enum Dialect {
    /** The embedded default: H2 in PostgreSQL mode, one state folder, shared over AUTO_SERVER. */
    H2,
    /** A PostgreSQL server shared by several machines. */
    POSTGRESQL;

    /** The namespace of Keyline's advisory locks on PostgreSQL (the first of the two int keys): "KLNE". */
    public static final int LOCK_SPACE = 0x4B4C4E45;
    /** The advisory lock (second key) that serialises migrations across processes and machines. */
    public static final int MIGRATION_LOCK = 0;

    /** A unique or primary key was violated: another process stored the row first. Both say SQLSTATE 23505. */
    public boolean uniqueViolation(SQLException e) {
        return "23505".equals(e.getSQLState());
    }

    /** The database's clock in epoch milliseconds, as an SQL expression (leases on PostgreSQL are timed by it). */
    public String nowMillis() {
        return this == POSTGRESQL ? "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)"
                : "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT)";
    }
}
