package io.keyline.core;

import io.keyline.core.exec.Executors;
import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.domain.EventType;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyState;
import io.keyline.store.JdbcStateStore;
import io.keyline.store.LostCommitAnswer;
import io.keyline.store.h2.H2Database;
import io.keyline.testing.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cron starts several runs in the same minute; the one that opened the state serves it to the others and closes it
 * when its run ends. A run whose claim committed just before that close hears "connection lost" instead of the
 * commit's answer. It goes on with the key it claimed: the step runs once, the key is done, the run exits 0 (the key
 * is not left RUNNING as another process's).
 */
class LostCommitAnswerRunTest {

    @TempDir
    Path tmp;

    @Test
    void aRunWhoseClaimsCommitAnswerIsLostRunsItsStepOnceAndFinishesTheKey() throws Exception {
        Path jobs = Files.createDirectories(tmp.resolve("jobs"));
        Files.writeString(jobs.resolve("tick.json"), """
            { "name": "tick", "key": { "type": "manual" },
              "steps": [ { "id": "tick", "kind": "command", "effect": "none",
                           "command": ["sh", "-c", "echo x >> ticks.log"] } ] }
            """);
        JobDefinition job = JobFileLoader.loadFile(jobs.resolve("tick.json")).job();
        MutableClock clock = new MutableClock(Instant.parse("2026-11-30T09:00:00Z"));
        RunOptions options = new RunOptions(clock, clock::advance, new Random(1), Duration.ofMinutes(1),
                Duration.ofMinutes(2), "tester");
        try (H2Database h2 = H2Database.open(tmp.resolve("state"));
             LostCommitAnswer lossy = new LostCommitAnswer(h2).loseNext(1);
             JdbcStateStore store = new JdbcStateStore(lossy)) {
            RunReport r = new Engine(store, Executors.standard(clock), CredentialProvider.NONE, RunTrace.NONE, options)
                    .run(job, List.of("2026-11-04"));
            assertThat(store.key("tick", "2026-11-04").orElseThrow().state()).isEqualTo(KeyState.DONE);
            assertThat(r.exitCode()).isZero();
            assertThat(Files.readAllLines(jobs.resolve("ticks.log"))).hasSize(1);
            assertThat(lossy.lost()).as("the first commit is the claim's").isEqualTo(1);
            assertThat(store.events("tick", "2026-11-04")).extracting(KeyEvent::type)
                    .containsExactly(EventType.CLAIMED, EventType.STEP_SUCCEEDED, EventType.KEY_DONE);
        }
    }
}
