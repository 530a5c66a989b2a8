package io.keyline.store;

import io.keyline.core.LeaseOwner;
import io.keyline.core.StateUnavailableException;
import io.keyline.core.WorkerRegistry;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.text.Said;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code worker} table (V9): who runs keys on this state, and whether a key's holder is alive.
 *
 * <p>PostgreSQL: a registered process holds the session advisory lock {@code (LOCK_SPACE, lock_no)} on
 * a connection of its own, and beats on that connection every 5 s ({@code heartbeat_at} is the database's
 * clock). A holder is alive while its lock is held (the server releases it within moments of the
 * process's death, on any machine) and its last beat is younger than 30 s (a process that hangs, or
 * that the network cut off while the server still keeps its session, loses its keys too).
 *
 * <p>H2 (one machine): the rule stays the lease's expiry plus "a dead process of this host"; the table
 * is kept for the Workers panel.
 */
final class JdbcWorkers implements WorkerRegistry {

    /** How often a process beats on PostgreSQL. */
    static final Duration BEAT = Duration.ofSeconds(5);
    /** A holder whose last beat is older than this is gone, lock or not. */
    static final Duration EXPIRY = Duration.ofSeconds(30);
    /** Stopped or long-dead processes are forgotten after this. */
    static final Duration FORGET = Duration.ofDays(1);

    private final Database db;
    private final Dialect dialect;
    private final Duration beat;
    private final Duration expiry;
    /** PostgreSQL: the connection that holds the advisory lock of each process registered here. */
    private final Map<String, Lock> locks = new ConcurrentHashMap<>();

    private record Lock(Connection connection, int number) {
    }

    JdbcWorkers(Database db) {
        this(db, durationProperty("keyline.worker.beat", BEAT), durationProperty("keyline.worker.expiry", EXPIRY));
    }

    JdbcWorkers(Database db, Duration beat, Duration expiry) {
        this.db = db;
        this.dialect = db.dialect();
        this.beat = beat;
        this.expiry = expiry;
    }

    /** A duration from a system property (ISO-8601, e.g. PT1S; tests shorten the heartbeat), else the default. */
    private static Duration durationProperty(String name, Duration fallback) {
        String v = System.getProperty(name);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        try {
            return Duration.parse(v);
        } catch (java.time.format.DateTimeParseException e) {
            return fallback;
        }
    }

    private String now() {
        return dialect.nowMillis();
    }

    @Override
    public void register(Registration self) {
        for (int attempt = 1; ; attempt++) {
            try {
                registerOnce(self);
                return;
            } catch (SQLException e) {
                if (attempt < ATTEMPTS && db.connectionLost(e)) {
                    // the process that served the state closed it under us (cron started several at once): the
                    // row may be in or not; the next attempt replaces it
                    db.reconnect();
                    continue;
                }
                // a full disk is named as such (H2 itself only says "Writing to ... failed"; BadInputSuite)
                Said full = db.stateDir() == null ? null : Database.diskFull(db.stateDir(), e);
                throw new StateUnavailableException(full != null ? full : Said.of("core.state.cannotRegister",
                        db.where(), Database.firstLine(e.getMessage())), e);
            }
        }
    }

    /** Connection attempts of {@link #register} when the process serving the state closes it meanwhile. */
    private static final int ATTEMPTS = 3;

