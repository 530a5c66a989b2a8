package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.testing.TestSite;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kills a child JVM that runs a job with SIGKILL at random points, then reruns and performs the
 * operator actions the state asks for: every key ends DONE and the server saw each key's effect
 * exactly once. {@code -Dkeyline.crash.kills=N} sets how many kills (CI: 30). On H2 here; on PostgreSQL in
 * {@link PostgresCrashTest}.
 */
class CrashTest {

    /** The seed of the random kills of the running test. */
    private long seed;

    static final String FROM = "2026-11-20";
    static final String TO = "2026-11-29";

    @TempDir
    Path tmp;
    Workbench wb;
    TestSite site;
    TestSite blindSite;
    Path log;

    @BeforeEach
    void setUp() throws IOException {
        wb = new Workbench(tmp);
        wb.clock.followSystemClock();
        site = new TestSite();
        blindSite = new TestSite();
        log = tmp.resolve("children.log");
        // One job with a probe, one without: without a probe, only the durably committed
        // "step started" stands between a kill after sending and a duplicate article.
        wb.job("probed", Jobs.publish("probed", "unsafe", true, null), site.base());
        wb.job("blind", Jobs.publish("blind", "unsafe", false, null), blindSite.base());
    }

    @AfterEach
    void tearDown() throws IOException {
        site.close();
        blindSite.close();
    }

    @Test
    void killedRightAfterTheRequestWentOutIsNeverSentAgain() throws Exception {
        AtomicReference<Process> child = new AtomicReference<>();
        CountDownLatch killed = new CountDownLatch(1);
        // The server kills the client the moment the effect is applied, before answering.
        blindSite.onPost(r -> {
            Process p = child.get();
            if (p != null && killed.getCount() > 0) {
                p.destroyForcibly();
                killed.countDown();
            }
        });
        child.set(ChildProcess.start(wb, log, "run", "blind", "--key", TO));
        assertThat(killed.await(60, TimeUnit.SECONDS)).as(Files.readString(log)).isTrue();
        child.get().waitFor(30, TimeUnit.SECONDS);
        assertThat(effects("blind", TO)).isEqualTo(1);

        // on PostgreSQL the killed process holds its lease until the server notices its connection is gone
        // ("within moments"; longer on a busy machine): until then a run says another process runs the key
        Result rerun = wb.cli("run", "blind", "--key", TO);
        for (int i = 0; i < 30 && rerun.exit() == 5 && wb.postgres(); i++) {
            assertThat(effects("blind", TO)).isEqualTo(1);
            Thread.sleep(1000);
            rerun = wb.cli("run", "blind", "--key", TO);
        }
        assertThat(rerun.exit()).as(rerun.toString()).isEqualTo(4);
        assertThat(state("blind", TO)).isEqualTo("NEEDS_CONFIRMATION");
        assertThat(effects("blind", TO)).as("the commit of 'step started' survived SIGKILL").isEqualTo(1);
    }

    @Test
    void randomKillsNeverDuplicateOrLoseAnEffect() throws Exception {
        int kills = Integer.getInteger("keyline.crash.kills", 30);
        seed = Long.getLong("keyline.crash.seed", System.nanoTime());
        Random random = new Random(seed);
        site.postDelayMillis(40);
        blindSite.postDelayMillis(40);
        List<String> jobs = List.of("probed", "blind");
        for (int i = 0; i < kills; i++) {
            String job = jobs.get(i % 2);
            Process p = ChildProcess.start(wb, log, "run", "--yes", job, "--from", FROM, "--to", TO);
            long delay = 300 + random.nextInt(2200);
            if (!p.waitFor(delay, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
            }
            if (i % 5 == 4) {
                resolveAsOperator(job);
            }
        }
        for (String job : jobs) {
            for (int round = 0; round < 10; round++) {
                Result r = wb.cli("run", "--yes", job, "--from", FROM, "--to", TO);
                if (r.exit() == 0) {
                    break;
                }
                resolveAsOperator(job);
            }
        }
        List<String> report = new ArrayList<>();
        for (String job : jobs) {
            JsonNode keys = Json.read(wb.cli("status", job, "--json").out(), JsonNode.class);
            assertThat(keys).hasSize(10);
            for (JsonNode k : keys) {
                report.add(job + " " + k.get("key").asText() + " " + k.get("state").asText() + " effects="
                        + effects(job, k.get("key").asText()));
            }
        }
        assertThat(report).as("log: %s", tmp.resolve("children.log")).allMatch(l -> l.contains(" DONE effects=1"));
    }

    /** Does what an operator does for keys that wait: checks the site, then marks done or confirms. */
    private void resolveAsOperator(String job) {
        Result status = wb.cli("status", job, "--attention", "--json");
        // right after a kill: a status that cannot read the state says why (and the seed repeats the kills)
        assertThat(status.exit()).as("status after the kills of seed %d (-Dkeyline.crash.seed): %s", seed, status)
                .isZero();
        JsonNode keys = Json.read(status.out(), JsonNode.class);
        for (JsonNode k : keys) {
            String key = k.get("key").asText();
            String st = k.get("state").asText();
            if (st.equals("NEEDS_CONFIRMATION")) {
                if (effects(job, key) > 0) {
                    wb.cli("mark-done", job, key, "--note", "checked the site: it is there");
                } else {
                    wb.cli("confirm", job, key, "--note", "checked the site: not there");
                }
            } else if (st.equals("FAILED")) {
                wb.cli("retry", job, key);
            }
        }
    }

    private String state(String job, String key) {
        for (JsonNode k : Json.read(wb.cli("status", job, "--json").out(), JsonNode.class)) {
            if (k.get("key").asText().equals(key)) {
                return k.get("state").asText();
            }
        }
        return "absent";
    }

    private int effects(String job, String key) {
        return job.equals("blind") ? blindSite.effects(key) : site.effects(key);
    }
}
