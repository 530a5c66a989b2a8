package io.keyline.acceptance;

import io.keyline.store.h2.H2Database;
import io.keyline.core.CredentialProvider;
import io.keyline.core.Engine;
import io.keyline.core.Plan;
import io.keyline.core.Planner;
import io.keyline.core.RunReport;
import io.keyline.core.RunTrace;
import io.keyline.core.StateStore;
import io.keyline.core.exec.Executors;
import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeyState;
import io.keyline.store.Database;
import io.keyline.store.JdbcStateStore;
import io.keyline.testing.Workbench;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Planning and re-running 100,000 keys that are all DONE is set-based: a handful of store calls,
 * not one (or more) per key; and nothing is executed.
 */
class SetBasedTest {

    static final int N = 100_000;

    @TempDir
    Path tmp;

    @Test
    void planAndRunOfHundredThousandDoneKeysUseAHandfulOfStoreCalls() throws Exception {
        Workbench wb = new Workbench(tmp);
        LocalDate last = LocalDate.parse("2026-11-28");
        LocalDate first = last.minusDays(N - 1);
        Path marker = wb.jobs.resolve("executed");
        Path file = wb.job("big", """
            {
              "name": "big",
              "key": { "type": "date", "zone": "UTC", "start": "%s" },
              "steps": [
                { "id": "work", "kind": "command", "effect": "none", "command": ["sh", "-c", "echo x >> executed"] }
              ]
            }
            """.formatted(first), null);
        JobFileLoader.Result loaded = JobFileLoader.loadFile(file);
        assertThat(loaded.errors()).isEmpty();
        JobDefinition job = loaded.job();
        List<String> keys = KeyRules.range(job.key(), first.toString(), last.toString());
        assertThat(keys).hasSize(N).startsWith(first.toString()).endsWith(last.toString());

        try (Database db = H2Database.open(wb.state)) {
            seedDone(db, "big", keys, wb.clock.millis());
            StateStore real = new JdbcStateStore(db);
            Map<String, AtomicInteger> calls = new TreeMap<>();
            StateStore counting = (StateStore) Proxy.newProxyInstance(StateStore.class.getClassLoader(),
                    new Class<?>[] {StateStore.class}, (proxy, method, args) -> {
                        calls.computeIfAbsent(method.getName(), m -> new AtomicInteger()).incrementAndGet();
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });

            Plan plan = new Planner(counting, counting, counting, counting, CredentialProvider.NONE, wb.clock, null)
                    .plan(job, keys);
            assertThat(plan.keys()).hasSize(N);
            List<String> notSkipped = new ArrayList<>();
            for (Plan.KeyPlan k : plan.keys()) {
                if (!k.action().equals("skip (done)") || k.state() != KeyState.DONE || k.runs()) {
                    notSkipped.add(k.key() + " " + k.state() + " " + k.action());
                }
            }
            assertThat(notSkipped).isEmpty();
            int planCalls = total(calls);
            assertThat(planCalls).as("store calls of plan: %s", calls).isLessThanOrEqualTo(5);

            calls.clear();
            Engine engine = new Engine(counting, Executors.standard(wb.clock), CredentialProvider.NONE, RunTrace.NONE,
                    wb.options());
            RunReport report = engine.run(job, keys);
            assertThat(report.exitCode()).isZero();
            assertThat(report.keys()).hasSize(N).allMatch(k -> k.state() == KeyState.DONE);
            assertThat(total(calls)).as("store calls of run: %s", calls).isLessThanOrEqualTo(5);
            assertThat(marker).as("no step executed").doesNotExist();
            assertThat(real.countsByState("big")).containsExactly(Map.entry(KeyState.DONE, N));
        }
        assertThat(Files.exists(marker)).isFalse();
    }

    private static int total(Map<String, AtomicInteger> calls) {
        return calls.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    private static void seedDone(Database db, String job, List<String> keys, long now) throws Exception {
        try (Connection c = db.connection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO key_state (job, key_value, state, attempts, "
                    + "message, version, created_at, updated_at) VALUES (?, ?, 'DONE', 0, 'all 1 steps done', 3, ?, ?)")) {
                int n = 0;
                for (String k : keys) {
                    ps.setString(1, job);
                    ps.setString(2, k);
                    ps.setLong(3, now);
                    ps.setLong(4, now);
                    ps.addBatch();
                    if (++n % 5_000 == 0) {
                        ps.executeBatch();
                    }
                }
                ps.executeBatch();
            }
            c.commit();
        }
    }
}