    private void registerOnce(Registration self) throws SQLException {
        Lock earlier = locks.remove(self.id());
        if (earlier != null) {
            earlier.connection().close(); // an attempt that took its lock, then lost the connection
        }
        try (Connection c = db.connection()) {
            forgetOld(c);
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM worker WHERE id = ?")) {
                ps.setString(1, self.id()); // left by an attempt whose connection broke after its insert
                ps.executeUpdate();
            }
            for (int attempt = 1; ; attempt++) {
                int number = insert(c, self);
                if (dialect != Dialect.POSTGRESQL) {
                    break;
                }
                Connection lockConn = db.dedicated();
                if (tryLock(lockConn, number)) {
                    locks.put(self.id(), new Lock(lockConn, number));
                    break;
                }
                // the number is held by a process whose row was forgotten: take another one
                lockConn.close();
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM worker WHERE id = ?")) {
                    ps.setString(1, self.id());
                    ps.executeUpdate();
                }
                if (attempt == 5) {
                    throw new StateUnavailableException(Said.of("core.store.workers.noLock", db.where()), null);
                }
            }
            db.touched();
        }
    }

    /** Inserts the row (a free lock number: the highest + 1, retried when another process took it first). */
    private int insert(Connection c, Registration self) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            int number = (int) Database.single(c, "SELECT COALESCE(MAX(lock_no), 0) + 1 FROM worker");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO worker (id, lock_no, host, pid, kind, "
                    + "keyline_version, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?, " + now() + ", " + now() + ")")) {
                ps.setString(1, self.id());
                ps.setInt(2, number);
                ps.setString(3, clip(self.host(), 200));
                ps.setLong(4, self.pid());
                ps.setString(5, self.kind());
                ps.setString(6, clip(self.version(), 40));
                ps.executeUpdate();
                return number;
            } catch (SQLException e) {
                if (!dialect.uniqueViolation(e) || attempt == 10) {
                    throw e;
                }
                // another process registered with the same number at the same moment (or this id exists)
                try (PreparedStatement ps = c.prepareStatement("SELECT lock_no FROM worker WHERE id = ?")) {
                    ps.setString(1, self.id());
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            return rs.getInt(1);
                        }
                    }
                }
            }
        }
    }

    private static boolean tryLock(Connection c, int number) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_try_advisory_lock(?, ?)")) {
            ps.setInt(1, Dialect.LOCK_SPACE);
            ps.setInt(2, number);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /** Forgets processes stopped (or silent) for a day: their keys, if any, were taken over long ago. */
    private void forgetOld(Connection c) throws SQLException {
        String old = "(" + now() + " - " + FORGET.toMillis() + ")";
        String sql = "DELETE FROM worker WHERE (stopped_at IS NOT NULL AND stopped_at < " + old + ") OR heartbeat_at < "
                + old + (dialect == Dialect.POSTGRESQL ? " AND NOT " + lockHeld("worker") : "");
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            if (dialect == Dialect.POSTGRESQL) {
                ps.setInt(1, Dialect.LOCK_SPACE);
            }
            ps.executeUpdate();
        }
    }

    /** SQL: whether the advisory lock of the worker row {@code alias} is held (one parameter: LOCK_SPACE). */
    private static String lockHeld(String alias) {
        return "EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted"
                + " AND l.classid = CAST(? AS oid) AND l.objid = CAST(" + alias + ".lock_no AS oid) AND l.objsubid = 2"
                + " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()))";
    }

    @Override
    public void beat(String id) {
        if (dialect != Dialect.POSTGRESQL) {
            try (Connection c = db.connection()) {
                beatOn(c, id);
            } catch (SQLException e) {
                throw new StateUnavailableException(Said.of("core.store.workers.heartbeatFailed",
                        Database.firstLine(e.getMessage())), e);
            }
            return;
        }
        Lock lock = locks.get(id);
        if (lock == null) {
            return; // not registered by this process
        }
        try {
            if (beatOn(lock.connection(), id) == 0) {
                throw new SQLException("the worker row of " + id + " is gone");
            }
        } catch (SQLException e) {
            // the lock's session is gone (server restart, network): take the lock again on a new one
            relock(id, lock, e);
        }
        db.touched();
    }

    private int beatOn(Connection c, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE worker SET heartbeat_at = " + now() + " WHERE id = ?")) {
            ps.setString(1, id);
            return ps.executeUpdate();
        }
    }

    private void relock(String id, Lock old, SQLException cause) {
        try {
            old.connection().close();
        } catch (SQLException ignored) {
            // broken already
        }
        try {
            Connection fresh = db.dedicated();
            if (!tryLock(fresh, old.number())) {
                fresh.close();
                throw new StateUnavailableException(Said.of("core.store.workers.lockHeld",
                        String.valueOf(old.number()), id), cause);
            }
            if (beatOn(fresh, id) == 0) {
                fresh.close();
                throw new StateUnavailableException(Said.of("core.store.workers.rowGone", id), cause);
            }
            locks.put(id, new Lock(fresh, old.number()));
        } catch (SQLException e) {
            e.addSuppressed(cause);
            throw new StateUnavailableException(Said.of("core.store.workers.heartbeatFailed", db.describe(e)), e);
        }
    }

    @Override
    public void deregister(String id) {
        Lock lock = locks.remove(id);
        try (Connection c = db.connection();
             PreparedStatement ps = c.prepareStatement("UPDATE worker SET stopped_at = " + now() + " WHERE id = ?")) {
            ps.setString(1, id);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new StateUnavailableException(Said.of("core.store.workers.cannotDeregister", id,
                    Database.firstLine(e.getMessage())), e);
        } finally {
            if (lock != null) {
                try {
                    lock.connection().close(); // ends the session: the lock goes with it
                } catch (SQLException ignored) {
                    // gone already
                }
            }
        }
        db.touched();
    }

    @Override
    public boolean holderAlive(KeyRecord running, Instant now) {
        if (dialect != Dialect.POSTGRESQL) {
            return WorkerRegistry.localRule(running, now);
        }
        if (running == null || running.state() != KeyState.RUNNING || running.leaseOwner() == null) {
            return false;
        }
        try (Connection c = db.connection();
             PreparedStatement ps = c.prepareStatement("SELECT w.heartbeat_at > " + now() + " - ?, " + lockHeld("w")
                     + " FROM worker w WHERE w.id = ? AND w.stopped_at IS NULL")) {
            ps.setLong(1, expiry.toMillis());
            ps.setInt(2, Dialect.LOCK_SPACE);
            ps.setString(3, running.leaseOwner());
            try (ResultSet rs = ps.executeQuery()) {
                // a holder that never registered (a state copied from H2, an older Keyline) is not alive
                return rs.next() && rs.getBoolean(1) && rs.getBoolean(2);
            }
        } catch (SQLException e) {
            // not knowing is not "dead": a key is never taken over on a guess
            throw new StateUnavailableException(Said.of("core.store.workers.holderUnknown", running.job(),
                    running.key(), Database.firstLine(e.getMessage())), e);
        }
    }

    @Override
    public Duration beatPeriod(Duration lease) {
        Duration third = Duration.ofMillis(Math.max(1, lease.toMillis() / 3));
        if (dialect != Dialect.POSTGRESQL) {
            return third;
        }
        return third.compareTo(beat) < 0 ? third : beat;
    }

    @Override
    public List<Worker> list(Instant now) {
        boolean pg = dialect == Dialect.POSTGRESQL;
        // H2: beats come every third of the (2 min) lease: six missed ones and the process is not counted alive
        long silence = pg ? expiry.toMillis() : beatPeriod(Duration.ofMinutes(2)).multipliedBy(6).toMillis();
        String alive = "(w.stopped_at IS NULL AND w.heartbeat_at > " + now() + " - ?"
                + (pg ? " AND " + lockHeld("w") : "") + ")";
        try (Connection c = db.connection()) {
            Map<String, List<String>> keys = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT lease_owner, job, key_value FROM key_state "
                    + "WHERE state = 'RUNNING' AND lease_owner IS NOT NULL ORDER BY job, key_value")) {
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        keys.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                                .add(rs.getString(2) + " " + rs.getString(3));
                    }
                }
            }
            List<Worker> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT w.id, w.host, w.pid, w.kind, w.keyline_version, "
                    + "w.started_at, w.heartbeat_at, w.stopped_at, " + alive + " FROM worker w "
                    + "WHERE w.stopped_at IS NULL OR w.stopped_at > " + now() + " - ? ORDER BY w.started_at, w.id")) {
                int i = 1;
                ps.setLong(i++, silence);
                if (pg) {
                    ps.setInt(i++, Dialect.LOCK_SPACE);
                }
                ps.setLong(i, FORGET.toMillis());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String id = rs.getString(1);
                        Instant heartbeat = Instant.ofEpochMilli(rs.getLong(7));
                        boolean isAlive = rs.getBoolean(9);
                        if (!pg) {
                            // one machine: the process must also still run
                            isAlive = isAlive && !LeaseOwner.provablyDead(id);
                        }
                        List<String> held = keys.getOrDefault(id, List.of());
                        out.add(new Worker(id, rs.getString(2), rs.getLong(3), rs.getString(4), rs.getString(5),
                                Instant.ofEpochMilli(rs.getLong(6)), heartbeat, isAlive,
                                Database.instant(rs, 8), List.copyOf(held)));
                    }
                }
            }
            out.sort(java.util.Comparator.comparing((Worker w) -> !w.alive()).thenComparing(Worker::since));
            return out;
        } catch (SQLException e) {
            throw new StateUnavailableException(Said.of("core.store.workers.cannotList", db.where(),
                    Database.firstLine(e.getMessage())), e);
        }
    }

    private static String clip(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
    }
}
