package io.keyline.store.h2;

import io.keyline.acceptance.ChildProcess;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real {@code keyline run} in a child JVM that has the state open (and serves it over AUTO_SERVER) while its
 * one step sleeps: key {@code k1} of job {@code slow} stays RUNNING. {@link #close} kills the run and its step.
 */
final class HoldingRun implements AutoCloseable {
    private final Process child;
    private final Path log;
    private String sleeper;

    private HoldingRun(Process child, Path log) {
        this.child = child;
        this.log = log;
    }

    /** Writes the job into {@code jobs}, starts the run and returns once its step is running. */
    static HoldingRun start(Path state, Path jobs, Path dir) throws Exception {
        Path started = dir.resolve("started");
        Files.writeString(jobs.resolve("slow.json"), """
            { "name": "slow", "key": { "type": "manual" },
              "steps": [ { "id": "wait", "kind": "command", "effect": "none", "timeout": "PT120S",
                           "command": ["sh", "-c", "echo $$ > '%s'; exec sleep 90"] } ] }
            """.formatted(started));
        Path log = dir.resolve("child.log");
        HoldingRun run = new HoldingRun(ChildProcess.start(state, jobs, log, "run", "slow", "--key", "k1"), log);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (!(Files.exists(started) && !Files.readString(started).isBlank()) && System.nanoTime() < deadline) {
                assertThat(run.child.isAlive()).as(Files.readString(log)).isTrue();
                Thread.sleep(50);
            }
            run.sleeper = Files.readString(started).trim();
            return run;
        } catch (Exception | Error e) {
            run.close();
            throw e;
        }
    }

    boolean alive() {
        return child.isAlive();
    }

    /** SIGKILL of the run (no shutdown hook: H2's lock file stays behind); its step sleeps on until close. */
    boolean kill() throws InterruptedException {
        child.destroyForcibly();
        return child.waitFor(30, TimeUnit.SECONDS);
    }

    String log() throws java.io.IOException {
        return Files.readString(log);
    }

    @Override
    public void close() throws Exception {
        child.destroyForcibly();
        child.waitFor(30, TimeUnit.SECONDS);
        if (sleeper != null && !sleeper.isEmpty()) {
            new ProcessBuilder("kill", "-9", sleeper).start().waitFor();
        }
    }
}
