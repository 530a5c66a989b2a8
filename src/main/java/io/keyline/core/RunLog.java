package io.keyline.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code state/logs/runs.jsonl}: whole lines appended by every process that shares the state (a CLI
 * run, the console, a worker), rotated by size.
 *
 * <p>Each line is appended with one write to a file opened with O_APPEND: lines of two processes never
 * interleave. Rotation happens under an exclusive lock on {@code runs.jsonl.lock} (and a monitor for
 * the process's own threads); a process that finds the file rotated by another one reopens it. When {@code runs.jsonl} would grow past
 * {@link Limits#maxBytes()} it becomes {@code runs.jsonl.1} (the older ones shift to {@code .2}, …,
 * up to {@link Limits#files()}; the oldest is deleted): the newest lines are always kept.
 */
final class RunLog implements AutoCloseable {

    /**
     * How large the log may grow.
     *
     * @param maxBytes size at which {@code runs.jsonl} is rotated
     * @param files    rotated files kept ({@code runs.jsonl.1} … {@code runs.jsonl.N}), at least 1
     */
    record Limits(long maxBytes, int files) {
        static final Limits DEFAULT = new Limits(10L * 1024 * 1024, 5);
        private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmg]?)(i?b)?", Pattern.CASE_INSENSITIVE);

        Limits {
            if (maxBytes < 1024) {
                throw new IllegalArgumentException("the run log's size limit must be at least 1 KiB, got " + maxBytes);
            }
            if (files < 1 || files > 100) {
                throw new IllegalArgumentException("the run log keeps 1 to 100 rotated files, got " + files);
            }
        }

        /** From {@code KEYLINE_LOG_MAX} (e.g. {@code 10MiB}, {@code 500K}, bytes) and {@code KEYLINE_LOG_FILES}. */
        static Limits fromEnv(Map<String, String> env) {
            long max = DEFAULT.maxBytes;
            int files = DEFAULT.files;
            String m = env.get("KEYLINE_LOG_MAX");
            if (m != null && !m.isBlank()) {
                max = parseSize(m.strip());
            }
            String f = env.get("KEYLINE_LOG_FILES");
            if (f != null && !f.isBlank()) {
                try {
                    files = Integer.parseInt(f.strip());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("KEYLINE_LOG_FILES=\"" + f + "\" is not a whole number");
                }
            }
            try {
                return new Limits(max, files);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException((m != null ? "KEYLINE_LOG_MAX=\"" + m + "\"" : "")
                        + (f != null ? " KEYLINE_LOG_FILES=\"" + f + "\"" : "") + ": " + e.getMessage());
            }
        }

        static long parseSize(String text) {
            Matcher mt = SIZE.matcher(text);
            if (!mt.matches()) {
                throw new IllegalArgumentException("KEYLINE_LOG_MAX=\"" + text
                        + "\" is not a size (bytes, or like 500K, 10M, 10MiB, 1G)");
            }
            long n = Long.parseLong(mt.group(1));
            return switch (mt.group(2).toLowerCase(Locale.ROOT)) {
                case "k" -> n * 1024;
                case "m" -> n * 1024 * 1024;
                case "g" -> n * 1024 * 1024 * 1024;
                default -> n;
            };
        }
    }

    /** One monitor per log file in this process: FileLock is per process, the monitor orders our threads. */
    private static final Map<Path, Object> MONITORS = new ConcurrentHashMap<>();
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private final Path file;
    private final Limits limits;
    private final Object monitor;
    private final FileChannel lock;
    private FileChannel out;
    private Object outKey;
    private long knownSize;
    private int sinceStat;

    RunLog(Path file, Limits limits) throws IOException {
        this.file = file.toAbsolutePath().normalize();
        this.limits = limits;
        this.monitor = MONITORS.computeIfAbsent(this.file, f -> new Object());
        PrivateFiles.createDirectories(this.file.getParent());
        Path lockFile = this.file.resolveSibling(this.file.getFileName() + ".lock");
        this.lock = FileChannel.open(lockFile, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE), ownerOnly());
        PrivateFiles.tighten(lockFile);
        synchronized (monitor) {
            try (FileLock ignored = lock.lock()) {
                reopen();
            }
        }
    }

    private static FileAttribute<?>[] ownerOnly() {
        return POSIX ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                : new FileAttribute<?>[0];
    }

    Path file() {
        return file;
    }

    /**
     * Appends one line (without its newline, which is added). The usual case takes no lock: the file is
     * open with O_APPEND and the line goes out in one write, which the kernel does not interleave with
     * another process's. Only a line that would take the file past its limit takes the lock, and then
     * finds out whether another process rotated it already (the file it has open is no longer
     * {@code runs.jsonl}) or rotates it itself.
     */
    void append(String line) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap((line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        FileChannel ch;
        synchronized (this) {
            ch = out;
        }
        try {
            // the size is known from our own writes; other processes' lines are counted by a real
            // look at the file every 32 lines (a file may pass its limit by that much)
            if (ch != null) {
                if (++sinceStat >= 32) {
                    knownSize = ch.size();
                    sinceStat = 0;
                }
                int n = buf.remaining();
                if (knownSize + n <= limits.maxBytes()) {
                    writeFully(ch, buf);
                    knownSize += n;
                    return;
                }
            }
        } catch (java.nio.channels.ClosedChannelException e) {
            // closed by a rotation in this process meanwhile: the slow path writes it (nothing was written)
        }
        synchronized (monitor) {
            try (FileLock ignored = lock.lock()) {
                synchronized (this) {
                    Object key = fileKey();
                    if (out == null || key == null || !Objects.equals(key, outKey)) {
                        reopen(); // another process rotated it: write to the new runs.jsonl
                    }
                    long size = out.size();
                    if (size > 0 && size + buf.remaining() > limits.maxBytes()) {
                        rotate();
                        reopen();
                    }
                    writeFully(out, buf);
                    knownSize = out.size();
                    sinceStat = 0;
                }
            }
        }
    }

    private static void writeFully(FileChannel ch, ByteBuffer buf) throws IOException {
        // one write for a line of any usual size (a pipe-free regular file takes it whole)
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
    }

    private Object fileKey() throws IOException {
        try {
            Object key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
            return key == null ? file : key;
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private void reopen() throws IOException {
        if (out != null) {
            out.close();
        }
        out = FileChannel.open(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE), ownerOnly());
        // 0600 whatever the umask (the attribute at creation is subject to it)
        PrivateFiles.tighten(file);
        outKey = fileKey();
        knownSize = out.size();
        sinceStat = 0;
    }

    /** runs.jsonl → .1 → .2 …; the oldest beyond {@code files} is deleted. Called under the lock. */
    private void rotate() throws IOException {
        out.close();
        out = null;
        Files.deleteIfExists(rotated(limits.files()));
        for (int i = limits.files() - 1; i >= 1; i--) {
            Path from = rotated(i);
            if (Files.exists(from)) {
                Files.move(from, rotated(i + 1), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Files.move(file, rotated(1), StandardCopyOption.REPLACE_EXISTING);
    }

    private Path rotated(int i) {
        return file.resolveSibling(file.getFileName() + "." + i);
    }

    @Override
    public void close() {
        synchronized (monitor) {
            synchronized (this) {
                try {
                    if (out != null) {
                        out.close();
                    }
                    lock.close();
                } catch (IOException ignored) {
                    // closing a log we only appended to
                }
            }
        }
    }
}
