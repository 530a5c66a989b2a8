package io.keyline.store;

import com.fasterxml.jackson.core.JsonGenerator;
import io.keyline.core.json.Json;
import io.keyline.core.StateUnavailableException;
import io.keyline.domain.Evidence;
import io.keyline.text.Said;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;

/**
 * Backup, export and pruning of the state, while it is in use (the console or a run may hold it
 * through AUTO_SERVER). Nothing here reads or writes a credential's value: the credential table is
 * not exported, and a backup holds credentials only as they are stored (encrypted).
 */
public final class StateMaintenance {

    /** Key states whose events are attention evidence: never pruned. */
    static final String ATTENTION_STATES = "'FAILED','NEEDS_CONFIRMATION','NEEDS_CREDENTIAL'";

    private final Database db;

    public StateMaintenance(Database db) {
        this.db = db;
    }

    /**
     * A consistent copy of the database while it is in use (H2 {@code BACKUP TO}): a zip holding
     * {@code keyline.mv.db}. H2 writes it with the process's umask (often readable by everyone), so it
     * is written inside a private folder (0700) created next to {@code target}, set to 0600 there, and
     * only then moved into place: at no moment can another user read any of it. A missing folder of
     * {@code target} is made, private, when the folder it goes in exists ({@link #makeFolder}).
     *
     * @return the size of the backup in bytes
     */
    public long backup(Path target) {
        if (db.dialect() != Dialect.H2) {
            throw new IllegalStateException("backup: " + db.where() + " is a PostgreSQL database: use pg_dump");
        }
        Path file = target.toAbsolutePath().normalize();
        Path dir = file.getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            makeFolder(dir);
        }
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(Said.of("core.store.backup.isFolder", file.toString()).text());
        }
        Path privateDir;
        try {
            privateDir = posix(dir)
                    ? Files.createTempDirectory(dir, "." + file.getFileName() + ".",
                            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")))
                    : Files.createTempDirectory(dir, "." + file.getFileName() + ".");
            if (posix(dir)) {
                Files.setPosixFilePermissions(privateDir, PosixFilePermissions.fromString("rwx------"));
            }
        } catch (IOException e) {
            throw new StateUnavailableException(Said.of("core.store.backup.noPrivateFolder", file.toString(),
                    dir.toString(), String.valueOf(e.getMessage())), e);
        }
        Path tmp = privateDir.resolve(file.getFileName().toString());
        try {
            try (Connection c = db.adminConnection(); Statement st = c.createStatement()) {
                // the path is data: a quote in it is doubled, so it stays one SQL string literal
                st.execute("BACKUP TO '" + tmp.toString().replace("'", "''") + "'");
            } catch (SQLException e) {
                Said full = Database.diskFull(dir, e);
                throw new StateUnavailableException(full != null ? full : Said.of("core.state.backupFailed",
                        file.toString(), Database.firstLine(e.getMessage())), e);
            }
            try {
                if (posix(tmp)) {
                    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
                }
                // the database's passwords travel with it (the database refuses to open without them); the
                // master key does not (it protects the credentials in the backup)
                Path passwords = db.stateDir().resolve("database.secret");
                if (Files.isRegularFile(passwords)) {
                    try (FileSystem zip = FileSystems.newFileSystem(tmp)) {
                        Files.copy(passwords, zip.getPath("database.secret"));
                    }
                }
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                return Files.size(file);
            } catch (IOException e) {
                throw new StateUnavailableException(Said.of("core.state.backupFailed", file.toString(),
                        String.valueOf(e.getMessage())), e);
            }
        } finally {
            deleteTree(privateDir);
        }
    }

    /**
     * Makes the missing folder of a backup, private (0700) as the state folder is: only that folder, in a folder
     * that exists. When its parent is missing too (a backup disk that is not mounted, a typo) nothing is made, so
     * nothing is written where the operator did not say.
     */
    private static void makeFolder(Path dir) {
        Path parent = dir.getParent();
        if (parent == null || !Files.exists(parent)) {
            throw new StateUnavailableException(Said.of("core.store.backup.noParent", dir.toString(),
                    String.valueOf(parent)), null);
        }
        try {
            if (Files.exists(dir) || !Files.isDirectory(parent)) {
                Path notAFolder = Files.exists(dir) ? dir : parent;
                throw new IOException(Said.of("core.store.files.notAFolder", notAFolder.toString()).text());
            }
            io.keyline.core.PrivateFiles.createDirectories(dir);
        } catch (IOException e) {
            throw new StateUnavailableException(Said.of("core.store.backup.cannotMake", dir.toString(),
                    String.valueOf(e.getMessage())), e);
        }
    }

    private static boolean posix(Path p) {
        return p.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /** Removes the private folder of a backup and whatever a failed one left in it. */
    private static void deleteTree(Path dir) {
        try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | java.io.UncheckedIOException ignored) {
            // a folder we could not remove; its name says what it is, and it is private
        }
    }

    /**
     * Writes keys and events as one JSON object {@code {"exportedAt", "job", "keys": [...], "events": [...]}},
     * streamed (any number of events). Keys carry the fields of {@code status --json}, events those of
     * {@code timeline --json} plus {@code id}, {@code job} and {@code key}. Credentials are not exported.
     *
     * @param job only this job, or {@code null} for every job
     * @return the numbers of keys and events written
     */
    public long[] export(String job, Instant now, OutputStream out) {
        long[] counts = new long[2];
        try (Connection c = db.connection();
             JsonGenerator g = Json.MAPPER.getFactory().createGenerator(out)) {
            if (db.dialect() == Dialect.POSTGRESQL) {
                // PostgreSQL streams rows (fetch size) only inside a transaction: one read-only snapshot for
                // keys and events (set per transaction, so the pooled connection stays as it was)
                c.setAutoCommit(false);
                try (Statement st = c.createStatement()) {
                    st.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
                }
            }
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.setCharacterEscapes(Json.terminalSafeEscapes()); // printed to a terminal as often as to a file
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("exportedAt", now.toString());
            g.writeStringField("job", job);
            counts[0] = rows(g, c, "keys", "SELECT job, key_value, state, step, attempts, next_attempt_at, updated_at, "
                    + "message, credential, failure_class, created_at FROM key_state", job, "job, key_value", rs -> {
                        g.writeStringField("job", rs.getString(1));
                        g.writeStringField("key", rs.getString(2));
                        g.writeStringField("state", rs.getString(3));
                        g.writeStringField("step", rs.getString(4));
                        if (rs.getString(4) == null) {
                            g.writeNullField("attempts"); // at no step: KeyRecord.attemptsAtStep
                        } else {
                            g.writeNumberField("attempts", rs.getInt(5));
                        }
                        time(g, "nextAttemptAt", rs, 6);
                        time(g, "updatedAt", rs, 7);
                        g.writeStringField("message", rs.getString(8));
                        g.writeStringField("credential", rs.getString(9));
                        g.writeStringField("class", rs.getString(10));
                        time(g, "createdAt", rs, 11);
                    });
            counts[1] = rows(g, c, "events", "SELECT id, job, key_value, ts, run_id, event_type, step, attempt, state, "
                    + "failure_class, message, user_name, note, evidence, probe_answer FROM key_event", job, "id",
                    rs -> {
                        g.writeNumberField("id", rs.getLong(1));
                        g.writeStringField("job", rs.getString(2));
                        g.writeStringField("key", rs.getString(3));
                        time(g, "ts", rs, 4);
                        g.writeStringField("runId", rs.getString(5));
                        g.writeStringField("type", rs.getString(6));
                        g.writeStringField("step", rs.getString(7));
                        g.writeNumberField("attempt", rs.getInt(8));
                        g.writeStringField("state", rs.getString(9));
                        g.writeStringField("class", rs.getString(10));
                        g.writeStringField("message", rs.getString(11));
                        g.writeStringField("user", rs.getString(12));
                        g.writeStringField("note", rs.getString(13));
                        String ev = rs.getString(14);
                        g.writeFieldName("evidence");
                        if (ev == null) {
                            g.writeNull();
                        } else {
                            // read and written again: the evidence is an object, not a string of JSON
                            g.writeObject(Json.read(ev, Evidence.class));
                        }
                        String probe = rs.getString(15);
                        g.writeStringField("probe", probe == null ? null
                                : io.keyline.domain.ProbeAnswer.valueOf(probe).code());
                    });
            g.writeEndObject();
            g.flush();
            if (db.dialect() == Dialect.POSTGRESQL) {
                c.commit();
            }
        } catch (SQLException e) {
            throw new StateUnavailableException(Said.of("core.store.export.failed", Database.firstLine(e.getMessage())), e);
        } catch (IOException e) {
            throw new StateUnavailableException(Said.of("core.store.export.writeFailed", String.valueOf(e.getMessage())), e);
        }
        return counts;
    }

    /** Writes one object of an exported array from the current row. */
    @FunctionalInterface
    private interface RowFields {
        void write(ResultSet rs) throws SQLException, IOException;
    }

    /**
     * Writes the array field {@code name}: an object for each row of {@code select} (of {@code job} only, unless it
     * is {@code null}) in the given order, read a thousand rows at a time.
     *
     * @return the number of rows written
     */
    private static long rows(JsonGenerator g, Connection c, String name, String select, String job, String orderBy,
                             RowFields fields) throws SQLException, IOException {
        long n = 0;
        g.writeArrayFieldStart(name);
        try (PreparedStatement ps = c.prepareStatement(select + (job == null ? "" : " WHERE job = ?")
                + " ORDER BY " + orderBy)) {
            if (job != null) {
                ps.setString(1, job);
            }
            ps.setFetchSize(1000);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    g.writeStartObject();
                    fields.write(rs);
                    g.writeEndObject();
                    n++;
                }
            }
        }
        g.writeEndArray();
        return n;
    }

    private static void time(JsonGenerator g, String name, ResultSet rs, int col) throws SQLException, IOException {
        long v = rs.getLong(col);
        if (rs.wasNull()) {
            g.writeNullField(name);
        } else {
            g.writeStringField(name, Instant.ofEpochMilli(v).toString());
        }
    }

    /**
     * The events {@link #prune} deletes: older than {@code cutoff}, except
     * <ol>
     *   <li>every event of a key's latest run: from the key's last {@code CLAIMED} or {@code RECOVERED}
     *       event on (with the operator actions after it); all events of a key that never ran;</li>
     *   <li>every event of a key that is {@code FAILED}, {@code NEEDS_CONFIRMATION} or
     *       {@code NEEDS_CREDENTIAL} now (the evidence a person needs to decide);</li>
     *   <li>every event that records a step done (succeeded, reconciled, marked done): how often a step was done
     *       names the {@code Idempotency-Key} of its next redo ({@code core.Redos}), which must never be one a site
     *       has seen. One such event per step and life.</li>
     * </ol>
     */
    private static final String PRUNABLE = " FROM key_event e WHERE e.ts < ?"
            + " AND e.event_type NOT IN ('STEP_SUCCEEDED', 'STEP_RECONCILED', 'MARKED_DONE')"
            + " AND NOT EXISTS (SELECT 1 FROM key_state k WHERE k.job = e.job AND k.key_value = e.key_value"
            + " AND k.state IN (" + ATTENTION_STATES + "))"
            + " AND e.id < COALESCE((SELECT MAX(c.id) FROM key_event c WHERE c.job = e.job"
            + " AND c.key_value = e.key_value AND c.event_type IN ('CLAIMED', 'RECOVERED')), 0)";

    /**
     * The saved plans {@link #prune} deletes: made before {@code cutoff}, applied or not. A plan made since stays
     * applicable; an older one is refused as unknown, as any plan that is not in this state.
     */
    private static final String PRUNABLE_PLANS = " FROM saved_plan WHERE created_at < ?";

    /** What {@link #prune} deleted, or would delete. */
    public record Pruned(int events, int plans) {
    }

    /**
     * Deletes old events (see {@link #PRUNABLE} for what is kept) and old saved plans ({@link #PRUNABLE_PLANS}),
     * both or neither, or only counts them.
     */
    public Pruned prune(Instant cutoff, boolean dryRun) {
        try (Connection c = db.connection()) {
            return Transaction.run(c, tx -> new Pruned(prune(tx, PRUNABLE, cutoff, dryRun),
                    prune(tx, PRUNABLE_PLANS, cutoff, dryRun)));
        } catch (SQLException e) {
            throw new StateUnavailableException(Said.of("core.store.prune.failed", Database.firstLine(e.getMessage())), e);
        }
    }

    /** Deletes or counts the rows of {@code from} (which binds the cutoff once). */
    private static int prune(Connection c, String from, Instant cutoff, boolean dryRun) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement((dryRun ? "SELECT COUNT(*)" : "DELETE") + from)) {
            ps.setLong(1, cutoff.toEpochMilli());
            if (dryRun) {
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
            return ps.executeUpdate();
        }
    }
}
