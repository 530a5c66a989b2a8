package io.keyline.store;

import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executor;

/**
 * The borrower's view of one of {@link H2Pool}'s sessions: every call goes to the session until
 * {@code close()}, which gives it back (the pool puts it back the way a new one is, or closes it when its
 * use failed because the session or the process serving it went away).
 *
 * <p>A class, not a {@code java.lang.reflect.Proxy} [issue 14]: generating the proxy class was 2-3 % of a
 * one-shot {@code status} before it printed, and every call through it went through reflection.
 */
final class PooledConnection implements Connection {
    private final Connection physical;
    private final H2Pool pool;
    private volatile boolean handedBack;
    private volatile boolean isolationChanged;
    private volatile boolean failed;

    PooledConnection(Connection physical, H2Pool pool) {
        this.physical = physical;
        this.pool = pool;
    }

    /** The session, or the error a closed connection gives. */
    private Connection live() throws SQLException {
        if (handedBack) {
            throw new SQLException("the connection was closed (given back to the pool)", "08003");
        }
        return physical;
    }

    /** Notes that the session must not be handed out again when {@code e} says it (or its server) is gone. */
    private void seen(Exception e) {
        if (Database.serverWentAway(e)) {
            failed = true;
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            if (handedBack) {
                return;
            }
            handedBack = true;
        }
        pool.handBack(physical, failed, isolationChanged);
    }

    @Override
    public boolean isClosed() throws SQLException {
        return handedBack || physical.isClosed();
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        isolationChanged = true;
        try {
            live().setTransactionIsolation(level);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        clientInfoTarget().setClientInfo(name, value);
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        clientInfoTarget().setClientInfo(properties);
    }

    private Connection clientInfoTarget() throws SQLClientInfoException {
        if (handedBack) {
            throw new SQLClientInfoException("the connection was closed (given back to the pool)", "08003", 0,
                    Map.of());
        }
        return physical;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        return live().unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(this) || live().isWrapperFor(iface);
    }

    @Override
    public String toString() {
        return "pooled " + physical;
    }

    @Override
    public Statement createStatement() throws SQLException {
        try {
            return live().createStatement();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        try {
            return live().prepareStatement(sql);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        try {
            return live().prepareCall(sql);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public String nativeSQL(String sql) throws SQLException {
        try {
            return live().nativeSQL(sql);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        try {
            live().setAutoCommit(autoCommit);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        try {
            return live().getAutoCommit();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public void commit() throws SQLException {
        try {
            live().commit();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public void rollback() throws SQLException {
        try {
            live().rollback();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        try {
            return live().getMetaData();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        try {
            live().setReadOnly(readOnly);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        try {
            return live().isReadOnly();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public void setCatalog(String catalog) throws SQLException {
        try {
            live().setCatalog(catalog);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public String getCatalog() throws SQLException {
        try {
            return live().getCatalog();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        try {
            return live().getTransactionIsolation();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        try {
            return live().getWarnings();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public void clearWarnings() throws SQLException {
        try {
            live().clearWarnings();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public Statement createStatement(int resultSetType, int concurrency) throws SQLException {
        try {
            return live().createStatement(resultSetType, concurrency);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int concurrency) throws SQLException {
        try {
            return live().prepareStatement(sql, resultSetType, concurrency);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int concurrency) throws SQLException {
        try {
            return live().prepareCall(sql, resultSetType, concurrency);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        try {
            return live().getTypeMap();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        try {
            live().setTypeMap(map);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        try {
            live().setHoldability(holdability);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public int getHoldability() throws SQLException {
        try {
            return live().getHoldability();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        try {
            return live().setSavepoint();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        try {
            return live().setSavepoint(name);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        try {
            live().rollback(savepoint);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        try {
            live().releaseSavepoint(savepoint);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public Statement createStatement(int resultSetType, int concurrency, int holdability) throws SQLException {
        try {
            return live().createStatement(resultSetType, concurrency, holdability);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int concurrency, int holdability) throws SQLException {
        try {
            return live().prepareStatement(sql, resultSetType, concurrency, holdability);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int concurrency, int holdability) throws SQLException {
        try {
            return live().prepareCall(sql, resultSetType, concurrency, holdability);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        try {
            return live().prepareStatement(sql, autoGeneratedKeys);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        try {
            return live().prepareStatement(sql, columnIndexes);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        try {
            return live().prepareStatement(sql, columnNames);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public Clob createClob() throws SQLException {
        try {
            return live().createClob();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public Blob createBlob() throws SQLException {
        try {
            return live().createBlob();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public NClob createNClob() throws SQLException {
        try {
            return live().createNClob();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        try {
            return live().createSQLXML();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public boolean isValid(int timeoutSeconds) throws SQLException {
        try {
            return live().isValid(timeoutSeconds);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        try {
            return live().getClientInfo(name);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        try {
            return live().getClientInfo();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        try {
            return live().createArrayOf(typeName, elements);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        try {
            return live().createStruct(typeName, attributes);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public void setSchema(String schema) throws SQLException {
        try {
            live().setSchema(schema);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public String getSchema() throws SQLException {
        try {
            return live().getSchema();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public void abort(Executor executor) throws SQLException {
        try {
            live().abort(executor);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        try {
            live().setNetworkTimeout(executor, milliseconds);
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }

    @Override
    public int getNetworkTimeout() throws SQLException {
        try {
            return live().getNetworkTimeout();
        } catch (SQLException | RuntimeException e) {
            seen(e);
            throw e;
        }
    }
}
