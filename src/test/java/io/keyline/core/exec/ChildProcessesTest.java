package io.keyline.core.exec;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.io.File;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A child process recorded by one Keyline process is found again by another: the one that takes over a key
 * after a crash. Its start time as the recorder saw it can be seconds off the taker's view of it: a JVM turns
 * the kernel's boot-relative start into a time of day with the boot time it read once, when it started, and a
 * clock step in between (NTP, a resumed VM) moves the boot time that later JVMs read. The step's child is then
 * known by the job, key and step its environment was started with.
 */
@EnabledOnOs(OS.LINUX)
class ChildProcessesTest {

    private Process child;

    @AfterEach
    void tearDown() {
        if (child != null) {
            child.destroyForcibly();
        }
    }

    private Process start(Map<String, String> env, String seconds) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("sleep", seconds).redirectInput(new File("/dev/null"));
        pb.environment().putAll(env);
        child = pb.start();
        return child;
    }

    /** The start as a JVM that read the boot time before the clock was stepped back by five seconds shows it. */
    private static Instant beforeAClockStep(Process p) {
        return p.info().startInstant().orElseThrow().plusSeconds(5);
    }

    @Test
    void aChildRecordedBeforeAClockStepIsStillFoundByItsStep() throws Exception {
        Map<String, String> ours = ChildProcesses.identity("daily-article", "2026-11-29", "publish",
                "20261129T090000-aa11bb");
        Process p = start(ours, "30");
        Instant recorded = beforeAClockStep(p);

        assertThat(ChildProcesses.alive(p.pid(), p.info().startInstant().orElseThrow(), ours)).isTrue();
        assertThat(ChildProcesses.alive(p.pid(), recorded, ours))
                .as("the child of this step, recorded with a start five seconds off").isTrue();
        assertThat(ChildProcesses.alive(p.pid(), recorded,
                ChildProcesses.identity("daily-article", "2026-11-30", "publish", "20261129T090000-aa11bb")))
                .as("the pid's process runs another key's step: not ours").isFalse();
        assertThat(ChildProcesses.alive(p.pid(), recorded,
                ChildProcesses.identity("daily-article", "2026-11-29", "publish", "20261129T090000-ee33ff")))
                .as("the same step of another run (another state on this host): not ours").isFalse();
        assertThat(ChildProcesses.alive(p.pid(), recorded, Map.of()))
                .as("nothing but a start time that does not match: a reused pid").isFalse();
    }

    @Test
    void aTakeoverWaitsForAndEndsAChildRecordedBeforeAClockStep() throws Exception {
        Map<String, String> ours = ChildProcesses.identity("backup", "2026-W48", "archive", "20261129T090000-cc22dd");
        long started = System.nanoTime();
        Process p = start(ours, "2");
        Instant recorded = beforeAClockStep(p);
        Clock clock = Clock.systemUTC();

        boolean exited = ChildProcesses.await(p.pid(), recorded, ours, clock.instant().plusSeconds(30), clock);
        assertThat(exited).isTrue();
        // the child sleeps two seconds: await returned no sooner (a busy machine only makes it later)
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))
                .as("await returned while the child still ran").isGreaterThanOrEqualTo(1_900);

        Process q = start(ours, "30");
        ChildProcesses.killGroup(q.pid(), beforeAClockStep(q), ours);
        assertThat(q.waitFor(10, TimeUnit.SECONDS)).as("the child past its timeout was killed").isTrue();
    }
}
