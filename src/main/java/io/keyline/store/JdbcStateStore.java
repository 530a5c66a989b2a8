package io.keyline.store;

import com.fasterxml.jackson.core.type.TypeReference;
import io.keyline.core.json.Json;
import io.keyline.core.StaleStateException;
import io.keyline.core.StateStore;
import io.keyline.core.StateUnavailableException;
import io.keyline.domain.EventType;
import io.keyline.domain.Evidence;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobControl;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.StepRecord;
import io.keyline.domain.StepStatus;
import io.keyline.domain.WaitReason;
import io.keyline.store.Transaction.Work;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import static io.keyline.store.Database.instant;
import static io.keyline.store.Database.setInstant;

/**
 * {@link StateStore} over JDBC, in SQL that H2 (PostgreSQL mode) and PostgreSQL both accept; where they
 * differ (errors, the workers' liveness) {@link Dialect} and {@link JdbcWorkers} decide.
 */
public final class JdbcStateStore implements StateStore {

    /** The columns of a key that a change writes, in the order {@link #bindState} binds them. */
    private static final String STATE_COLUMNS = "state, step, attempts, next_attempt_at, failure_class, message, "
            + "credential, confirmed_step, confirmed_hash, run_id, lease_owner, lease_until, version, updated_at, "
            + "wait_reason, failure_origin, message_said";
    /** Every column of a key, as {@link #keyRecord} reads them and {@link #bindKey} binds them. */
    private static final String KEY_COLUMNS = "job, key_value, created_at, " + STATE_COLUMNS;
    /** {@code state = ?, step = ?, …}: what a guarded change sets. */
    private static final String STATE_SET = STATE_COLUMNS.replace(", ", " = ?, ") + " = ?";
    /** A guarded change of a key nobody holds: its version must be the one read. */
    private static final String GUARDED_UPDATE = "UPDATE key_state SET " + STATE_SET
            + " WHERE job = ? AND key_value = ? AND version = ?";
    /** A guarded change of a held key: its version and its lease owner must be the ones read. */
    private static final String GUARDED_HELD_UPDATE = GUARDED_UPDATE + " AND lease_owner = ?";
    private static final int CHUNK = 500;
    private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {
    };

    private final Database db;
    private final java.util.concurrent.atomic.AtomicLong claimConflicts = new java.util.concurrent.atomic.AtomicLong();
    private volatile JdbcWorkers workers;

    /** A store on {@code db}, which stays its opener's to close. */
    public JdbcStateStore(Database db) {
        this.db = db;
    }

    @Override
    public io.keyline.core.WorkerRegistry workers() {
        JdbcWorkers w = workers;
        if (w == null) {
            synchronized (this) {
                if (workers == null) {
                    workers = new JdbcWorkers(db);
                }
                w = workers;
            }
        }
        return w;
    }

    @Override
    public long claimConflicts() {
        return claimConflicts.get();
    }

    @Override
    public AutoCloseable watch(Runnable onChange) {
        return db.listen(onChange);
    }

    /** One statement's worth of keys: the chunk and its {@code ?, ?, …} for an {@code IN (…)}. */
    private interface ChunkWork {
        void run(Connection c, List<String> chunk, String marks) throws SQLException;
    }

    /** Reads {@code keys} (each once) {@link #CHUNK} at a time, on one connection, a statement per chunk. */
    private void inChunks(Collection<String> keys, ChunkWork work) {
        List<String> all = List.copyOf(new java.util.LinkedHashSet<>(keys));
        read(c -> {
            for (int from = 0; from < all.size(); from += CHUNK) {
                List<String> chunk = all.subList(from, Math.min(all.size(), from + CHUNK));
                work.run(c, chunk, String.join(", ", java.util.Collections.nCopies(chunk.size(), "?")));
            }
            return null;
        });
    }

    /** Connection attempts when the process serving the database (AUTO_SERVER) exits under us. */
    private static final int ATTEMPTS = 3;

    private <T> T read(Work<T> work) {
        for (int attempt = 1; ; attempt++) {
            try (Connection c = db.connection()) {
                return work.run(c);
            } catch (SQLException e) {
                if (!serverWentAway(e) || attempt == ATTEMPTS) {
                    throw unavailable(e);
                }
                db.reconnect();
            }
        }
    }

    /**
     * Runs {@code work} in one transaction. When the serving process went away mid-way the
     * transaction is tried again on a new connection: every change is guarded by its version, so a
     * change that did commit before the connection broke fails its guard instead of applying twice.
     */
    private <T> T inTransaction(Work<T> work) {
        return inTransaction(work, true);
    }

    /** As {@link #inTransaction(Work)}; {@code announce}: consoles hear of the change (PostgreSQL). */
    private <T> T inTransaction(Work<T> work, boolean announce) {
        for (int attempt = 1; ; attempt++) {
            try {
                return inTransactionOnce(work, announce);
            } catch (StateUnavailableException e) {
                if (!(e.getCause() instanceof SQLException sql) || !serverWentAway(sql) || attempt == ATTEMPTS) {
                    throw e;
                }
                db.reconnect();
            }
        }
    }

