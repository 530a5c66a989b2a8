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
    static final int LOCK_SPACE = 0x4B4C4E45;
    /** The advisory lock (second key) that serialises migrations across processes and machines. */
    static final int MIGRATION_LOCK = 0;

    /** A unique or primary key was violated: another process stored the row first. Both say SQLSTATE 23505. */
    boolean uniqueViolation(SQLException e) {
        return "23505".equals(e.getSQLState());
    }

    /**
     * The connection to the database broke (H2: the AUTO_SERVER process went away; PostgreSQL: the
     * server restarted or the network dropped: SQLSTATE class 08, or 57P01 admin shutdown). The work is
     * tried again on a new connection; every change is guarded by a version, so nothing applies twice.
     */
    boolean connectionLost(SQLException e) {
        if (this == H2) {
            return e.getErrorCode() == org.h2.api.ErrorCode.CONNECTION_BROKEN_1
                    || e.getErrorCode() == org.h2.api.ErrorCode.DATABASE_CALLED_AT_SHUTDOWN
                    || e.getErrorCode() == org.h2.api.ErrorCode.OBJECT_CLOSED;
        }
        String state = e.getSQLState();
        return state != null && (state.startsWith("08") || state.equals("57P01") || state.equals("57P02")
                || state.equals("57P03"));
    }

    /** The database's clock in epoch milliseconds, as an SQL expression (leases on PostgreSQL are timed by it). */
    String nowMillis() {
        return this == POSTGRESQL ? "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)"
                : "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT)";
    }
}
