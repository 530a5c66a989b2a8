package io.keyline.core;

import io.keyline.store.h2.H2Database;
import io.keyline.core.exec.Executors;
import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyState;
import io.keyline.store.Database;
import io.keyline.store.JdbcStateStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lease heartbeat survives a database hiccup: one failed renewal is retried at the next beat
 * (before, the scheduled task threw once and never ran again, and a long step lost its lease).
 */
class HeartbeatTest {

    @TempDir
    Path tmp;

    @Test
    void aFailedRenewalIsRetriedAtTheNextBeat() throws Exception {
        Path jobs = tmp.resolve("jobs");
        Files.createDirectories(jobs);
        Path file = jobs.resolve("long.json");
        Files.writeString(file, """
            { "name": "long", "key": { "type": "manual" },
              "steps": [ { "id": "wait", "kind": "command", "effect": "none", "command": ["sleep", "1.5"] } ] }
            """);
        JobDefinition job = JobFileLoader.loadFile(file).job();
        AtomicInteger renewals = new AtomicInteger();
        AtomicInteger afterFailure = new AtomicInteger();
        try (Database db = H2Database.open(tmp.resolve("state")); JdbcStateStore real = new JdbcStateStore(db)) {
            StateStore flaky = (StateStore) Proxy.newProxyInstance(StateStore.class.getClassLoader(),
                    new Class<?>[] {StateStore.class}, (proxy, m, args) -> {
                        if (m.getName().startsWith("renewLease")) {
                            int n = renewals.incrementAndGet();
                            if (n == 1) {
                                throw new StateUnavailableException("state in test failed: disk hiccup", null);
                            }
                            afterFailure.incrementAndGet();
                        }
                        try {
                            return m.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            // a 300 ms lease beats every 100 ms: the 1.5 s step needs many renewals
            RunOptions options = new RunOptions(Clock.systemUTC(), Sleeper.REAL, new Random(1), Duration.ofMinutes(1),
                    Duration.ofMillis(300), "tester");
            Engine engine = new Engine(flaky, Executors.standard(Clock.systemUTC()), CredentialProvider.NONE,
                    RunTrace.NONE, options);
            RunReport r = engine.run(job, List.of("k1"));
            assertThat(r.keys().get(0).state()).isEqualTo(KeyState.DONE);
        }
        assertThat(renewals.get()).as("the first renewal failed").isGreaterThan(1);
        assertThat(afterFailure.get()).as("renewals after the failed one").isGreaterThanOrEqualTo(5);
    }
}
