package io.keyline.store;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.ConnectionEvent;
import javax.sql.ConnectionEventListener;
import javax.sql.ConnectionPoolDataSource;
import javax.sql.PooledConnection;

/**
 * A small pool of physical PostgreSQL connections (what {@link H2Pool} is for the embedded state): a
 * backend process per connection is too slow to start for every read. A handle's {@code close()} returns
 * its connection; one the driver reports broken is thrown away. No dependency beyond the driver's
 * {@link ConnectionPoolDataSource}.
 */
final class PgPool implements AutoCloseable {

    private final BoundedPool<PooledConnection> pool;

    PgPool(ConnectionPoolDataSource source, int max, long waitMillis) {
        this.pool = new BoundedPool<>(max, waitMillis, () -> open(source), PooledConnection::close);
    }

    private PooledConnection open(ConnectionPoolDataSource source) throws SQLException {
        PooledConnection pc = source.getPooledConnection();
        pc.addConnectionEventListener(new ConnectionEventListener() {
            @Override
            public void connectionClosed(ConnectionEvent event) {
                pool.giveBack(pc);
            }

            @Override
            public void connectionErrorOccurred(ConnectionEvent event) {
                pool.discard(pc);
            }
        });
        return pc;
    }

    /** A connection in auto-commit mode; {@code close()} gives it back. */
    Connection connection() throws SQLException {
        PooledConnection pc = pool.take();
        try {
            Connection c = pc.getConnection();
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
            return c;
        } catch (SQLException e) {
            pool.discard(pc);
            throw e;
        }
    }

    /** Closes the idle connections (after the server went away: the next ones are new). */
    void evictIdle() {
        pool.evictIdle();
    }

    @Override
    public void close() {
        pool.close();
    }
}
