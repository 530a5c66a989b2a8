package io.keyline.store;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The embedded state's pool of physical connections (the app user's sessions), handed out behind a thin
 * handle whose {@code close()} gives the session back.
 *
 * <p>Why not H2's {@code JdbcConnectionPool} [issue 14]: every checkout there rolls the session back, wraps
 * it in a new {@code JdbcConnection} and rolls back again on close; the engine takes a connection several
 * times per key (the pause read before each step, each commit), and B1 measured a pooled
 * {@code jobControl} read at 13–25 µs against 2 µs for the same statement on a connection kept open. Here a
 * session goes back as it was handed out: an open transaction is rolled back and auto-commit restored, the
 * isolation level reset if the borrower changed it; one whose use failed is closed rather than reused. The
 * most recently returned session is handed out first, so the hot path keeps finding its statements in that
 * session's query cache.
 */
final class H2Pool implements AutoCloseable {

    private final BoundedPool<Connection> pool;

    /** What a new physical connection is given before it is used (throwing closes it). */
    interface OnConnect {
        void accept(Connection c) throws SQLException;
    }

    H2Pool(DataSource source, int max, long waitMillis) {
        this(source, max, waitMillis, c -> { });
    }

    H2Pool(DataSource source, int max, long waitMillis, OnConnect onConnect) {
        // with the lock-file patience of Database.connect: another process may be opening the state
        this.pool = new BoundedPool<>(max, waitMillis, () -> {
            Connection c = Database.connect(source);
            try {
                onConnect.accept(c);
            } catch (SQLException | RuntimeException e) {
                c.close();
                throw e;
            }
            return c;
        }, Connection::close);
    }

    /** How many sessions are open: after {@link #close}, the ones still handed out. */
    int open() {
        return pool.open();
    }

    /** A connection in auto-commit mode; {@code close()} gives it back. */
    Connection connection() throws SQLException {
        Connection physical = pool.take();
        return (Connection) Proxy.newProxyInstance(H2Pool.class.getClassLoader(), new Class<?>[] {Connection.class},
                new Handle(physical));
    }

    /** Puts a session back the way a new one is; false when it cannot be (it is closed instead). */
    private static boolean restore(Connection c, boolean isolationChanged) {
        try {
            if (c.isClosed()) {
                return false;
            }
            if (!c.getAutoCommit()) {
                c.rollback();
                c.setAutoCommit(true);
            }
            if (isolationChanged) {
                c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            }
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * Closes the idle connections and refuses new ones; a connection still handed out is closed when it
     * is given back.
     */
    @Override
    public void close() {
        pool.close();
    }

    /** The borrower's view of a session: every call goes to it until {@code close()}, which gives it back. */
    private final class Handle implements InvocationHandler {
        private final Connection physical;
        private boolean handedBack;
        private boolean isolationChanged;
        private boolean failed;

        Handle(Connection physical) {
            this.physical = physical;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            switch (name) {
                case "close" -> {
                    synchronized (this) {
                        if (handedBack) {
                            return null;
                        }
                        handedBack = true;
                    }
                    if (!failed && restore(physical, isolationChanged)) {
                        pool.giveBack(physical);
                    } else {
                        pool.discard(physical);
                    }
                    return null;
                }
                case "isClosed" -> {
                    return handedBack || physical.isClosed();
                }
                case "equals" -> {
                    return proxy == args[0];
                }
                case "hashCode" -> {
                    return System.identityHashCode(proxy);
                }
                case "toString" -> {
                    return "pooled " + physical;
                }
                default -> {
                }
            }
            if (handedBack) {
                throw new SQLException("the connection was closed (given back to the pool)", "08003");
            }
            if (name.equals("setTransactionIsolation")) {
                isolationChanged = true;
            }
            try {
                return method.invoke(physical, args);
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                if (Database.serverWentAway(cause)) {
                    failed = true; // the session or the process serving it is gone: do not hand it out again
                }
                throw cause;
            }
        }
    }
}
