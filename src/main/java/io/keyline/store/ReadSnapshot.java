package io.keyline.store;

import io.keyline.core.CredentialInfo;
import io.keyline.core.PrivateFiles;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobControl;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Adler32;
import java.util.zip.CRC32;

/**
 * What a one-shot {@code status} reads (every key, the credentials' public facts, the keys parked on missing
 * credentials, the jobs' pause controls), kept beside the state for the next {@code status} as long as the state file is byte for
 * byte the one it was read from (issue 14, CLI latency).
 *
 * <p>Opening the H2 file in a new JVM - loading and verifying some 640 of H2's classes, replaying the
 * schema through its SQL parser - was 250-280 ms of a 650 ms {@code status} on 10,000 keys; reading the
 * same rows from this file costs a few milliseconds. It is a copy, never the truth: it is used only by a
 * reader that has the state to itself (the open lock held, no other process in: nobody can be writing),
 * on a file that was closed cleanly, and only when the file's size and two checksums of its whole content
 * (CRC-32 and Adler-32, some 2 ms for a 4 MB file) are those recorded when the copy was made - made by a
 * reader right after its H2 closed the file, still holding the open lock. Any commit, by any process, from
 * any version, changes the file, and the copy is not used again until a {@code status} that read the
 * state itself writes a new one. What depends on the clock or on live processes (expiry warnings, whether
 * a RUNNING key's process is gone) is worked out at each {@code status} from the facts; a state with a
 * RUNNING key gets no copy at all. A copy that cannot be read, from another format, or of another file is
 * ignored; one that cannot be written is not written - the state itself is never touched.
 *
 * <p>It holds no secret: a credential's value never leaves the database (CredentialInfo has its
 * fingerprint, not its value), and the file is 0600 in the 0700 state folder as every other.
 */
public final class ReadSnapshot {

    /** The copy's file in the state folder. */
    public static final String FILE_NAME = "keyline.read-copy";
    private static final int FORMAT = 0x4B4C5233; // "KLR3"
    /**
     * What else the copy must have been made by: the schema (the migrations this build ships) and the names of
     * the states and failure classes it wrote. A copy of another build's reading is not used.
     */
    private static final String SHAPE = "schema " + String.join(",", Migrations.COMMON) + "; states "
            + java.util.Arrays.toString(KeyState.values()) + "; classes " + java.util.Arrays.toString(FailureClass.values());
    /**
     * A state file larger than this gets no copy: checking its bytes (about 1 ms per MB when cached) would
     * come near the 250-300 ms of opening it.
     */
    static final long LARGEST_STATE = 64L << 20;
    /** A copy larger than this is not read (10,000 keys make about 1.3 MB). */
    static final long LARGEST_COPY = 256L << 20;

    /** How many {@code status} commands in this JVM read a copy (tests). */
    static final java.util.concurrent.atomic.AtomicInteger READS = new java.util.concurrent.atomic.AtomicInteger();

    private ReadSnapshot() {
    }

    /**
     * What a {@code status} shows, as read from the state.
     *
     * @param keys            every key, ordered by job and key (as {@code status} lists them)
     * @param credentials     every credential's public facts, by name
     * @param parkedOnMissing keys parked on credentials that are not stored, by credential name
     * @param controls        the jobs' stored controls (paused or not), by job
     */
    public record Data(List<KeyRecord> keys, List<CredentialInfo> credentials, Map<String, Integer> parkedOnMissing,
                       Map<String, JobControl> controls) {
        public Data {
            keys = List.copyOf(keys);
            credentials = List.copyOf(credentials);
            parkedOnMissing = Map.copyOf(parkedOnMissing);
            controls = Map.copyOf(controls);
        }

        /** The keys of {@code job} by state, as {@code StateStore.countsByState} counts them. */
        public Map<KeyState, Integer> countsByState(String job) {
            Map<KeyState, Integer> out = new java.util.EnumMap<>(KeyState.class);
            for (KeyRecord k : keys) {
                if (k.job().equals(job)) {
                    out.merge(k.state(), 1, Integer::sum);
                }
            }
            return out;
        }

        /** {@code job}'s control, as {@code StateStore.jobControl} reads it. */
        public JobControl jobControl(String job) {
            JobControl jc = controls.get(job);
            return jc != null ? jc : JobControl.running(job);
        }

        /** Whether a copy of this may be kept: not when a key is RUNNING (whose process may be alive or not). */
        public boolean keepable() {
            for (KeyRecord k : keys) {
                if (k.state() == KeyState.RUNNING) {
                    return false;
                }
            }
            return true;
        }
    }

    /** The state file's identity: its size and two checksums of all its bytes. */
    record Fingerprint(long size, long crc, long adler) {
        /** The same file (not {@code equals}: a record's is bootstrapped on first use, some 15 ms in a cold JVM). */
        boolean same(Fingerprint o) {
            return o != null && size == o.size && crc == o.crc && adler == o.adler;
        }
    }

    static Path file(Path dir) {
        return dir.resolve(FILE_NAME);
    }

