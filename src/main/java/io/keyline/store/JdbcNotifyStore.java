package io.keyline.store;

import io.keyline.core.StateUnavailableException;
import io.keyline.core.notify.NotifyStore;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyState;
import io.keyline.domain.WaitReason;
import io.keyline.text.Said;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@link NotifyStore} over JDBC (H2 and PostgreSQL). */
public final class JdbcNotifyStore implements NotifyStore {

    /** The states that wait for a person ({@link KeyState#ATTENTION}) as an SQL list: {@code ('FAILED', …)}. */
    private static final String ATTENTION = KeyState.ATTENTION.stream().map(s -> "'" + s.name() + "'")
            .collect(java.util.stream.Collectors.joining(", ", "(", ")"));

    private final Database db;

    public JdbcNotifyStore(Database db) {
        this.db = db;
    }

    @FunctionalInterface
    private interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private <T> T with(Work<T> w) {
        try (Connection c = db.connection()) {
            return w.run(c);
        } catch (SQLException e) {
            throw new StateUnavailableException(Said.of("core.store.outbox.failedIn", String.valueOf(db.stateDir()),
                    Database.firstLine(e.getMessage())), e);
        }
    }

    @Override
    public long cursor() {
        return with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT last_event_id FROM notify_cursor WHERE name = 'outbox'");
                 ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0L;
            }
        });
    }

    @Override
    public void advanceCursor(long eventId, Instant now) {
        with(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE notify_cursor SET last_event_id = ?, updated_at = ? "
                    + "WHERE name = 'outbox' AND last_event_id < ?")) {
                ps.setLong(1, eventId);
                ps.setLong(2, now.toEpochMilli());
                ps.setLong(3, eventId);
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public List<KeyEvent> attentionEntries(long afterId, int limit) {
        return with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + JdbcStateStore.EVENT_COLUMNS
                    + " FROM key_event e WHERE e.id > ? AND e.state IN " + ATTENTION + " "
                    + "AND COALESCE((SELECT p.state FROM key_event p WHERE p.job = e.job AND p.key_value = e.key_value "
                    + "AND p.id < e.id ORDER BY p.id DESC LIMIT 1), '') <> e.state "
                    // a key that has left that state since (done by hand, retried, renewed) waits for nobody: a
                    // hook added later, or a dispatch after the operator acted, does not announce it
                    + "AND NOT EXISTS (SELECT 1 FROM key_event n WHERE n.job = e.job AND n.key_value = e.key_value "
                    + "AND n.id > e.id AND n.state <> e.state) ORDER BY e.id LIMIT ?")) {
                ps.setLong(1, afterId);
                ps.setInt(2, limit);
                return JdbcStateStore.events(ps);
            }
        });
    }

    @Override
    public List<WaitingKey> waiting(int limit) {
        return with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT job, key_value, state, step, credential, updated_at, "
                    + "wait_reason FROM key_state WHERE state IN " + ATTENTION + " ORDER BY updated_at, job, key_value LIMIT ?")) {
                ps.setInt(1, limit);
                List<WaitingKey> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String why = rs.getString(7);
                        out.add(new WaitingKey(rs.getString(1), rs.getString(2), KeyState.valueOf(rs.getString(3)),
                                rs.getString(4), rs.getString(5), Instant.ofEpochMilli(rs.getLong(6)),
                                why == null ? null : WaitReason.valueOf(why)));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public java.util.Optional<Queued> latest(String prefix) {
        return with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT dedup, event_json, created_at FROM notify_delivery "
                    + "WHERE dedup LIKE ? ESCAPE '!' ORDER BY created_at DESC, id DESC LIMIT 1")) {
                ps.setString(1, prefix.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%");
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? java.util.Optional.of(new Queued(rs.getString(1), rs.getString(2),
                            Instant.ofEpochMilli(rs.getLong(3)))) : java.util.Optional.<Queued>empty();
                }
            }
        });
    }

    @Override
    public long lastEventBefore(long afterId, Instant before) {
        return with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT MAX(id) FROM key_event WHERE id > ? AND ts < ?")) {
                ps.setLong(1, afterId);
                ps.setLong(2, before.toEpochMilli());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    long v = rs.getLong(1);
                    return rs.wasNull() ? afterId : v;
                }
            }
        });
    }

    @Override
    public boolean enqueue(String dedup, String hook, String eventJson, Instant now) {
        try (Connection c = db.connection();
             PreparedStatement ps = c.prepareStatement("INSERT INTO notify_delivery (dedup, hook, event_json, status, "
                     + "attempts, next_at, created_at, updated_at) VALUES (?, ?, ?, 'PENDING', 0, ?, ?, ?)")) {
            ps.setString(1, dedup);
            ps.setString(2, hook);
            ps.setString(3, eventJson);
            ps.setLong(4, now.toEpochMilli());
            ps.setLong(5, now.toEpochMilli());
            ps.setLong(6, now.toEpochMilli());
            ps.executeUpdate();
            return true;
        } catch (SQLException e) {
            if ("23505".equals(e.getSQLState())) {
                return false; // another process (or an earlier call) queued it: once is enough
            }
            throw new StateUnavailableException(Said.of("core.store.outbox.failed", Database.firstLine(e.getMessage())),
                    e);
        }
    }

    @Override
    public List<Delivery> claimDue(Instant now, String owner, Instant until, int limit) {
        return with(c -> {
            List<Delivery> candidates = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT id, dedup, hook, event_json, attempts FROM "
                    + "notify_delivery WHERE status = 'PENDING' AND next_at <= ? AND (claimed_until IS NULL OR "
                    + "claimed_until < ?) ORDER BY id LIMIT ?")) {
                ps.setLong(1, now.toEpochMilli());
                ps.setLong(2, now.toEpochMilli());
                ps.setInt(3, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        candidates.add(new Delivery(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                                rs.getInt(5)));
                    }
                }
            }
            List<Delivery> claimed = new ArrayList<>();
            for (Delivery d : candidates) {
                // the claim is a guarded update: of two processes, one wins
                try (PreparedStatement ps = c.prepareStatement("UPDATE notify_delivery SET claimed_by = ?, "
                        + "claimed_until = ? WHERE id = ? AND status = 'PENDING' AND attempts = ? AND "
                        + "(claimed_until IS NULL OR claimed_until < ?)")) {
                    ps.setString(1, owner);
                    ps.setLong(2, until.toEpochMilli());
                    ps.setLong(3, d.id());
                    ps.setInt(4, d.attempts());
                    ps.setLong(5, now.toEpochMilli());
                    if (ps.executeUpdate() == 1) {
                        claimed.add(d);
                    }
                }
            }
            return claimed;
        });
    }

    @Override
    public Instant nextDue() {
        return with(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT MIN(next_at) FROM notify_delivery WHERE status = 'PENDING'");
                 ResultSet rs = ps.executeQuery()) {
                rs.next();
                return Database.instant(rs, 1);
            }
        });
    }

    @Override
    public void delivered(long id, Instant now) {
        with(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE notify_delivery SET status = 'SENT', "
                    + "attempts = attempts + 1, claimed_by = NULL, claimed_until = NULL, last_error = NULL, "
                    + "updated_at = ? WHERE id = ?")) {
                ps.setLong(1, now.toEpochMilli());
                ps.setLong(2, id);
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public void failed(long id, int attempts, Instant nextAt, boolean gaveUp, String error, Instant now) {
        with(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE notify_delivery SET status = ?, attempts = ?, "
                    + "next_at = ?, claimed_by = NULL, claimed_until = NULL, last_error = ?, updated_at = ? WHERE id = ?")) {
                ps.setString(1, gaveUp ? "GAVE_UP" : "PENDING");
                ps.setInt(2, attempts);
                ps.setLong(3, nextAt.toEpochMilli());
                ps.setString(4, error == null ? null : error.length() > 2000 ? error.substring(0, 1999) + "…" : error);
                ps.setLong(5, now.toEpochMilli());
                ps.setLong(6, id);
                return ps.executeUpdate();
            }
        });
    }
}
