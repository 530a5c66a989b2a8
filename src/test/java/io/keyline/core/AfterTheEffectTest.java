package io.keyline.core;

import io.keyline.store.h2.H2Database;
import io.keyline.core.exec.Executors;
import io.keyline.core.exec.ProbeOutcome;
import io.keyline.core.exec.StepContext;
import io.keyline.core.exec.StepExecutor;
import io.keyline.core.exec.StepOutcome;
import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.StepKind;
import io.keyline.store.Database;
import io.keyline.store.JdbcStateStore;
import io.keyline.testing.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Nothing after the effect can lose it: when recording a step's outcome fails, the key waits for a
 * person with the evidence instead of staying RUNNING (before: the run died with exit 1 and the key
 * stayed RUNNING; the next run asked for a confirmation and every confirm sent again). And an operator
 * retry resets the step's attempts in the same guarded transaction as the key's move.
 */
class AfterTheEffectTest {

    @TempDir
    Path tmp;

    private JobDefinition job(String json) throws Exception {
        Path jobs = tmp.resolve("jobs");
        Files.createDirectories(jobs);
        Path f = jobs.resolve("j.json");
        Files.writeString(f, json);
        return JobFileLoader.loadFile(f).job();
    }

    private static StateStore failing(StateStore real, AtomicBoolean armed) {
        return (StateStore) Proxy.newProxyInstance(StateStore.class.getClassLoader(), new Class<?>[] {StateStore.class},
                (proxy, m, args) -> {
                    if (m.getName().equals("applyChain") && armed.get()) {
                        List<?> chain = (List<?>) args[0];
                        boolean success = chain.stream().anyMatch(c -> ((StateStore.Change) c).step() != null
                                && ((StateStore.Change) c).step().status() == io.keyline.domain.StepStatus.SUCCEEDED);
                        if (success) {
                            armed.set(false);
                            throw new StateUnavailableException("state failed: value too long for column \"outputs\"",
                                    null);
                        }
                    }
                    try {
                        return m.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void aFailureToRecordASentRequestParksTheKeyForAPerson() throws Exception {
        JobDefinition job = job("""
            { "name": "j", "key": { "type": "manual" },
              "steps": [ { "id": "post", "kind": "http", "effect": "unsafe",
                           "request": { "method": "POST", "url": "http://127.0.0.1:9/x", "body": "b" } } ] }
            """);
        AtomicInteger sent = new AtomicInteger();
        StepExecutor exec = new StepExecutor() {
            @Override
            public StepOutcome execute(StepContext ctx) {
                sent.incrementAndGet();
                return StepOutcome.success("HTTP 201", Map.of("id", "7"), null);
            }

            @Override
            public ProbeOutcome probe(StepContext ctx) {
                throw new AssertionError("no probe");
            }
        };
        MutableClock clock = new MutableClock(Instant.parse("2026-11-30T10:00:00Z"));
        RunOptions options = new RunOptions(clock, clock::advance, new Random(1), Duration.ofMinutes(1),
                Duration.ofMinutes(2), "tester");
        try (Database db = H2Database.open(tmp.resolve("state")); JdbcStateStore real = new JdbcStateStore(db)) {
            AtomicBoolean armed = new AtomicBoolean(true);
            Engine engine = new Engine(failing(real, armed), new Executors(Map.of(StepKind.HTTP, exec)),
                    CredentialProvider.NONE, RunTrace.NONE, options);
            RunReport r = engine.run(job, List.of("k"));
            KeyRecord k = real.key("j", "k").orElseThrow();
            assertThat(k.state()).isEqualTo(KeyState.NEEDS_CONFIRMATION);
            assertThat(k.failureClass()).isEqualTo(FailureClass.AMBIGUOUS);
            assertThat(k.message()).contains("succeeded (HTTP 201)").contains("recording its result failed")
                    .contains("value too long");
            assertThat(r.exitCode()).isEqualTo(RunReport.WAITING_FOR_OPERATOR);
            // a further run does not send it again
            engine.run(job, List.of("k"));
            assertThat(sent.get()).isEqualTo(1);
        }
    }

    @Test
    void retryResetsTheAttemptsOnlyWhenItsGuardedMoveCommits() throws Exception {
        JobDefinition job = job("""
            { "name": "j", "key": { "type": "manual" },
              "retry": { "maxAttempts": 2, "initialDelay": "PT1S", "jitter": 0.0 },
              "steps": [ { "id": "flaky", "kind": "command", "effect": "none", "command": ["sh", "-c", "exit 75"] } ] }
            """);
        MutableClock clock = new MutableClock(Instant.parse("2026-11-30T10:00:00Z"));
        RunOptions options = new RunOptions(clock, clock::advance, new Random(1), Duration.ofMinutes(1),
                Duration.ofMinutes(2), "tester");
        try (Database db = H2Database.open(tmp.resolve("state")); JdbcStateStore real = new JdbcStateStore(db)) {
            new Engine(real, Executors.standard(clock), CredentialProvider.NONE, RunTrace.NONE, options)
                    .run(job, List.of("k"));
            assertThat(real.key("j", "k").orElseThrow().state()).isEqualTo(KeyState.FAILED);
            assertThat(real.steps("j", "k").get("flaky").attempts()).isEqualTo(2);
            // another process changes the key between the operator's read and write: the guard fails
            StateStore racing = (StateStore) Proxy.newProxyInstance(StateStore.class.getClassLoader(),
                    new Class<?>[] {StateStore.class}, (proxy, m, args) -> {
                        if (m.getName().equals("apply")) {
                            throw new StaleStateException("j", "k");
                        }
                        try {
                            return m.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            assertThatThrownBy(() -> new OperatorActions(racing, racing, racing, options, RunTrace.NONE).retry(job, "k", null))
                    .isInstanceOf(OperatorException.class).hasMessageContaining("changed while you acted");
            assertThat(real.steps("j", "k").get("flaky").attempts()).as("untouched: the retry did not happen")
                    .isEqualTo(2);
            new OperatorActions(real, real, real, options, RunTrace.NONE).retry(job, "k", null);
            assertThat(real.key("j", "k").orElseThrow().state()).isEqualTo(KeyState.PENDING);
            assertThat(real.steps("j", "k").get("flaky").attempts()).isZero();
        }
    }
}