    /**
     * The state file's fingerprint, or {@code null} when it is missing, too large to check, or open for writing
     * in some process: H2 locks the file it has open read-write, also where that process is not a Keyline
     * that {@code keyline.users.lock} would show (an H2 shell started by hand, say).
     */
    static Fingerprint fingerprint(Path dir) throws IOException {
        Path db = dir.resolve("keyline.mv.db");
        try (FileChannel ch = FileChannel.open(db, StandardOpenOption.READ);
             java.nio.channels.FileLock shared = ch.tryLock(0, Long.MAX_VALUE, true)) {
            long size = ch.size();
            if (shared == null || size > LARGEST_STATE) {
                return null;
            }
            CRC32 crc = new CRC32();
            Adler32 adler = new Adler32();
            ByteBuffer buf = ByteBuffer.allocateDirect(1 << 18);
            long read = 0;
            while (true) {
                buf.clear();
                int n = ch.read(buf);
                if (n < 0) {
                    break;
                }
                read += n;
                buf.flip();
                crc.update(buf.duplicate());
                adler.update(buf);
            }
            return read == size ? new Fingerprint(size, crc.getValue(), adler.getValue()) : null;
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /**
     * The copy in {@code dir} when it was made from the state file as it is now; {@code null} otherwise (no
     * copy, another format, unreadable, or the file has changed). The caller has the state to itself.
     */
    static Data readIfCurrent(Path dir) {
        Path f = file(dir);
        if (!Files.isRegularFile(f)) {
            return null;
        }
        try {
            if (Files.size(f) > LARGEST_COPY) {
                return null;
            }
            ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(f));
            if (in.getInt() != FORMAT || !SHAPE.equals(str(in))) {
                return null;
            }
            Fingerprint recorded = new Fingerprint(in.getLong(), in.getLong(), in.getLong());
            long payloadCrc = in.getLong();
            CRC32 crc = new CRC32();
            crc.update(in.duplicate());
            if (crc.getValue() != payloadCrc || !recorded.same(fingerprint(dir))) {
                return null; // damaged (or written only in part), or of another state file
            }
            Data d = readData(in);
            READS.incrementAndGet();
            return d;
        } catch (IOException | RuntimeException e) {
            return null; // only an accelerator: the state itself is read instead
        }
    }

    /**
     * Removes the copy: a read-write open is about to change the file (the copy would never be used again,
     * and would outlive what it holds: messages, key names).
     */
    static void forget(Path dir) {
        try {
            Files.deleteIfExists(file(dir));
        } catch (IOException e) {
            // a copy left is still checked against the file before it is used
        }
    }

    /**
     * Writes the copy of {@code d} for the state file as it is now (H2 has closed it; the caller still has the
     * state to itself). Quietly nothing when it cannot (a full disk, a state too large): the next
     * {@code status} reads the state itself.
     */
    static void write(Path dir, Data d) {
        Path f = file(dir);
        Path tmp = dir.resolve(FILE_NAME + ".tmp");
        try {
            Fingerprint fp = fingerprint(dir);
            if (fp == null || !d.keepable()) {
                Files.deleteIfExists(f);
                return;
            }
            Out out = new Out(256 + d.keys().size() * 200);
            out.putInt(FORMAT);
            out.str(SHAPE);
            out.putLong(fp.size());
            out.putLong(fp.crc());
            out.putLong(fp.adler());
            int crcAt = out.buf.position();
            out.putLong(0); // the payload's CRC-32, below
            int payload = out.buf.position();
            writeData(out, d);
            ByteBuffer bytes = out.buf.flip();
            CRC32 crc = new CRC32();
            crc.update(bytes.duplicate().position(payload));
            bytes.putLong(crcAt, crc.getValue());
            try (FileChannel ch = PrivateFiles.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                while (bytes.hasRemaining()) {
                    ch.write(bytes);
                }
            }
            Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(tmp);
                Files.deleteIfExists(f);
            } catch (IOException ignored) {
                // a copy that is there is still checked against the file before it is used
            }
        }
    }

    private static void writeData(Out out, Data d) {
        out.putInt(d.keys().size());
        for (KeyRecord k : d.keys()) {
            out.str(k.job());
            out.str(k.key());
            out.str(k.state().name());
            out.str(k.step());
            out.putInt(k.attempts());
            out.instant(k.nextAttemptAt());
            out.str(k.failureClass() == null ? null : k.failureClass().name());
            out.str(k.message());
            out.str(k.credential());
            out.str(k.confirmedStep());
            out.str(k.confirmedHash());
            out.str(k.runId());
            out.str(k.leaseOwner());
            out.instant(k.leaseUntil());
            out.putLong(k.version());
            out.instant(k.createdAt());
            out.instant(k.updatedAt());
        }
        out.putInt(d.credentials().size());
        for (CredentialInfo c : d.credentials()) {
            out.str(c.name());
            out.str(c.type());
            out.str(c.fingerprint());
            out.putInt(c.cookies());
            out.instant(c.earliestExpiry());
            out.instant(c.updatedAt());
            out.str(c.updatedBy());
            out.instant(c.lastUsedAt());
            out.str(c.lastResult());
            out.putInt(c.parkedKeys());
            out.str(c.loginUrl());
        }
        out.putInt(d.parkedOnMissing().size());
        for (Map.Entry<String, Integer> e : d.parkedOnMissing().entrySet()) {
            out.str(e.getKey());
            out.putInt(e.getValue());
        }
        out.putInt(d.controls().size());
        for (JobControl c : d.controls().values()) {
            out.str(c.job());
            out.putInt(c.paused() ? 1 : 0);
            out.str(c.reason());
            out.instant(c.until());
            out.str(c.user());
            out.instant(c.pausedAt());
        }
        out.putInt(FORMAT); // the end: a copy cut short is not read
    }

