package io.keyline.core.exec;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Child processes of command steps, by pid and start time (a pid alone may have been reused). A
 * step's child leads its own session and process group (its pid is their id), so ending both also
 * ends what it started, even processes that were re-parented after their parent exited. (While the
 * step's own Keyline runs, {@link ProcessTree} reaches further: its cgroup and its mark.)
 */
public final class ChildProcesses {

    /** Start times from {@code /proc} are coarse (clock ticks): allow this much difference. */
    private static final Duration START_TOLERANCE = Duration.ofSeconds(2);

    private ChildProcesses() {
    }

    /** The live process with this pid, if it is the one that started at {@code startedAt}. */
    static Optional<ProcessHandle> find(long pid, Instant startedAt) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(p -> {
            Optional<Instant> start = p.info().startInstant();
            return startedAt == null || start.isEmpty()
                    || Duration.between(start.get(), startedAt).abs().compareTo(START_TOLERANCE) <= 0;
        });
    }

    public static boolean alive(long pid, Instant startedAt) {
        return find(pid, startedAt).isPresent();
    }

    /**
     * Waits until the process exits or {@code deadline} passes.
     *
     * @return true when it exited (or was gone)
     */
    public static boolean await(long pid, Instant startedAt, Instant deadline, Clock clock) throws InterruptedException {
        Optional<ProcessHandle> p = find(pid, startedAt);
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
    public static void killGroup(long pid, Instant startedAt) {
        Optional<ProcessHandle> p = find(pid, startedAt);
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
        for (long member : ProcTable.marked(null, pid, startedAt == null ? Instant.EPOCH : startedAt)) {
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
