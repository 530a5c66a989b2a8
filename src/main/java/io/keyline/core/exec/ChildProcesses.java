package io.keyline.core.exec;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Child processes of command steps, as a run that takes over a key after a crash finds them again. A step's
 * child leads its own session and process group (its pid is their id), so ending both also ends what it
 * started, even processes that were re-parented after their parent exited. (While the step's own Keyline
 * runs, {@link ProcessTree} reaches further: its cgroup and its mark.)
 *
 * <p>A pid alone may have been reused, so a recorded child is the live process with its pid that either
 * started when the record says or still carries the job, key, step and run it was started with
 * ({@link #identity}). The start time alone is not enough across processes: a JVM turns the kernel's
 * boot-relative start into a time of day with the boot time it read once, when it started, and a clock step
 * in between (NTP after a laptop's sleep, a resumed VM) moves the boot time a later JVM reads by as much.
 */
public final class ChildProcesses {

    /** Start times from {@code /proc} are coarse (clock ticks): allow this much difference. */
    private static final Duration START_TOLERANCE = Duration.ofSeconds(2);

    private ChildProcesses() {
    }

    /** The variables a command step's child is started with that name its job, key, step and run. */
    public static Map<String, String> identity(String job, String key, String step, String runId) {
        return Map.of("KEYLINE_JOB", job, "KEYLINE_KEY", key, "KEYLINE_STEP", step, "KEYLINE_RUN_ID", runId);
    }

    /**
     * The live process with this pid, if it is the recorded one: it started at {@code startedAt} or its
     * environment carries all of {@code carries}.
     */
    static Optional<ProcessHandle> find(long pid, Instant startedAt, Map<String, String> carries) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(p -> {
            Optional<Instant> start = p.info().startInstant();
            return startedAt == null || start.isEmpty()
                    || Duration.between(start.get(), startedAt).abs().compareTo(START_TOLERANCE) <= 0
                    || !carries.isEmpty() && ProcTable.carries(pid, carries);
        });
    }

    public static boolean alive(long pid, Instant startedAt, Map<String, String> carries) {
        return find(pid, startedAt, carries).isPresent();
    }

    /**
     * Waits until the process exits or {@code deadline} passes.
     *
     * @return true when it exited (or was gone)
     */
    public static boolean await(long pid, Instant startedAt, Map<String, String> carries, Instant deadline, Clock clock)
            throws InterruptedException {
        Optional<ProcessHandle> p = find(pid, startedAt, carries);
        if (p.isEmpty()) {
            return true;
        }
        while (p.get().isAlive()) {
            long left = Duration.between(clock.instant(), deadline).toMillis();
            if (left <= 0) {
                return false;
            }
            try {
                p.get().onExit().get(Math.min(left, 500), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                // look again
            }
        }
        return true;
    }

    /** Kills the session and process group led by {@code pid} (and the process and its descendants). */
    public static void killGroup(long pid, Instant startedAt, Map<String, String> carries) {
        Optional<ProcessHandle> p = find(pid, startedAt, carries);
        if (p.isEmpty()) {
            return;
        }
        try {
            CgroupScope.killCgroupOf(pid);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        killGroup(pid);
        p.get().descendants().forEach(ProcessHandle::destroyForcibly);
        // members started after the leader, as this JVM sees its start (the record's may be off by a clock step)
        Instant leaderStarted = p.get().info().startInstant().orElse(startedAt == null ? Instant.EPOCH : startedAt);
        for (long member : ProcTable.marked(null, pid, leaderStarted)) {
            ProcessHandle.of(member).ifPresent(ProcessHandle::destroyForcibly);
        }
        p.get().destroyForcibly();
        try {
            p.get().onExit().get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // it was killed with SIGKILL; the kernel reaps it
        }
    }

    /** Sends SIGKILL to process group {@code pgid} ({@code kill -KILL -- -PGID}). */
    public static void killGroup(long pgid) {
        if (pgid <= 1) {
            return;
        }
        try {
            Process k = ChildEnvironment.apply(new ProcessBuilder("kill", "-KILL", "--", "-" + pgid), Map.of())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            k.waitFor(5, TimeUnit.SECONDS);
        } catch (java.io.IOException e) {
            // no kill(1): the descendants are killed one by one by the caller
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
