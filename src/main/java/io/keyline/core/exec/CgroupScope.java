package io.keyline.core.exec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A cgroup v2 of its own for one child of Keyline: {@code KEYLINE_CGROUP/keyline-PID-N}, a child of
 * the cgroup Keyline runs in, where that one is writable (a systemd user session or a service with
 * {@code Delegate=yes} hands its cgroup to its user; root may write anywhere). A process moved into it
 * before its program starts cannot leave it, whatever it does ({@code setsid}, double forks), so
 * {@code cgroup.kill} (Linux 5.14) - or a freeze and SIGKILL to each member on older kernels - ends
 * everything it started.
 *
 * <p>Nowhere to create one (cgroup v1 only, a read-only or foreign cgroup, not Linux), or
 * {@code -Dkeyline.cgroup=off}: {@link #create} returns {@code null} and {@link ProcessTree} finds the
 * descendants by their mark, session and what it saw.
 */
final class CgroupScope implements AutoCloseable {

    /** The cgroup Keyline runs in, when it may create cgroups below it; else {@code null}. */
    private static final Path PARENT = detect();
    private static final AtomicLong SEQUENCE = new AtomicLong();

    private final Path dir;

    private CgroupScope(Path dir) {
        this.dir = dir;
    }

    /** A new, empty cgroup, or {@code null} where none can be made. */
    static CgroupScope create() {
        if (PARENT == null || "off".equals(System.getProperty("keyline.cgroup"))) {
            return null;
        }
        Path dir = PARENT.resolve("keyline-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet());
        try {
            Files.createDirectory(dir);
            return new CgroupScope(dir);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Moves {@code pid} (a child of Keyline, still at its gate) into this cgroup; false when refused. */
    boolean add(long pid) {
        return write(dir.resolve("cgroup.procs"), Long.toString(pid));
    }

    /** The pids in the cgroup. */
    List<Long> pids() {
        List<Long> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(dir.resolve("cgroup.procs"), StandardCharsets.US_ASCII)) {
                if (!line.isBlank()) {
                    out.add(Long.parseLong(line.strip()));
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone
        }
        return out;
    }

    boolean empty() {
        return pids().isEmpty();
    }

    /** Sends every member SIGTERM ({@code force == false}) or SIGKILL. */
    void signal(boolean force) {
        for (long pid : pids()) {
            ProcessHandle.of(pid).filter(h -> h.pid() != ProcessHandle.current().pid())
                    .ifPresent(h -> {
                        if (force) {
                            h.destroyForcibly();
                        } else {
                            h.destroy();
                        }
                    });
        }
    }

    /** Ends every member: {@code cgroup.kill}, else frozen and killed one by one. */
    void kill() throws InterruptedException {
        if (Files.exists(dir.resolve("cgroup.kill")) && write(dir.resolve("cgroup.kill"), "1")) {
            awaitEmpty();
            return;
        }
        boolean frozen = write(dir.resolve("cgroup.freeze"), "1");
        for (int round = 0; round < 50 && !empty(); round++) {
            signal(true);
            Thread.sleep(20);
        }
        if (frozen) {
            write(dir.resolve("cgroup.freeze"), "0");
        }
        awaitEmpty();
    }

    private void awaitEmpty() throws InterruptedException {
        for (int i = 0; i < 100 && !empty(); i++) {
            Thread.sleep(20);
        }
    }

    /** Moves what is still running out (into Keyline's own cgroup) and removes the cgroup. */
    @Override
    public void close() {
        for (long pid : pids()) {
            write(PARENT.resolve("cgroup.procs"), Long.toString(pid));
        }
        try {
            Files.deleteIfExists(dir);
        } catch (IOException | RuntimeException e) {
            // still populated (a process that forked meanwhile) or already gone: a later start tidies up
        }
    }

    /**
     * After a crash: ends the Keyline cgroup that process {@code pid} (a child that a crashed Keyline
     * started) runs in, with everything in it. Nothing when it runs in no Keyline cgroup.
     */
    static void killCgroupOf(long pid) throws InterruptedException {
        if (PARENT == null) {
            return;
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "cgroup"))) {
                if (!line.startsWith("0::")) {
                    continue;
                }
                Path own = Path.of(line.substring(3).strip());
                Path name = own.getFileName();
                Path parentRel = own.getParent();
                Path ours = Path.of(Files.readAllLines(Path.of("/proc/self/cgroup")).stream()
                        .filter(l -> l.startsWith("0::")).findFirst().orElse("0::/").substring(3).strip());
                if (name != null && name.toString().startsWith("keyline-") && ours.equals(parentRel)) {
                    new CgroupScope(PARENT.resolve(name.toString())).kill();
                }
            }
        } catch (IOException | RuntimeException e) {
            // no such process, or no cgroup to read: the session and process group are ended instead
        }
    }

    private static boolean write(Path file, String value) {
        try {
            Files.writeString(file, value, StandardCharsets.US_ASCII, StandardOpenOption.WRITE);
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * The cgroup v2 directory of this process ({@code 0::PATH} of {@code /proc/self/cgroup} under the
     * cgroup2 mount of {@code /proc/self/mountinfo}) if this process may create cgroups in it and move
     * its children there; empty cgroups left by Keyline processes that are gone are removed.
     */
    private static Path detect() {
        try {
            String path = null;
            for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
                if (line.startsWith("0::")) {
                    path = line.substring(3).strip();
                }
            }
            if (path == null) {
                return null;
            }
            Path found = null;
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
                int dash = line.indexOf(" - ");
                if (dash < 0 || !line.substring(dash + 3).startsWith("cgroup2 ")) {
                    continue;
                }
                String[] f = line.substring(0, dash).split(" ");
                String root = unescape(f[3]);
                String mount = unescape(f[4]);
                if (path.equals(root) || path.startsWith(root.endsWith("/") ? root : root + "/")) {
                    String rel = path.substring(root.length()).replaceFirst("^/", "");
                    found = rel.isEmpty() ? Path.of(mount) : Path.of(mount).resolve(rel);
                }
            }
            if (found == null || !Files.isDirectory(found) || !Files.isWritable(found)
                    || !Files.isWritable(found.resolve("cgroup.procs"))) {
                return null;
            }
            tidy(found);
            return found;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Removes empty {@code keyline-PID-N} cgroups of Keyline processes that are gone. */
    private static void tidy(Path parent) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(parent, "keyline-*")) {
            for (Path e : entries) {
                String[] parts = e.getFileName().toString().split("-");
                try {
                    long pid = Long.parseLong(parts[1]);
                    if (ProcessHandle.of(pid).isEmpty()) {
                        Files.deleteIfExists(e);
                    }
                } catch (IOException | RuntimeException notEmptyOrNotOurs) {
                    // left as it is
                }
            }
        } catch (IOException | RuntimeException e) {
            // nothing to tidy
        }
    }

    /** mountinfo escapes space, tab, newline and backslash as octal. */
    private static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length()) {
                b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
