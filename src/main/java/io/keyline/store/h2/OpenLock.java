package io.keyline.store.h2;

import io.keyline.core.PrivateFiles;
import io.keyline.core.StateUnavailableException;
import io.keyline.domain.Printable;
import io.keyline.text.Said;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * The state folder's open lock ({@code keyline.open.lock}): whoever opens, migrates or repairs the H2 file
 * holds it, and a one-shot reader that has the file alone holds it until it closes the state
 * ({@link H2Database#openToRead}). Another process that opens the state meanwhile waits; this makes that
 * wait visible and bounded:
 * <ul>
 *   <li>the holder writes into the lock file who it is: its process id, what it runs
 *   ({@link #describeThisProcess}, e.g. {@code keyline status}) and since when;</li>
 *   <li>a process that has waited {@link #NOTICE_AFTER} says so once ({@link #notices}): which process holds
 *   the state, what it runs, and, on Linux, whether it is stopped (a {@code status} suspended with Ctrl+Z
 *   keeps every run out until it is resumed or ended);</li>
 *   <li>after {@code keyline.state.openWait} (ISO-8601, default {@link #DEFAULT_WAIT}) it gives up with a
 *   {@link StateUnavailableException}: the state is locked, nothing was done (exit 1).</li>
 * </ul>
 */
public final class OpenLock {

    /** How long an open waits for the lock before it gives up, unless {@code keyline.state.openWait} says. */
    static final Duration DEFAULT_WAIT = Duration.ofMinutes(10);
    /** The longest wait {@code keyline.state.openWait} can ask for (a longer one is taken as this). */
    static final Duration LONGEST_WAIT = Duration.ofDays(3650);
    /** How long an open waits before it says that it waits, and for whom. */
    static final Duration NOTICE_AFTER = Duration.ofSeconds(3);

    /** The logger, made on first use: java.util.logging's set-up is not part of a one-shot command that logs nothing. */
    private static final class Log {
        static final Logger LOG = Logger.getLogger(OpenLock.class.getName());
    }
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    private static volatile Consumer<Said> notices = m -> Log.LOG.warning(m.english());
    private static volatile String thisProcess = "keyline";

    private OpenLock() {
    }

    /**
     * Where "waiting for the state ..." goes: the command line's stderr in the {@code keyline} process
     * (the default is this class's logger).
     */
    public static void notices(Consumer<Said> sink) {
        notices = sink;
    }

    /** What this process runs, as other processes that wait for it name it (e.g. {@code keyline status}). */
    public static void describeThisProcess(String what) {
        thisProcess = what;
    }

    /**
     * Takes the lock on {@code ch} (the open lock of {@code dir}), waiting for another process as above,
     * and writes this process into the file.
     */
    static FileLock take(FileChannel ch, Path dir) throws IOException {
        FileLock lock = ch.tryLock();
        if (lock == null) {
            lock = waitFor(ch, dir);
        }
        try {
            writeHolder(ch, ProcessHandle.current().pid(), thisProcess, Instant.now());
        } catch (IOException e) {
            // who holds the lock is only for the messages of those who wait: a full disk must not stop the open
        }
        if (!lock.isValid()) {
            // an interrupt during the write closes the channel, and the lock goes with it
            throw new StateUnavailableException(Said.of("core.store.lock.interrupted", dir.toString()), null);
        }
        return lock;
    }

    private static FileLock waitFor(FileChannel ch, Path dir) throws IOException {
        Duration limit = waitLimit();
        long start = System.nanoTime();
        boolean told = false;
        while (true) {
            FileLock lock = ch.tryLock();
            if (lock != null) {
                return lock;
            }
            long waited = System.nanoTime() - start;
            if (!told && waited >= NOTICE_AFTER.toNanos()) {
                told = true;
                Path file = dir.resolve("keyline.open.lock");
                notices.accept(withHint(Said.of("core.store.lock.waiting", dir.toString(), holder(file),
                        CLOCK.format(Instant.now().plusNanos(limit.toNanos() - waited)), limit.toString()), file));
            }
            if (waited >= limit.toNanos()) {
                Path file = dir.resolve("keyline.open.lock");
                throw new StateUnavailableException(withHint(Said.of("core.store.lock.stayedLocked", dir.toString(),
                        text(limit), holder(file), limit.toString()), file), null);
            }
            try {
                // quick at first: the usual holder is a reader that is done within a second
                TimeUnit.MILLISECONDS.sleep(waited < TimeUnit.SECONDS.toNanos(1) ? 10 : 100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StateUnavailableException(Said.of("core.store.lock.interruptedWaiting", dir.toString(),
                        holder(dir.resolve("keyline.open.lock"))), e);
            }
        }
    }

    /** {@code keyline.state.openWait}, or the default; a value that is not a positive duration is refused. */
    static Duration waitLimit() {
        String v = System.getProperty("keyline.state.openWait");
        if (v == null || v.isBlank()) {
            return DEFAULT_WAIT;
        }
        try {
            Duration d = Duration.parse(v.trim());
            if (!d.isNegative() && !d.isZero()) {
                return d.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : d; // "wait for ever", in nanoseconds that fit
            }
        } catch (DateTimeParseException e) {
            // said below
        }
        throw new StateUnavailableException(Said.of("core.store.lock.badWait", Printable.line(v)), null);
    }

    /** The holder as the lock file names it, for a message: "process 1234 (keyline status, since 09:00:01)". */
    static Said holder(Path lockFile) {
        Holder h = Holder.read(lockFile);
        if (h.pid <= 0) {
            return Said.of("core.store.lock.anotherProcess");
        }
        String pid = Long.toString(h.pid);
        if (h.what != null && h.since != null) {
            return Said.of("core.store.lock.processWhatSince", pid, h.what, h.since);
        }
        if (h.what != null) {
            return Said.of("core.store.lock.processWhat", pid, h.what);
        }
        return h.since != null ? Said.of("core.store.lock.processSince", pid, h.since)
                : Said.of("core.store.lock.process", pid);
    }

    /**
     * "Process 1234 is stopped (Ctrl+Z?): resume it ..." when the holder is a stopped process (Linux), else
     * null.
     */
    static Said stoppedHint(Path lockFile) {
        long pid = Holder.read(lockFile).pid;
        return pid > 0 && stopped(pid) ? Said.of("core.store.lock.stopped", Long.toString(pid)) : null;
    }

    /** {@code said}, followed by {@link #stoppedHint} when there is one. */
    private static Said withHint(Said said, Path lockFile) {
        Said hint = stoppedHint(lockFile);
        return hint == null ? said : Said.of("core.store.lock.withHint", said, hint);
    }

    /** What a lock file says of its holder; {@code pid} is -1 when it names none. */
    private record Holder(long pid, String what, String since) {
        static Holder read(Path lockFile) {
            String text;
            try {
                byte[] b = Files.readAllBytes(lockFile);
                text = new String(b, 0, Math.min(b.length, 4096), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return new Holder(-1, null, null);
            }
            long pid = -1;
            String what = null;
            String since = null;
            for (String line : text.split("\n")) {
                int sp = line.indexOf(' ');
                if (sp < 0) {
                    continue;
                }
                String value = line.substring(sp + 1);
                switch (line.substring(0, sp)) {
                    case "pid" -> {
                        try {
                            pid = Long.parseLong(value.trim());
                        } catch (NumberFormatException e) {
                            pid = -1;
                        }
                    }
                    case "what" -> what = Printable.line(value);
                    case "since" -> {
                        try {
                            since = CLOCK.format(Instant.parse(value.trim()));
                        } catch (DateTimeParseException e) {
                            since = null;
                        }
                    }
                    default -> {
                        // a later version's field
                    }
                }
            }
            return new Holder(pid, what, since);
        }
    }

    /** Whether process {@code pid} is stopped (Linux: its state in /proc is T); false where that is unknown. */
    private static boolean stopped(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            int close = stat.lastIndexOf(')'); // the command name in parentheses may hold spaces
            return close > 0 && close + 2 < stat.length() && stat.charAt(close + 2) == 'T';
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Writes a holder into {@code lockFile} as {@link #take} does (tests). */
    static void writeHolder(Path lockFile, long pid, String what, Instant since) throws IOException {
        try (FileChannel ch = PrivateFiles.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            writeHolder(ch, pid, what, since);
        }
    }

    private static void writeHolder(FileChannel ch, long pid, String what, Instant since) throws IOException {
        ch.truncate(0);
        ch.write(ByteBuffer.wrap(("pid " + pid + "\nwhat " + what.replace('\n', ' ') + "\nsince " + since + "\n")
                .getBytes(StandardCharsets.UTF_8)), 0);
    }

    private static Said text(Duration d) {
        long s = d.toSeconds();
        if (s < 120) {
            return Said.of("core.store.lock.seconds", Long.toString(s));
        }
        return s % 60 == 0 ? Said.of("core.store.lock.minutes", Long.toString(s / 60))
                : Said.of("core.store.lock.minutesSeconds", Long.toString(s / 60), Long.toString(s % 60));
    }
}