    private boolean serverWentAway(SQLException e) {
        return db.connectionLost(e);
    }

    private <T> T inTransactionOnce(Work<T> work, boolean announce) {
        try (Connection c = db.connection()) {
            T result = Transaction.run(c, work);
            if (announce) {
                db.touched();
            }
            return result;
        } catch (SQLException e) {
            throw unavailable(e);
        }
    }

    private StateUnavailableException unavailable(SQLException e) {
        return new StateUnavailableException(db.describe(e), e);
    }

    @Override
    public Optional<KeyRecord> key(String job, String key) {
        return read(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT " + KEY_COLUMNS + " FROM key_state WHERE job = ? AND key_value = ?")) {
                ps.setString(1, job);
                ps.setString(2, key);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(keyRecord(rs)) : Optional.empty();
                }
            }
        });
    }

    @Override
    public Map<String, KeyRecord> keys(String job, Collection<String> keys) {
        List<String> all = new ArrayList<>(keys);
        Map<String, KeyRecord> out = new HashMap<>(Math.max(16, all.size() * 2));
        if (all.isEmpty()) {
            return out;
        }
        if (all.size() > 5_000) {
            // A large target set: one scan of the job is cheaper than thousands of lookups.
            java.util.Set<String> wanted = new java.util.HashSet<>(all);
            for (KeyRecord r : keys(job)) {
                if (wanted.contains(r.key())) {
                    out.put(r.key(), r);
                }
            }
            return out;
        }
        inChunks(all, (c, chunk, marks) -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + KEY_COLUMNS
                    + " FROM key_state WHERE job = ? AND key_value IN (" + marks + ")")) {
                ps.setString(1, job);
                for (int i = 0; i < chunk.size(); i++) {
                    ps.setString(i + 2, chunk.get(i));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        KeyRecord r = keyRecord(rs);
                        out.put(r.key(), r);
                    }
                }
            }
        });
        return out;
    }

    @Override
    public List<KeyRecord> keys(String job) {
        return query(KeyQuery.all(job));
    }

    /** The WHERE clause of a listing query and its arguments. */
    private record Where(String sql, List<Object> args) {
        static Where of(KeyQuery q) {
            StringBuilder sql = new StringBuilder(" WHERE 1 = 1");
            List<Object> args = new ArrayList<>();
            if (q.job() != null) {
                sql.append(" AND job = ?");
                args.add(q.job());
            }
            if (!q.states().isEmpty()) {
                sql.append(" AND state IN (").append(String.join(",", java.util.Collections.nCopies(q.states().size(), "?")))
                        .append(')');
                q.states().stream().map(Enum::name).sorted().forEach(args::add);
            }
            if (q.reviews() == KeyQuery.ReviewWaits.ONLY) {
                sql.append(" AND state = ? AND wait_reason = ?");
                args.add(KeyState.NEEDS_CONFIRMATION.name());
                args.add(WaitReason.REVIEW.name());
            } else if (q.reviews() == KeyQuery.ReviewWaits.WITHOUT) {
                sql.append(" AND (state <> ? OR wait_reason IS NULL OR wait_reason <> ?)");
                args.add(KeyState.NEEDS_CONFIRMATION.name());
                args.add(WaitReason.REVIEW.name());
            }
            if (q.search() != null && !q.search().isBlank()) {
                sql.append(" AND (LOWER(key_value) LIKE ? ESCAPE '!' OR LOWER(COALESCE(message, '')) LIKE ? ESCAPE '!')");
                String like = "%" + q.search().toLowerCase(java.util.Locale.ROOT).replace("!", "!!").replace("%", "!%")
                        .replace("_", "!_") + "%";
                args.add(like);
                args.add(like);
            }
            if (q.keyFrom() != null) {
                sql.append(" AND key_value >= ?");
                args.add(q.keyFrom());
            }
            if (q.keyTo() != null) {
                sql.append(" AND key_value <= ?");
                args.add(q.keyTo());
            }
            return new Where(sql.toString(), args);
        }

        void bind(PreparedStatement ps) throws SQLException {
            for (int i = 0; i < args.size(); i++) {
                ps.setObject(i + 1, args.get(i));
            }
        }
    }

    @Override
    public List<KeyRecord> query(KeyQuery q) {
        Where where = Where.of(q);
        StringBuilder sql = new StringBuilder("SELECT " + KEY_COLUMNS + " FROM key_state").append(where.sql());
        // Every key on H2 (a status): read in the table's own order and sorted here. In the primary key's
        // order H2 looks up each row by its row id, a third more time for 10,000 keys. H2
        // compares text as Java does (String.compareTo), so the order is the same.
        boolean sortHere = q.limit() == Integer.MAX_VALUE && q.offset() == 0 && db.dialect() == Dialect.H2;
        String dir = q.descending() ? " DESC" : "";
        if (!sortHere) {
            sql.append(" ORDER BY job").append(dir).append(", key_value").append(dir);
        }
        if (q.limit() != Integer.MAX_VALUE) {
            sql.append(" LIMIT ").append(q.limit());
        }
        if (q.offset() > 0) {
            sql.append(" OFFSET ").append(q.offset());
        }
        return read(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
                where.bind(ps);
                ps.setFetchSize(1000);
                List<KeyRecord> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(keyRecord(rs));
                    }
                }
                if (sortHere) {
                    java.util.Comparator<KeyRecord> order = java.util.Comparator.comparing(KeyRecord::job)
                            .thenComparing(KeyRecord::key);
                    out.sort(q.descending() ? order.reversed() : order);
                }
                return out;
            }
        });
    }

    @Override
    public int count(KeyQuery q) {
        Where where = Where.of(q);
        return read(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM key_state" + where.sql())) {
                where.bind(ps);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
    }

    @Override
    public Map<String, Map<KeyState, Integer>> countsByJob() {
        return read(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT job, state, COUNT(*) FROM key_state GROUP BY job, state")) {
                Map<String, Map<KeyState, Integer>> out = new HashMap<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.computeIfAbsent(rs.getString(1), j -> new EnumMap<>(KeyState.class))
                                .put(KeyState.valueOf(rs.getString(2)), rs.getInt(3));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public Map<KeyState, Integer> countsByState(String job) {
        return read(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT state, COUNT(*) FROM key_state WHERE job = ? GROUP BY state")) {
                ps.setString(1, job);
                Map<KeyState, Integer> out = new EnumMap<>(KeyState.class);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(KeyState.valueOf(rs.getString(1)), rs.getInt(2));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public Map<String, StepRecord> steps(String job, String key) {
        return read(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT step, status, attempts, first_attempt_at, outputs, "
                    + "updated_at FROM step_state WHERE job = ? AND key_value = ?")) {
                ps.setString(1, job);
                ps.setString(2, key);
                Map<String, StepRecord> out = new LinkedHashMap<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String outputs = rs.getString(5);
                        out.put(rs.getString(1), new StepRecord(rs.getString(1), StepStatus.valueOf(rs.getString(2)),
                                rs.getInt(3), instant(rs, 4),
                                outputs == null ? Map.of() : readMap(outputs), instant(rs, 6)));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public Map<String, Map<String, StepRecord>> steps(String job, Collection<String> keys) {
        Map<String, Map<String, StepRecord>> out = new LinkedHashMap<>();
        if (keys.isEmpty()) {
            return out;
        }
        inChunks(keys, (c, chunk, marks) -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT key_value, step, status, attempts, "
                    + "first_attempt_at, outputs, updated_at FROM step_state WHERE job = ? AND key_value IN ("
                    + marks + ")")) {
                ps.setString(1, job);
                for (int i = 0; i < chunk.size(); i++) {
                    ps.setString(i + 2, chunk.get(i));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String outputs = rs.getString(6);
                        out.computeIfAbsent(rs.getString(1), k -> new LinkedHashMap<>()).put(rs.getString(2),
                                new StepRecord(rs.getString(2), StepStatus.valueOf(rs.getString(3)), rs.getInt(4),
                                        instant(rs, 5), outputs == null ? Map.of() : readMap(outputs),
                                        instant(rs, 7)));
                    }
                }
            }
        });
        return out;
    }

    @Override
    public Map<String, RunSpan> finishingRuns(String job, Collection<String> keys) {
        Map<String, RunSpan> out = new LinkedHashMap<>();
        if (keys.isEmpty()) {
            return out;
        }
        inChunks(keys, (c, chunk, marks) -> {
            // the key's last event that made it done; when a run wrote it (not an operator), that run's events
            try (PreparedStatement ps = c.prepareStatement("SELECT e.key_value, MIN(e.ts), MAX(e.ts) "
                    + "FROM key_event e JOIN key_event d ON d.job = e.job AND d.key_value = e.key_value "
                    + "AND d.run_id = e.run_id JOIN (SELECT job, key_value, MAX(id) AS id FROM key_event "
                    + "WHERE job = ? AND key_value IN (" + marks + ") AND event_type IN (?, ?) "
                    + "GROUP BY job, key_value) m ON d.id = m.id GROUP BY e.key_value")) {
                int i = 1;
                ps.setString(i++, job);
                for (String k : chunk) {
                    ps.setString(i++, k);
                }
                ps.setString(i++, EventType.KEY_DONE.name());
                ps.setString(i, EventType.MARKED_DONE.name());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(rs.getString(1), new RunSpan(instant(rs, 2), instant(rs, 3)));
                    }
                }
            }
        });
        return out;
    }

    private static Map<String, String> readMap(String json) {
        try {
            return Json.MAPPER.readValue(json, STRING_MAP);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The columns of a key event, in the order {@link #events} reads them ({@code e}: the key_event table). */
    static final String EVENT_COLUMNS = "e.id, e.job, e.key_value, e.ts, e.run_id, e.event_type, e.step, "
            + "e.attempt, e.state, e.failure_class, e.message, e.user_name, e.note, e.evidence, e.probe_answer, "
            + "e.message_said, e.wait_reason";

    @Override
    public List<KeyEvent> events(String job, String key) {
        return read(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + EVENT_COLUMNS + " FROM key_event e "
                    + "WHERE e.job = ? AND e.key_value = ? ORDER BY e.id")) {
                ps.setString(1, job);
                ps.setString(2, key);
                return events(ps);
            }
        });
    }

    @Override
    public List<KeyEvent> lastFailures(java.util.Set<KeyState> keyStates) {
        if (keyStates.isEmpty()) {
            return List.of();
        }
        String marks = String.join(",", java.util.Collections.nCopies(keyStates.size(), "?"));
        return read(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + EVENT_COLUMNS + " FROM key_event e JOIN ("
                    + "SELECT f.job, f.key_value, MAX(f.id) AS id FROM key_event f JOIN key_state k "
                    + "ON k.job = f.job AND k.key_value = f.key_value WHERE k.state IN (" + marks + ") "
                    + "AND f.failure_class IS NOT NULL AND f.evidence IS NOT NULL AND f.event_type <> ? "
                    + "GROUP BY f.job, f.key_value) m ON e.id = m.id")) {
                int i = 1;
                for (KeyState st : keyStates) {
                    ps.setString(i++, st.name());
                }
                ps.setString(i, EventType.WAITING_FOR_CONFIRMATION.name());
                return events(ps);
            }
        });
    }

    /** The events {@code ps} selects, as {@link #EVENT_COLUMNS} lists their columns. */
    static List<KeyEvent> events(PreparedStatement ps) throws SQLException {
        List<KeyEvent> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String fc = rs.getString(10);
                String ev = rs.getString(14);
                String probe = rs.getString(15);
                String why = rs.getString(17);
                out.add(new KeyEvent(rs.getLong(1), rs.getString(2), rs.getString(3), instant(rs, 4),
                        rs.getString(5), EventType.valueOf(rs.getString(6)), rs.getString(7), rs.getInt(8),
                        KeyState.valueOf(rs.getString(9)), fc == null ? null : FailureClass.valueOf(fc),
                        rs.getString(11), rs.getString(12), rs.getString(13),
                        ev == null ? null : Json.read(ev, Evidence.class),
                        probe == null ? null : io.keyline.domain.ProbeAnswer.valueOf(probe),
                        SaidJson.read(rs.getString(16)), why == null ? null : WaitReason.valueOf(why)));
            }
        }
        return out;
    }

    @Override
    public KeyRecord ensure(KeyRecord fresh) {
        return ensure(fresh, 1);
    }

    private KeyRecord ensure(KeyRecord fresh, int attempt) {
        Optional<KeyRecord> existing = key(fresh.job(), fresh.key());
        if (existing.isPresent()) {
            if (attempt > 1) {
                db.touched(); // our insert may be the one that landed: consoles hear of it
            }
            return existing.get();
        }
        KeyRecord stored = fresh.withVersion(1);
        try (Connection c = db.connection()) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO key_state (" + KEY_COLUMNS
                    + ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
                bindKey(ps, stored);
                ps.executeUpdate();
            }
            db.touched();
            return stored;
        } catch (SQLException e) {
            if (db.dialect().uniqueViolation(e)) {
                // Another process stored it between our read and our insert.
                return key(fresh.job(), fresh.key()).orElseThrow(() -> unavailable(e));
            }
            if (serverWentAway(e) && attempt < ATTEMPTS) {
                // the insert may have landed before the connection broke: the next attempt reads it first
                db.reconnect();
                return ensure(fresh, attempt + 1);
            }
            throw unavailable(e);
        }
    }

    @Override
    public KeyRecord apply(KeyRecord before, KeyRecord after, StepRecord step, KeyEvent event) {
        return inTransaction(c -> {
            KeyRecord written = write(c, before, after, step, event);
            if (written == null) {
                throw new StaleStateException(before.job(), before.key());
            }
            return written;
        });
    }

    @Override
    public List<KeyRecord> applyAll(List<Change> changes) {
        if (changes.isEmpty()) {
            return List.of();
        }
        return inTransaction(c -> {
            List<KeyRecord> out = new ArrayList<>();
            for (Change ch : changes) {
                KeyRecord w = write(c, ch.before(), ch.after(), ch.step(), ch.event(), ch.removeSteps(),
                        ch.stepIsNew());
                if (w != null) {
                    out.add(w);
                }
            }
            return out;
        });
    }

    @Override
    public KeyRecord applyChain(List<Change> changes) {
        if (changes.isEmpty()) {
            throw new IllegalArgumentException("empty chain");
        }
        KeyRecord first = changes.get(0).after();
        // what the key is when the whole chain is written: its first guard fails against it after a lost answer
        Change head = changes.get(0);
        KeyRecord whole = changes.get(changes.size() - 1).after()
                .withVersion((head.before() == null ? 0 : head.before().version()) + changes.size());
        try {
            return inTransaction(c -> {
                KeyRecord last = null;
                for (Change ch : changes) {
                    last = ch.before() == null ? insert(c, ch.after(), ch.step(), ch.event(), ch.stepIsNew())
                            : write(c, ch.before(), ch.after(), ch.step(), ch.event(), ch.removeSteps(),
                            ch.stepIsNew());
                    if (last == null && ch == head && changes.size() > 1) {
                        last = landed(c, whole);
                        if (last != null) {
                            return last;
                        }
                    }
                    if (last == null) {
                        // roll back what the chain wrote so far: all or nothing
                        throw new StaleStateException(first.job(), first.key());
                    }
                }
                return last;
            });
        } catch (StateUnavailableException e) {
            if (e.getCause() instanceof SQLException sql && db.dialect().uniqueViolation(sql)) {
                KeyRecord landed = read(c -> landed(c, whole));
                if (landed != null) {
                    return landed;
                }
                countIfClaim(changes.get(0));
                throw new StaleStateException(first.job(), first.key());
            }
            throw e;
        } catch (StaleStateException e) {
            countIfClaim(changes.get(0));
            throw e;
        }
    }

    /** A chain that starts with a claim and lost it to another process: a claim conflict. */
    private void countIfClaim(Change first) {
        if (first.event() != null && (first.event().type() == EventType.CLAIMED
                || first.event().type() == EventType.RECOVERED)) {
            claimConflicts.incrementAndGet();
        }
    }

    /** How many candidate rows one pick locks at most (the first startable one is claimed). */
    private static final int PICK_BATCH = 8;

    /**
     * The candidates are read and locked with {@code FOR UPDATE SKIP LOCKED} (H2 and PostgreSQL both
     * have it): a row another process is claiming at this moment is passed by instead of waited for and
     * lost, and the first startable one is claimed in the same transaction (still guarded by its version).
     */
    @Override
    public Optional<KeyRecord> claimNext(String job, List<String> keys, Instant now,
                                         java.util.function.Function<KeyRecord, Change> claim) {
        if (keys.isEmpty()) {
            return Optional.empty();
        }
        KeyRecord[] tried = new KeyRecord[1];
        return inTransaction(c -> {
            if (tried[0] != null) {
                // tried again after a lost answer: the claim may have committed (its row is RUNNING, not a candidate)
                KeyRecord landed = landed(c, tried[0]);
                if (landed != null) {
                    return Optional.of(landed);
                }
                tried[0] = null;
            }
            java.util.Set<String> passed = new java.util.HashSet<>();
            while (true) {
                List<KeyRecord> locked = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement("SELECT " + KEY_COLUMNS + " FROM key_state "
                        + "WHERE job = ? AND key_value = ANY(?) AND (state = 'PENDING' OR (state = 'RETRY_WAIT' "
                        + "AND (next_attempt_at IS NULL OR next_attempt_at <= ?))) ORDER BY key_value LIMIT ? "
                        + "FOR UPDATE SKIP LOCKED")) {
                    ps.setString(1, job);
                    ps.setArray(2, c.createArrayOf("VARCHAR", keys.stream().filter(k -> !passed.contains(k)).toArray()));
                    ps.setLong(3, now.toEpochMilli());
                    ps.setInt(4, PICK_BATCH);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            locked.add(keyRecord(rs));
                        }
                    }
                }
                if (locked.isEmpty()) {
                    return Optional.empty();
                }
                for (KeyRecord r : locked) {
                    passed.add(r.key());
                    Change ch = claim.apply(r);
                    if (ch == null) {
                        continue;
                    }
                    KeyRecord written = write(c, ch.before(), ch.after(), ch.step(), ch.event());
                    if (written != null) {
                        tried[0] = written;
                        return Optional.of(written);
                    }
                    claimConflicts.incrementAndGet(); // the safety net caught what the lock did not
                }
            }
        });
    }

    /** Inserts a key that was never stored, with its step record and event. */
    private KeyRecord insert(Connection c, KeyRecord after, StepRecord step, KeyEvent event, boolean stepIsNew)
            throws SQLException {
        KeyRecord next = after.withVersion(1);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO key_state (" + KEY_COLUMNS
                + ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
            bindKey(ps, next);
            ps.executeUpdate();
        }
        return withStepAndEvent(c, next, step, event, stepIsNew);
    }

    /** Writes one guarded change on {@code c}; returns null (and writes nothing) when the guard fails. */
    private KeyRecord write(Connection c, KeyRecord before, KeyRecord after, StepRecord step, KeyEvent event)
            throws SQLException {
        return write(c, before, after, step, event, List.of(), false);
    }

    /**
     * As above; the records of {@code removeSteps} are removed in the same transaction (after the guard held), and
     * the step record is inserted without an update first when {@code stepIsNew}.
     */
    private KeyRecord write(Connection c, KeyRecord before, KeyRecord after, StepRecord step, KeyEvent event,
                            List<String> removeSteps, boolean stepIsNew) throws SQLException {
        KeyRecord next = after.withVersion(before.version() + 1);
        try (PreparedStatement ps = c.prepareStatement(before.leaseOwner() != null ? GUARDED_HELD_UPDATE
                : GUARDED_UPDATE)) {
            int i = bindState(ps, next, 1);
            ps.setString(i++, before.job());
            ps.setString(i++, before.key());
            ps.setLong(i++, before.version());
            if (before.leaseOwner() != null) {
                ps.setString(i, before.leaseOwner());
            }
            if (ps.executeUpdate() == 0) {
                return landed(c, next);
            }
        }
        removeSteps(c, before, removeSteps);
        return withStepAndEvent(c, next, step, event, stepIsNew);
    }

    /** Removes the records of {@code steps} of {@code key}'s job and key. */
    private static void removeSteps(Connection c, KeyRecord key, List<String> steps) throws SQLException {
        for (String step : steps) {
            try (PreparedStatement ps = c.prepareStatement(
                    "DELETE FROM step_state WHERE job = ? AND key_value = ? AND step = ?")) {
                ps.setString(1, key.job());
                ps.setString(2, key.key());
                ps.setString(3, step);
                ps.executeUpdate();
            }
        }
    }

    /**
     * {@code meant} as stored, when a transaction that wrote it committed and its answer was lost (the connection
     * broke after the commit went through; the transaction was tried again and its guard failed against its own
     * write), else null: the guard failed because another process changed the key. A write is ours when the row
     * holds its version and what identifies it (the run, the lease owner, the state, the step, the message as
     * stored, the time). A claim carries its process's lease, so no other process writes the same; two writes
     * without a lease that are the same to the millisecond (one operator's action, twice) are one write.
     */
    private static KeyRecord landed(Connection c, KeyRecord meant) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT " + KEY_COLUMNS + " FROM key_state WHERE job = ? AND key_value = ?")) {
            ps.setString(1, meant.job());
            ps.setString(2, meant.key());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                KeyRecord stored = keyRecord(rs);
                return stored.version() == meant.version() && stored.state() == meant.state()
                        && stored.attempts() == meant.attempts() && Objects.equals(stored.step(), meant.step())
                        && Objects.equals(stored.runId(), meant.runId())
                        && Objects.equals(stored.leaseOwner(), meant.leaseOwner())
                        && Objects.equals(stored.message(), clip(meant.message(), 2000))
                        && Objects.equals(millis(stored.updatedAt()), millis(meant.updatedAt())) ? stored : null;
            }
        }
    }

    private static Long millis(Instant t) {
        return t == null ? null : t.toEpochMilli();
    }

    /** Writes what goes with a change of {@code next} in its transaction: its step record and event, where given. */
    private static KeyRecord withStepAndEvent(Connection c, KeyRecord next, StepRecord step, KeyEvent event,
                                              boolean stepIsNew) throws SQLException {
        if (step != null) {
            writeStep(c, next.job(), next.key(), step, stepIsNew);
        }
        if (event != null) {
            insertEvent(c, event);
        }
        return next;
    }

    /** Writes {@code s}: an update of its record, or an insert when there is none ({@code isNew}: known not to be). */
    private static void writeStep(Connection c, String job, String key, StepRecord s, boolean isNew)
            throws SQLException {
        String outputs = s.outputs().isEmpty() ? null : Json.write(s.outputs());
        if (!isNew && updateStep(c, job, key, s, outputs)) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO step_state (job, key_value, step, status, attempts, "
                + "first_attempt_at, outputs, updated_at) VALUES (?,?,?,?,?,?,?,?)")) {
            ps.setString(1, job);
            ps.setString(2, key);
            ps.setString(3, s.step());
            ps.setString(4, s.status().name());
            ps.setInt(5, s.attempts());
            setInstant(ps, 6, s.firstAttemptAt());
            ps.setString(7, outputs);
            setInstant(ps, 8, s.updatedAt());
            ps.executeUpdate();
        }
    }

    /** Updates the record of {@code s}; false when it has none. */
    private static boolean updateStep(Connection c, String job, String key, StepRecord s, String outputs)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE step_state SET status = ?, attempts = ?, "
                + "first_attempt_at = ?, outputs = ?, updated_at = ? WHERE job = ? AND key_value = ? AND step = ?")) {
            ps.setString(1, s.status().name());
            ps.setInt(2, s.attempts());
            setInstant(ps, 3, s.firstAttemptAt());
            ps.setString(4, outputs);
            setInstant(ps, 5, s.updatedAt());
            ps.setString(6, job);
            ps.setString(7, key);
            ps.setString(8, s.step());
            return ps.executeUpdate() > 0;
        }
    }

    private static void insertEvent(Connection c, KeyEvent e) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO key_event (job, key_value, ts, run_id, event_type, "
                + "step, attempt, state, failure_class, message, user_name, note, evidence, probe_answer, "
                + "message_said, wait_reason) "
                + "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
            ps.setString(1, e.job());
            ps.setString(2, e.key());
            setInstant(ps, 3, e.ts());
            ps.setString(4, e.runId());
            ps.setString(5, e.type().name());
            ps.setString(6, e.step());
            ps.setInt(7, e.attempt());
            ps.setString(8, e.state().name());
            ps.setString(9, e.failureClass() == null ? null : e.failureClass().name());
            ps.setString(10, clip(e.message(), 2000));
            ps.setString(11, e.user());
            ps.setString(12, clip(e.note(), 2000));
            // evidence is bounded field by field (Evidence.bounded): cutting its JSON would make it unreadable
            ps.setString(13, e.evidence() == null ? null : Json.write(e.evidence().bounded()));
            ps.setString(14, e.probe() == null ? null : e.probe().name());
            ps.setString(15, SaidJson.write(e.said()));
            ps.setString(16, e.waitReason() == null ? null : e.waitReason().name());
            ps.executeUpdate();
        }
    }

    @Override
    public int renewLeases(String owner, java.util.Collection<io.keyline.core.LeaseKeeper.Held> held, Instant until) {
        if (held.isEmpty()) {
            return 0;
        }
        // one commit and one batch (one round trip to a server), each key found by its primary key (a list of
        // (job, key) pairs in one statement made H2 read every key of the job: StateIndexTest); not announced
        // to consoles, nothing they show changed
        return inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE key_state SET lease_until = ? "
                    + "WHERE job = ? AND key_value = ? AND lease_owner = ? AND state = 'RUNNING'")) {
                for (io.keyline.core.LeaseKeeper.Held h : held) {
                    setInstant(ps, 1, until);
                    ps.setString(2, h.job());
                    ps.setString(3, h.key());
                    ps.setString(4, owner);
                    ps.addBatch();
                }
                int n = 0;
                for (int count : ps.executeBatch()) {
                    n += Math.max(count, 0); // a driver that answers SUCCESS_NO_INFO counts nothing
                }
                return n;
            }
        }, false);
    }

    @Override
    public KeyRecord rearm(KeyRecord before, KeyRecord after, List<String> resetSteps, KeyEvent event) {
        return inTransaction(c -> {
            KeyRecord written = write(c, before, after, null, event);
            if (written == null) {
                throw new StaleStateException(before.job(), before.key());
            }
            removeSteps(c, before, resetSteps);
            return written;
        });
    }

    @Override
    public void sync() {
        db.sync();
    }

    @Override
    public void recordChild(Child ch) {
        inTransaction(c -> {
            updateOrInsert(c, "UPDATE step_child SET step = ?, host = ?, pid = ?, started_at = ?, deadline = ? "
                    + "WHERE job = ? AND key_value = ?", "INSERT INTO step_child (step, host, pid, started_at, "
                    + "deadline, job, key_value) VALUES (?,?,?,?,?,?,?)", ps -> bindChild(ps, ch));
            return null;
        });
    }

    private static void bindChild(PreparedStatement ps, Child ch) throws SQLException {
        ps.setString(1, ch.step());
        ps.setString(2, ch.host());
        ps.setLong(3, ch.pid());
        setInstant(ps, 4, ch.startedAt());
        setInstant(ps, 5, ch.deadline());
        ps.setString(6, ch.job());
        ps.setString(7, ch.key());
    }

    @Override
    public Optional<Child> child(String job, String key) {
        return read(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT step, host, pid, started_at, deadline FROM step_child "
                    + "WHERE job = ? AND key_value = ?")) {
                ps.setString(1, job);
                ps.setString(2, key);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new Child(job, key, rs.getString(1), rs.getString(2), rs.getLong(3),
                            instant(rs, 4), instant(rs, 5)));
                }
            }
        });
    }

    @Override
    public JobControl jobControl(String job) {
        return read(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT paused, reason, paused_until, paused_by, paused_at, "
                    + "reviewed_hash, reviewed_by, reviewed_at FROM job_control WHERE job = ?")) {
                ps.setString(1, job);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return JobControl.running(job);
                    }
                    return new JobControl(job, rs.getBoolean(1), rs.getString(2), instant(rs, 3), rs.getString(4),
                            instant(rs, 5), rs.getString(6), rs.getString(7), instant(rs, 8));
                }
            }
        });
    }

    @Override
    public Map<String, JobControl> jobControls() {
        return read(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT job, paused, reason, paused_until, paused_by, "
                    + "paused_at, reviewed_hash, reviewed_by, reviewed_at FROM job_control")) {
                Map<String, JobControl> out = new HashMap<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(rs.getString(1), new JobControl(rs.getString(1), rs.getBoolean(2), rs.getString(3),
                                instant(rs, 4), rs.getString(5), instant(rs, 6), rs.getString(7), rs.getString(8),
                                instant(rs, 9)));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public void saveJobControl(JobControl jc) {
        inTransaction(c -> {
            updateOrInsert(c, "UPDATE job_control SET paused = ?, reason = ?, paused_until = ?, paused_by = ?, "
                    + "paused_at = ?, reviewed_hash = ?, reviewed_by = ?, reviewed_at = ?, version = version + 1 "
                    + "WHERE job = ?", "INSERT INTO job_control (paused, reason, paused_until, paused_by, paused_at, "
                    + "reviewed_hash, reviewed_by, reviewed_at, job, version) VALUES (?,?,?,?,?,?,?,?,?,1)",
                    ps -> bindControl(ps, jc));
            return null;
        });
    }

    /** Sets a statement's parameters. */
    private interface Bind {
        void to(PreparedStatement ps) throws SQLException;
    }

    /**
     * Updates a row with {@code update}, or where there is none yet inserts it with {@code insert}: both take the
     * same parameters in the same order, set by {@code bind}.
     */
    private static void updateOrInsert(Connection c, String update, String insert, Bind bind) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(update)) {
            bind.to(ps);
            if (ps.executeUpdate() > 0) {
                return;
            }
        }
        try (PreparedStatement ps = c.prepareStatement(insert)) {
            bind.to(ps);
            ps.executeUpdate();
        }
    }

    private static void bindControl(PreparedStatement ps, JobControl jc) throws SQLException {
        ps.setBoolean(1, jc.paused());
        ps.setString(2, clip(jc.reason(), 2000));
        setInstant(ps, 3, jc.until());
        ps.setString(4, jc.user());
        setInstant(ps, 5, jc.pausedAt());
        ps.setString(6, jc.reviewed());
        ps.setString(7, jc.reviewedBy());
        setInstant(ps, 8, jc.reviewedAt());
        ps.setString(9, jc.job());
    }

    @Override
    public void savePlan(String planId, String job, Instant createdAt, List<String> keys, String options,
                         String inputs) {
        inTransaction(c -> {
            try (PreparedStatement del = c.prepareStatement("DELETE FROM saved_plan WHERE plan_id = ?")) {
                del.setString(1, planId);
                del.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO saved_plan (plan_id, job, created_at, keys_json, options, inputs) VALUES (?,?,?,?,?,?)")) {
                ps.setString(1, planId);
                ps.setString(2, job);
                setInstant(ps, 3, createdAt);
                ps.setString(4, Json.write(keys));
                ps.setString(5, options);
                ps.setString(6, inputs);
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public Optional<SavedPlan> plan(String planId) {
        return read(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT plan_id, job, created_at, keys_json, options, inputs FROM saved_plan WHERE plan_id = ?")) {
                ps.setString(1, planId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    List<String> keys = List.of(Json.read(rs.getString(4), String[].class));
                    return Optional.of(new SavedPlan(rs.getString(1), rs.getString(2), instant(rs, 3), keys,
                            rs.getString(5), rs.getString(6)));
                }
            }
        });
    }

    /** Nothing to close: the database is its opener's. */
    @Override
    public void close() {
    }

    private static KeyRecord keyRecord(ResultSet rs) throws SQLException {
        String fc = rs.getString(8);
        return new KeyRecord(rs.getString(1), rs.getString(2), KeyState.valueOf(rs.getString(4)), rs.getString(5),
                rs.getInt(6), instant(rs, 7), fc == null ? null : FailureClass.valueOf(fc), rs.getString(9),
                rs.getString(10), rs.getString(11), rs.getString(12), rs.getString(13), rs.getString(14),
                instant(rs, 15), rs.getLong(16), instant(rs, 3), instant(rs, 17),
                rs.getString(18) == null ? null : WaitReason.valueOf(rs.getString(18)),
                rs.getString(19) == null ? null : io.keyline.domain.FailureOrigin.valueOf(rs.getString(19)),
                SaidJson.read(rs.getString(20)));
    }

    private static void bindKey(PreparedStatement ps, KeyRecord r) throws SQLException {
        ps.setString(1, r.job());
        ps.setString(2, r.key());
        setInstant(ps, 3, r.createdAt());
        bindState(ps, r, 4);
    }

    /** Binds the {@link #STATE_COLUMNS} of {@code r} from parameter {@code i} on; returns the next parameter. */
    private static int bindState(PreparedStatement ps, KeyRecord r, int i) throws SQLException {
        ps.setString(i++, r.state().name());
        ps.setString(i++, r.step());
        ps.setInt(i++, r.attempts());
        setInstant(ps, i++, r.nextAttemptAt());
        ps.setString(i++, r.failureClass() == null ? null : r.failureClass().name());
        ps.setString(i++, clip(r.message(), 2000));
        ps.setString(i++, r.credential());
        ps.setString(i++, r.confirmedStep());
        ps.setString(i++, r.confirmedHash());
        ps.setString(i++, r.runId());
        ps.setString(i++, r.leaseOwner());
        setInstant(ps, i++, r.leaseUntil());
        ps.setLong(i++, r.version());
        setInstant(ps, i++, r.updatedAt());
        ps.setString(i++, r.waitReason() == null ? null : r.waitReason().name());
        ps.setString(i++, r.failureOrigin() == null ? null : r.failureOrigin().name());
        ps.setString(i++, SaidJson.write(r.said()));
        return i;
    }

    private static String clip(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
