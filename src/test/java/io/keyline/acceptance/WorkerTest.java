package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code keyline worker}: the scheduler without a console. It runs the due keys of
 * every unpaused job (catch-ups and pending keys), calls the notification hooks after its runs, and on
 * SIGTERM lets the running step finish, records it, and leaves the key to the next worker.
 */
class WorkerTest extends SiteTestBase {

    Map<String, String> states(String job) {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode n : Json.read(wb.cli("status", job, "--json").out(), JsonNode.class)) {
            out.put(n.get("key").asText(), n.get("state").asText());
        }
        return out;
    }

    @Test
    void aWorkerRunsTheDueKeysOfEveryJobAndNotifies() throws Exception {
        // the clock stands at 2026-11-29 09:00 UTC: the tick of today and the missed ticks of the week are due
        wb.job("daily", Jobs.publish("daily", "unsafe", true, null).replace("\"key\": {",
                "\"schedule\": \"0 9 * * *\", \"key\": {").replace("\"start\": \"2026-01-01\"", "\"start\": \"2026-11-26\""),
                site.base());
        wb.job("broken", Jobs.command("broken", "none", "echo no such file >&2; exit 65", "PT10S"), null);
        wb.job("paused", Jobs.command("paused", "none", "echo ran >> paused.log", "PT10S"), null);
        Files.writeString(wb.jobs.resolve("notify.json"), """
            { "hooks": [ { "on": ["attention"], "command": ["sh", "-c", "echo \\"$1\\" >> attention.log", "hook",
                           "{job} {key} {state}"] } ] }
            """);
        wb.seed("broken", List.of("2026-11-28"));
        wb.seed("paused", List.of("2026-11-28"));
        assertThat(wb.cli("pause", "paused", "--reason", "not today").exit()).isZero();
        // the unsafe job is reviewed, as an operator does before its first unattended run
        assertThat(wb.cli("approve", "daily").exit()).isZero();

        Result r = wb.cli("worker", "--until-idle");

        assertThat(r.exit()).as(r.toString()).isZero();
        String stateName = wb.postgres() ? wb.stateArg : wb.state.toAbsolutePath().normalize().toString();
        assertThat(r.out()).contains("worker ").contains(" started on " + stateName)
                .contains("stopped: ran 5 keys").contains("claim conflicts 0");
        // one line per step, as run prints them
        assertThat(r.out()).contains("publish").contains("2026-11-29");
        assertThat(states("daily")).containsOnlyKeys("2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29")
                .allSatisfy((k, s) -> assertThat(s).as(k).isEqualTo("DONE"));
        assertThat(site.allEffects()).containsOnlyKeys("2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29")
                .allSatisfy((k, n) -> assertThat(n).isEqualTo(1));
        assertThat(states("broken")).containsEntry("2026-11-28", "FAILED");
        assertThat(states("paused")).containsEntry("2026-11-28", "PENDING");
        assertThat(wb.jobs.resolve("paused.log")).doesNotExist();
        assertThat(Files.readString(wb.jobs.resolve("attention.log"))).isEqualTo("broken 2026-11-28 FAILED\n");

        // a second worker finds nothing to do
        Result again = wb.cli("worker", "--until-idle");
        assertThat(again.out()).as(again.toString()).contains("stopped: ran 0 keys");
    }

    @Test
    void sigtermFinishesTheRunningStepAndLeavesTheKeyToTheNextWorker() throws Exception {
        wb.clock.followSystemClock();
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        // first takes a while; the worker is stopped in the middle of it; second must not start
        wb.job("slow", """
            { "name": "slow", "schedule": "0 * * * *", "key": { "type": "date", "zone": "UTC", "start": "%s" },
              "steps": [
                { "id": "first", "kind": "command", "effect": "none", "timeout": "PT60S",
                  "command": ["sh", "-c", "echo started >> first.log; sleep 2; echo done >> first.log"] },
                { "id": "second", "kind": "command", "effect": "none", "command": ["sh", "-c", "echo ran >> second.log"] }
              ] }
            """.formatted(today), null);
        Path log = tmp.resolve("worker.log");
        Process worker = ChildProcess.start(wb, log, "worker", "--tick", "PT1S");
        Path first = wb.jobs.resolve("first.log");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(Files.exists(first) && Files.readString(first).contains("started")) && System.nanoTime() < deadline) {
            assertThat(worker.isAlive()).as(Files.readString(log)).isTrue();
            Thread.sleep(50);
        }
        assertThat(Files.readString(first)).contains("started");
        worker.destroy(); // SIGTERM
        assertThat(worker.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = Files.readString(log);
        assertThat(worker.exitValue()).as("a stop in order: " + out).isZero();
        assertThat(Files.readString(first)).as("the step ran to its end").isEqualTo("started\ndone\n");
        assertThat(wb.jobs.resolve("second.log")).as("nothing new started").doesNotExist();
        assertThat(out).contains("is stopping (SIGTERM)").contains("stopped: ran 1 key");
        assertThat(states("slow")).containsEntry(today, "PENDING");
        List<String> types = new ArrayList<>();
        for (JsonNode e : Json.read(wb.cli("timeline", "slow", today, "--json").out(), JsonNode.class)) {
            types.add(e.get("type").asText() + (e.path("step").isNull() ? "" : " " + e.get("step").asText()));
        }
        // a none step has no "started" commit of its own (docs/durability.md): the claim, then its success
        assertThat(types).containsSubsequence("CLAIMED", "STEP_SUCCEEDED first", "YIELDED second");

        // the next worker finishes the key without doing the first step again
        Result next = wb.cli("worker", "--until-idle");
        assertThat(next.exit()).as(next.toString()).isZero();
        assertThat(states("slow")).containsEntry(today, "DONE");
        assertThat(Files.readString(first)).isEqualTo("started\ndone\n");
        assertThat(Files.readString(wb.jobs.resolve("second.log"))).isEqualTo("ran\n");
    }

    @Test
    void aWorkerOnASharedStateNeedsTheMasterKeyGiven() throws Exception {
        wb.usePostgres();
        wb.env().remove("KEYLINE_MASTER_KEY");
        wb.job("tick", Jobs.command("tick", "none", "true", "PT10S"), null);
        Result r = wb.cli("worker", "--until-idle");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("is shared (PostgreSQL)").contains("KEYLINE_MASTER_KEY")
                .contains("--master-key-file").doesNotContain("Exception");
        assertThat(wb.root.resolve("xdg").resolve("keyline").resolve("secret.key")).doesNotExist();
        // with the key in a file (what systemd units point at), it starts
        Path key = tmp.resolve("master.key");
        Files.writeString(key, io.keyline.testing.Workbench.TEST_MASTER_KEY + "\n");
        Files.setPosixFilePermissions(key, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Result ok = wb.cli("--master-key-file", key.toString(), "worker", "--until-idle");
        assertThat(ok.exit()).as(ok.toString()).isZero();
        assertThat(ok.out()).contains("master key").contains("is the state's");
    }

    @Test
    void workersOnAPostgresStateShareTheKeysAndTakeOverFromAKilledOne() throws Exception {
        wb.usePostgres();
        wb.clock.followSystemClock();
        site.postDelayMillis(60);
        wb.job("pub", Jobs.publish("pub", "unsafe", true, null), site.base());
        // reviewed, as an operator does before a job's first unattended run
        assertThat(wb.cli("approve", "pub").exit()).isZero();
        List<String> keys = new ArrayList<>();
        for (LocalDate d = LocalDate.parse("2026-09-01"); keys.size() < 40; d = d.plusDays(1)) {
            keys.add(d.toString());
        }
        wb.seed("pub", keys);
        List<Process> workers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            workers.add(ChildProcess.start(wb, tmp.resolve("w" + i + ".log"), "worker", "--until-idle"));
        }
        // kill one as soon as the site saw some of its work
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (site.posts() < 8 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        workers.get(0).destroyForcibly();
        workers.get(0).waitFor(30, TimeUnit.SECONDS);
        // and start it again, as systemd would
        workers.set(0, ChildProcess.start(wb, tmp.resolve("w0-again.log"), "worker", "--until-idle"));
        StringBuilder logs = new StringBuilder();
        for (int i = 0; i < workers.size(); i++) {
            assertThat(workers.get(i).waitFor(180, TimeUnit.SECONDS)).isTrue();
        }
        for (Path p : Files.list(tmp).filter(p -> p.getFileName().toString().endsWith(".log")).toList()) {
            logs.append("--- ").append(p.getFileName()).append('\n').append(Files.readString(p));
        }
        // what the killed worker left RUNNING is taken over by a later run (its lock is gone)
        Result sweep = wb.cli("worker", "--until-idle");
        assertThat(sweep.exit()).as(sweep.toString()).isZero();
        Map<String, String> states = states("pub");
        assertThat(states.keySet()).containsExactlyElementsOf(keys);
        for (var e : states.entrySet()) {
            if (!e.getValue().equals("DONE")) {
                // the key the killed worker was sending: its outcome is unknown, the probe or a person decides
                assertThat(e.getValue()).as(e.getKey() + "\n" + logs).isEqualTo("NEEDS_CONFIRMATION");
            }
        }
        assertThat(states.values().stream().filter("DONE"::equals).count()).as(logs.toString()).isGreaterThanOrEqualTo(39);
        assertThat(site.allEffects()).as(logs.toString()).allSatisfy((k, n) -> assertThat(n).as(k).isEqualTo(1));
        assertThat(logs.toString()).contains("claim conflicts 0");
        // every worker that finished says how many it ran; together they ran every key (the killed one's too)
        assertThat(logs.toString()).containsPattern("stopped: ran [1-9][0-9]* key");
    }

    @Test
    void theSameWorkerTestsHoldOnAPostgresState() throws Exception {
        wb.usePostgres();
        aWorkerRunsTheDueKeysOfEveryJobAndNotifies();
    }
}
