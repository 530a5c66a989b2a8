package io.keyline.store;

import io.keyline.text.Said;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A real database whose next commit lands and whose answer is then lost, as when the process that serves an H2
 * state over AUTO_SERVER closes it just after our commit went through (or a PostgreSQL connection breaks after
 * the server committed): the caller reads the connection lost and cannot tell whether its transaction committed.
 * Only the lost answer is made up; the commit is the real database's.
 */
public final class LostCommitAnswer implements Database {

    /** As H2's client reports a connection to the serving process that broke. */
    static final String LOST = "Connection is broken: \"java.io.EOFException\" [90067-232]";

    private final Database real;
    private int losses;
    private int lost;

    public LostCommitAnswer(Database real) {
        this.real = real;
    }

    /** The next {@code n} commits land and then throw the connection lost. */
    public LostCommitAnswer loseNext(int n) {
        synchronized (this) {
            losses = n;
        }
        return this;
    }

    /** How many commit answers were lost so far. */
    public synchronized int lost() {
        return lost;
    }

    private synchronized boolean loseThisOne() {
        if (losses == 0) {
            return false;
        }
        losses--;
        lost++;
        return true;
    }

    @Override
    public Connection connection() throws SQLException {
        Connection c = real.connection();
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, m, args) -> {
                    Object result;
                    try {
                        result = m.invoke(c, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (m.getName().equals("commit") && loseThisOne()) {
                        throw new SQLException(LOST, "90067", 90067);
                    }
                    return result;
                });
    }

    @Override
    public boolean connectionLost(SQLException e) {
        return LOST.equals(e.getMessage()) || real.connectionLost(e);
    }

    @Override
    public void reconnect() {
        // the real database is still open: only the answer was lost
    }

    @Override
    public Dialect dialect() {
        return real.dialect();
    }

    @Override
    public String where() {
        return real.where();
    }

    @Override
    public Path stateDir() {
        return real.stateDir();
    }

    @Override
    public Connection adminConnection() throws SQLException {
        return real.adminConnection();
    }

    @Override
    public void sync() {
        real.sync();
    }

    @Override
    public Said describe(SQLException e) {
        return real.describe(e);
    }

    @Override
    public void touched() {
        real.touched();
    }

    @Override
    public void close() {
        real.close();
    }
}
