package io.keyline.core.exec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Linux process table ({@code /proc}) as far as Keyline needs it to find what a child started:
 * each process's session, process group, state and environment. Elsewhere (no {@code /proc}) it finds
 * nothing, and only what {@link ProcessHandle} reports is reached.
 */
final class ProcTable {

    private static final Path PROC = Path.of("/proc");
    /** Start times from {@code /proc} are coarse (clock ticks): allow this much before the leader started. */
    private static final Duration START_TOLERANCE = Duration.ofSeconds(2);

    private ProcTable() {
    }

    /** One line of {@code /proc/PID/stat}: the fields after the command name. */
    private record Stat(char state, long pgrp, long session) {
    }

    private static Stat stat(long pid) {
        try {
            String s = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.ISO_8859_1);
            // "pid (comm) state ppid pgrp session ...": comm may hold spaces and parentheses, so start after the last ')'
            String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
            return new Stat(f[0].charAt(0), Long.parseLong(f[2]), Long.parseLong(f[3]));
        } catch (IOException | RuntimeException e) {
            return null; // gone, or not readable
        }
    }

    /** Whether {@code pid} is a zombie (exited, not yet reaped): nothing to end. */
    static boolean zombie(long pid) {
        Stat s = stat(pid);
        return s != null && (s.state() == 'Z' || s.state() == 'X');
    }

    /**
     * The live processes that carry {@code MARK=mark} in their environment, or whose session or process
     * group is {@code leader} (when positive) and that started after it (a pid is reused only later).
     * {@code mark == null}: only the session and process group.
     */
    static List<Long> marked(String mark, long leader, Instant leaderStarted) {
        List<Long> out = new ArrayList<>();
        if (!Files.isDirectory(PROC)) {
            return out;
        }
        byte[] needle = mark == null ? null : (ProcessTree.MARK_VARIABLE + "=" + mark).getBytes(StandardCharsets.US_ASCII);
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC)) {
            for (Path e : entries) {
                long pid = pidOf(e);
                if (pid <= 1 || pid == self) {
                    continue;
                }
                Stat s = stat(pid);
                if (s == null || s.state() == 'Z' || s.state() == 'X') {
                    continue;
                }
                boolean ours = leader > 0 && (s.session() == leader || s.pgrp() == leader) && startedAfter(pid, leaderStarted);
                if (ours || needle != null && carries(e.resolve("environ"), needle)) {
                    out.add(pid);
                }
            }
        } catch (IOException | RuntimeException e) {
            // the table could not be listed: what ProcessHandle reported is all there is
        }
        return out;
    }

    private static long pidOf(Path entry) {
        String name = entry.getFileName().toString();
        for (int i = 0; i < name.length(); i++) {
            if (!Character.isDigit(name.charAt(i))) {
                return -1;
            }
        }
        try {
            return Long.parseLong(name);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean startedAfter(long pid, Instant leaderStarted) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().startInstant())
                .map(start -> !start.isBefore(leaderStarted.minus(START_TOLERANCE))).orElse(true);
    }

    /** Whether process {@code pid}'s environment holds every one of {@code entries} exactly. */
    static boolean carries(long pid, Map<String, String> entries) {
        byte[] env = environ(PROC.resolve(Long.toString(pid)).resolve("environ"));
        for (Map.Entry<String, String> e : entries.entrySet()) {
            if (env == null || !holds(env, (e.getKey() + "=" + e.getValue()).getBytes(StandardCharsets.UTF_8))) {
                return false;
            }
        }
        return true;
    }

    /** Whether an environment ({@code NUL}-separated {@code NAME=value}) holds exactly {@code needle}. */
    private static boolean carries(Path environ, byte[] needle) {
        byte[] env = environ(environ);
        return env != null && holds(env, needle);
    }

    /** A process's environment, or {@code null}: another user's process, or gone. */
    private static byte[] environ(Path environ) {
        try {
            return Files.readAllBytes(environ);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static boolean holds(byte[] env, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= env.length; i++) {
            if (i > 0 && env[i - 1] != 0) {
                continue;
            }
            for (int j = 0; j < needle.length; j++) {
                if (env[i + j] != needle[j]) {
                    continue outer;
                }
            }
            if (i + needle.length == env.length || env[i + needle.length] == 0) {
                return true;
            }
        }
        return false;
    }
}
