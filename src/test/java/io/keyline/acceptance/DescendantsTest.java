package io.keyline.acceptance;

import io.keyline.testing.CpuBurn;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A step's descendants end at its timeout, also those that left its process group: a grandchild
 * that started its own session ({@code setsid}) and one that double-forked into a process group of
 * its own ({@code set -m}), both outliving the parent that started them. With the cgroup where the
 * system offers one, and without it (the descendants Keyline saw and the processes that carry the
 * step's mark).
 */
class DescendantsTest {

    @TempDir
    Path tmp;

    static final String ESCAPING = String.join("; ",
            // a grandchild in a session of its own, its parent gone at once
            "(setsid sh -c 'echo $$ > session.pid; exec sleep 120' &)",
            // a double fork: sh forks a job in a process group of its own (set -m) and exits
            "sh -c 'set -m; sleep 120 & echo $! > forked.pid'",
            "while [ ! -s session.pid ] || [ ! -s forked.pid ]; do sleep 0.05; done",
            "sleep 120");

    @Test
    void descendantsThatLeftTheProcessGroupEndAtTheStepsTimeout() throws Exception {
        assertDescendantsEnd("default", null);
    }

    @Test
    void withoutACgroupTheMarkedAndSeenDescendantsEndToo() throws Exception {
        assertDescendantsEnd("no-cgroup", "off");
    }

    private void assertDescendantsEnd(String name, String cgroup) throws Exception {
        String before = System.getProperty("keyline.cgroup");
        if (cgroup != null) {
            System.setProperty("keyline.cgroup", cgroup);
        }
        List<Long> pids = new ArrayList<>();
        try (CpuBurn burn = CpuBurn.start(1)) {
            Workbench wb = new Workbench(tmp.resolve(name));
            wb.job("escape", Jobs.command("escape", "none", ESCAPING, "PT3S")
                    .replace("\"maxAttempts\": 3", "\"maxAttempts\": 1"), null);
            Result run = wb.cli("run", "escape", "--key", "2026-11-02");
            assertThat(run.out()).as(run.toString()).contains("killed after timeout");
            for (String f : List.of("session.pid", "forked.pid")) {
                pids.add(Long.parseLong(Files.readString(wb.jobs.resolve(f)).strip()));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (pids.stream().anyMatch(DescendantsTest::alive) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(pids.stream().filter(DescendantsTest::alive).toList()).as("descendants still alive after the timeout")
                    .isEmpty();
        } finally {
            pids.forEach(p -> ProcessHandle.of(p).ifPresent(ProcessHandle::destroyForcibly));
            if (before == null) {
                System.clearProperty("keyline.cgroup");
            } else {
                System.setProperty("keyline.cgroup", before);
            }
        }
    }

    static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