    private static Data readData(ByteBuffer in) throws IOException {
        int n = count(in);
        List<KeyRecord> keys = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String job = str(in);
            String key = str(in);
            KeyState state = KeyState.valueOf(str(in));
            String step = str(in);
            int attempts = in.getInt();
            Instant next = instant(in);
            String cls = str(in);
            keys.add(new KeyRecord(job, key, state, step, attempts, next,
                    cls == null ? null : FailureClass.valueOf(cls), str(in), str(in), str(in), str(in), str(in),
                    str(in), instant(in), in.getLong(), instant(in), instant(in)));
        }
        n = count(in);
        List<CredentialInfo> creds = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            creds.add(new CredentialInfo(str(in), str(in), str(in), in.getInt(), instant(in), instant(in), str(in),
                    instant(in), str(in), in.getInt(), str(in)));
        }
        n = count(in);
        Map<String, Integer> parked = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            parked.put(str(in), in.getInt());
        }
        n = count(in);
        Map<String, JobControl> controls = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            JobControl c = new JobControl(str(in), in.getInt() == 1, str(in), instant(in), str(in), instant(in));
            controls.put(c.job(), c);
        }
        if (in.getInt() != FORMAT) {
            throw new EOFException("the copy is cut short");
        }
        return new Data(keys, creds, parked, controls);
    }

    private static int count(ByteBuffer in) throws IOException {
        int n = in.getInt();
        if (n < 0 || n > in.remaining() / 4) { // every entry takes at least 4 bytes
            throw new IOException("not a copy: " + n + " entries");
        }
        return n;
    }

    private static String str(ByteBuffer in) throws IOException {
        int n = in.getInt();
        if (n == -1) {
            return null;
        }
        if (n < -1) { // UTF-16 code units as they were (Out.str)
            int chars = -2 - n;
            if (chars > in.remaining() / 2) {
                throw new IOException("not a copy: a string of " + chars + " chars");
            }
            char[] c = new char[chars];
            in.asCharBuffer().get(c);
            in.position(in.position() + 2 * chars);
            return new String(c);
        }
        if (n > in.remaining()) {
            throw new IOException("not a copy: a string of " + n + " bytes");
        }
        String s = new String(in.array(), in.arrayOffset() + in.position(), n, StandardCharsets.UTF_8);
        in.position(in.position() + n);
        return s;
    }

    private static Instant instant(ByteBuffer in) {
        long s = in.getLong();
        return s == Long.MIN_VALUE ? null : Instant.ofEpochSecond(s, in.getInt());
    }

    /**
     * The copy as it is written: a growing buffer, in {@link java.io.DataOutput}'s byte order (a cold JVM wrote
     * a {@code DataOutputStream} of 10,000 keys in 22 ms, most of it in synchronized single-byte writes).
     */
    private static final class Out {
        private ByteBuffer buf;

        Out(int capacity) {
            buf = ByteBuffer.allocate(capacity);
        }

        private void room(int n) {
            if (buf.remaining() < n) {
                ByteBuffer more = ByteBuffer.allocate(Math.max(buf.capacity() * 2, buf.position() + n));
                more.put(buf.flip());
                buf = more;
            }
        }

        void putInt(int v) {
            room(4);
            buf.putInt(v);
        }

        void putLong(long v) {
            room(8);
            buf.putLong(v);
        }

        void str(String s) {
            if (s == null) {
                putInt(-1);
                return;
            }
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            if (b.length != s.length() && !new String(b, StandardCharsets.UTF_8).equals(s)) {
                // a lone surrogate (a message cut in the middle of an emoji): UTF-8 would make it "?", and the
                // copy would not print what the state prints
                room(4 + 2 * s.length());
                buf.putInt(-2 - s.length());
                for (int i = 0; i < s.length(); i++) {
                    buf.putChar(s.charAt(i));
                }
                return;
            }
            room(4 + b.length);
            buf.putInt(b.length);
            buf.put(b);
        }

        void instant(Instant t) {
            if (t == null) {
                putLong(Long.MIN_VALUE);
                return;
            }
            room(12);
            buf.putLong(t.getEpochSecond());
            buf.putInt(t.getNano());
        }
    }
}
