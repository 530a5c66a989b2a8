package io.keyline.core;

import io.keyline.acceptance.Jobs;
import io.keyline.workspace.Workspace;
import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.domain.KeyState;
import io.keyline.testing.Workbench;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded scheduler under a clock the test moves: a due key is started once per tick of its
 * cron, missed ticks are caught up within the window (and not older ones), paused jobs and a paused
 * scheduler start nothing. The effect of every execution is a line in {@code jobs/runs.log}.
 */
class SchedulerTest {

    @TempDir
    Path tmp;
    Workbench wb;
    Workspace ws;
    Scheduler scheduler;

    @BeforeEach
    void setUp() throws IOException {
        wb = new Workbench(tmp);
        ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env());
        scheduler = ws.scheduler(ws.engine(RunTrace.NONE), Duration.ofDays(7));
    }

    @AfterEach
    void tearDown() {
        scheduler.close();
        ws.close();
    }

    /** Job {@code daily}: cron 09:00 UTC, date keys from {@code start}; each execution appends its key to runs.log. */
    private void dailyJob(String start) throws IOException {
        String json = Jobs.command("daily", "none", "echo {key} >> runs.log", "PT10S")
                .replace("\"start\": \"2026-01-01\" },", "\"start\": \"" + start + "\" },\n  \"schedule\": \"0 9 * * *\",");
        assertThat(json).contains("\"schedule\"");
        wb.job("daily", json, null);
    }

    private List<String> executions() throws IOException {
        Path log = wb.jobs.resolve("runs.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    @Test
    void firesTheDueKeyOnceAndTheNextKeyAfterTheNextCronTime() throws IOException {
        dailyJob("2026-11-29");
        wb.clock.set(Instant.parse("2026-11-29T08:59:30Z"));
        assertThat(scheduler.tick()).as("before 09:00 nothing is due").isEmpty();
        assertThat(scheduler.status().next().key()).isEqualTo("2026-11-29");

        wb.clock.set(Instant.parse("2026-11-29T09:00:10Z"));
        List<Scheduler.Started> first = scheduler.tick();
        assertThat(first).extracting(Scheduler.Started::key).containsExactly("2026-11-29");
        assertThat(first.get(0).state()).isEqualTo(KeyState.DONE);
        assertThat(first.get(0).catchUp()).isFalse();
        assertThat(scheduler.tick()).as("a second tick at the same time").isEmpty();
        wb.clock.advance(Duration.ofSeconds(30));
        assertThat(scheduler.tick()).as("a tick 30 s later").isEmpty();
        assertThat(executions()).containsExactly("2026-11-29");
        SchedulerControl.Status status = scheduler.status();
        assertThat(status.next().key()).isEqualTo("2026-11-30");
        assertThat(status.next().tick().toInstant()).isEqualTo(Instant.parse("2026-11-30T09:00:00Z"));
        assertThat(status.dueNow()).isEmpty();

        wb.clock.set(Instant.parse("2026-11-30T09:00:30Z"));
        assertThat(scheduler.tick()).extracting(Scheduler.Started::key).containsExactly("2026-11-30");
        assertThat(executions()).containsExactly("2026-11-29", "2026-11-30");
    }

    @Test
    void theNextTickNamesAKeyItWillStartNotOneThatWaitsForAPerson() throws IOException {
        // one unsafe step an operator confirms every time: a key that met it waits for a person
        String json = Jobs.command("daily", "unsafe", "echo {key} >> runs.log", "PT10S")
                .replace("\"start\": \"2026-01-01\" },", "\"start\": \"2026-11-29\" },\n  \"schedule\": \"0 9 * * *\",")
                .replace("\"timeout\": \"PT10S\"", "\"timeout\": \"PT10S\", \"confirm\": \"always\"");
        assertThat(json).contains("\"confirm\": \"always\"").contains("\"schedule\"");
        wb.job("daily", json, null);
        assertThat(wb.cli("approve", "daily").exit()).isZero();
        // today before its 09:00 tick: the operator ran today's key by hand and it waits for the confirmation
        wb.clock.set(Instant.parse("2026-11-29T08:00:00Z"));
        Workbench.Result run = wb.cli("run", "daily", "--key", "2026-11-29");
        assertThat(run.exit()).as(run.toString()).isEqualTo(4);
        assertThat(ws.store().key("daily", "2026-11-29")).get().extracting(r -> r.state())
                .isEqualTo(KeyState.NEEDS_CONFIRMATION);

        SchedulerControl.Status status = scheduler.status();
        assertThat(status.next()).as("today's 09:00 tick leaves the waiting key alone").isNotNull();
        assertThat(status.next().key()).isEqualTo("2026-11-30");
        assertThat(status.next().tick().toInstant()).isEqualTo(Instant.parse("2026-11-30T09:00:00Z"));

        wb.clock.set(Instant.parse("2026-11-29T09:00:10Z"));
        assertThat(scheduler.tick()).as("the tick it did not name starts nothing").isEmpty();
        assertThat(executions()).isEmpty();
    }

    /**
     * A job whose unsafe step was never reviewed: a tick takes its due key only to park it for the review, and
     * sends nothing. The status says no key is about to run and names no next tick until the job is reviewed.
     */
    @Test
    void keysThatATickOnlyParksForTheJobsReviewAreNeitherAboutToRunNorNext() throws IOException {
        String json = Jobs.command("daily", "unsafe", "echo {key} >> runs.log", "PT10S")
                .replace("\"start\": \"2026-01-01\" },", "\"start\": \"2026-11-29\" },\n  \"schedule\": \"0 9 * * *\",");
        wb.job("daily", json, null);
        wb.clock.set(Instant.parse("2026-11-29T09:00:10Z"));

        SchedulerControl.Status before = scheduler.status();
        assertThat(before.dueNow()).as("due, but the tick only parks it for the review").isEmpty();
        assertThat(before.next()).as("every coming tick parks its key for the review").isNull();
        assertThat(scheduler.tick()).extracting(Scheduler.Started::state).containsExactly(KeyState.NEEDS_CONFIRMATION);
        assertThat(executions()).isEmpty();

        assertThat(wb.cli("approve", "daily").exit()).isZero();
        SchedulerControl.Status after = scheduler.status();
        assertThat(after.dueNow()).extracting(SchedulerControl.Upcoming::key).containsExactly("2026-11-29");
        assertThat(after.next().key()).isEqualTo("2026-11-30");
    }

    /** Job {@code daily}: an unsafe step {@code send}, then a safe step {@code tidy} that fails once (exit 75) and is retried 10 minutes later. */
    private void sendThenTidy(String sent) throws IOException {
        wb.job("daily", """
            {
              "name": "daily",
              "key": { "type": "date", "zone": "UTC", "start": "2026-11-29" },
              "schedule": "0 9 * * *",
              "retry": { "maxAttempts": 3, "initialDelay": "PT10M", "multiplier": 2.0, "maxDelay": "PT1H",
                         "jitter": 0.0, "maxElapsed": "PT2H" },
              "steps": [
                { "id": "send", "kind": "command", "effect": "unsafe",
                  "command": ["sh", "-c", "echo %s {key} >> runs.log"], "timeout": "PT10S" },
                { "id": "tidy", "kind": "command", "effect": "none",
                  "command": ["sh", "-c", "if [ -f tidied ]; then echo tidy {key} >> runs.log; else touch tidied; exit 75; fi"],
                  "timeout": "PT10S" }
              ]
            }
            """.formatted(sent), null);
    }

    /**
     * A key whose unsafe step is done is not held by a review its job waits for again (its unsafe step was edited):
     * the next tick runs its safe step that is left, and the status counts it as about to run.
     */
    @Test
    void aKeyWhoseUnsafeStepIsDoneIsAboutToRunWhileItsJobWaitsForItsReview() throws IOException {
        sendThenTidy("send");
        assertThat(wb.cli("approve", "daily").exit()).isZero();
        wb.clock.set(Instant.parse("2026-11-29T09:00:10Z"));
        assertThat(scheduler.tick()).extracting(Scheduler.Started::state).containsExactly(KeyState.RETRY_WAIT);
        assertThat(executions()).containsExactly("send 2026-11-29");

        sendThenTidy("sent");
        wb.clock.advance(Duration.ofMinutes(11));
        assertThat(scheduler.status().dueNow()).as("its retry is due and only a safe step is left")
                .extracting(SchedulerControl.Upcoming::key).containsExactly("2026-11-29");

        assertThat(scheduler.tick()).extracting(Scheduler.Started::state).containsExactly(KeyState.DONE);
        assertThat(executions()).containsExactly("send 2026-11-29", "tidy 2026-11-29");
        assertThat(scheduler.status().dueNow()).isEmpty();
    }

    /** The same for the next tick: it names a key whose unsafe step is done, and not the keys the review holds. */
    @Test
    void theNextTickNamesAKeyWhoseUnsafeStepIsDoneWhileItsJobWaitsForItsReview() throws IOException {
        sendThenTidy("send");
        assertThat(wb.cli("approve", "daily").exit()).isZero();
        wb.clock.set(Instant.parse("2026-11-29T08:00:00Z"));
        Workbench.Result ahead = wb.cli("run", "daily", "--key", "2026-11-30", "--ahead");
        assertThat(ahead.exit()).as(ahead.toString()).isEqualTo(5);
        assertThat(executions()).containsExactly("send 2026-11-30");

        sendThenTidy("sent");
        SchedulerControl.Status status = scheduler.status();
        assertThat(status.dueNow()).isEmpty();
        assertThat(status.next()).as("today's tick only parks its key for the review; tomorrow's finishes its key")
                .isNotNull();
        assertThat(status.next().key()).isEqualTo("2026-11-30");
        assertThat(status.next().tick().toInstant()).isEqualTo(Instant.parse("2026-11-30T09:00:00Z"));

        wb.clock.set(Instant.parse("2026-11-29T09:00:10Z"));
        assertThat(scheduler.tick()).extracting(Scheduler.Started::state).containsExactly(KeyState.NEEDS_CONFIRMATION);
        wb.clock.set(Instant.parse("2026-11-30T09:00:10Z"));
        assertThat(scheduler.tick()).extracting(Scheduler.Started::key, Scheduler.Started::state)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("2026-11-30", KeyState.DONE));
        assertThat(executions()).containsExactly("send 2026-11-30", "tidy 2026-11-30");
    }

    @Test
    void catchesUpMissedKeysWithinTheWindowAndNotOlderOnes() throws IOException {
        dailyJob("2026-11-01");
        // Down since 2026-11-01; back on 2026-11-29 at 10:00: the window reaches back to 2026-11-22 10:00.
        wb.clock.set(Instant.parse("2026-11-29T10:00:00Z"));

        // The plan shows the catch-up keys before anything runs.
        Workbench.Result plan = wb.cli("plan", "daily", "--due");
        assertThat(plan.exit()).as(plan.toString()).isZero();
        assertThat(plan.out()).contains("2026-11-27   PENDING             run work (catch-up: missed tick 2026-11-27 09:00)")
                .doesNotContain("2026-11-22").doesNotContain("2026-11-29 09:00");
        assertThat(plan.out().lines().filter(l -> l.contains("(catch-up: missed tick")).count()).isEqualTo(6);
        assertThat(plan.out()).containsPattern("2026-11-29 +PENDING +run work\\n");
        assertThat(executions()).as("planning executes nothing").isEmpty();
        assertThat(scheduler.status().dueNow()).extracting(SchedulerControl.Upcoming::key)
                .containsExactly("2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28",
                        "2026-11-29");

        List<Scheduler.Started> started = scheduler.tick();
        assertThat(started).extracting(Scheduler.Started::key).containsExactly("2026-11-23", "2026-11-24",
                "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29");
        assertThat(started).filteredOn(Scheduler.Started::catchUp).hasSize(6);
        assertThat(started).allSatisfy(s -> assertThat(s.state()).isEqualTo(KeyState.DONE));
        assertThat(executions()).containsExactly("2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27",
                "2026-11-28", "2026-11-29");
        assertThat(ws.store().key("daily", "2026-11-22")).as("older than the window").isEmpty();
        assertThat(scheduler.tick()).isEmpty();

        // A narrower window from the command line: --catch-up P2D
        wb.clock.set(Instant.parse("2026-12-05T10:00:00Z"));
        Workbench.Result narrow = wb.cli("plan", "daily", "--due", "--catch-up", "P2D");
        assertThat(narrow.out()).contains("2026-12-04").contains("2026-12-05").doesNotContain("2026-12-03");
        assertThat(wb.cli("plan", "daily", "--due", "--catch-up", "soon").exit()).isEqualTo(64);
    }

    @Test
    void aPausedJobAndAPausedSchedulerStartNothing() throws IOException {
        dailyJob("2026-11-29");
        wb.clock.set(Instant.parse("2026-11-29T09:05:00Z"));
        assertThat(wb.cli("pause", "daily", "--reason", "site migration").exit()).isZero();
        assertThat(scheduler.tick()).isEmpty();
        assertThat(scheduler.status().dueNow()).isEmpty();
        assertThat(scheduler.status().next()).as("a paused job has no next tick").isNull();
        assertThat(executions()).isEmpty();
        assertThat(ws.store().key("daily", "2026-11-29")).as("not even a record").isEmpty();

        assertThat(wb.cli("resume", "daily").exit()).isZero();
        scheduler.disable();
        assertThat(scheduler.status().mode()).isEqualTo(SchedulerControl.Mode.PAUSED);
        assertThat(scheduler.status().dueNow()).extracting(SchedulerControl.Upcoming::key).containsExactly("2026-11-29");
        assertThat(scheduler.tick()).isEmpty();
        assertThat(executions()).isEmpty();

        scheduler.enable();
        assertThat(scheduler.tick()).extracting(Scheduler.Started::key).containsExactly("2026-11-29");
        assertThat(executions()).containsExactly("2026-11-29");
    }

    @Test
    void theRealTimeDriverTicksOnADaemonThreadAndStopsOnClose() throws Exception {
        dailyJob("2026-11-29");
        wb.clock.set(Instant.parse("2026-11-29T09:01:00Z"));
        scheduler.start(Duration.ofMillis(10), Duration.ofMillis(50));
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (executions().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        scheduler.close();
        assertThat(executions()).containsExactly("2026-11-29");
        assertThat(scheduler.status().mode()).isEqualTo(SchedulerControl.Mode.OFF);
        assertThat(Thread.getAllStackTraces().keySet()).filteredOn(t -> t.getName().equals("keyline-scheduler"))
                .allSatisfy(t -> assertThat(t.isAlive()).isFalse());
    }

    @Test
    void catchUpKeysRunUpToTheJobsConcurrencyAndNeverMore() throws IOException {
        // each execution waits (at most 5 s) until three are in flight, then writes how many are
        String script = "mkdir -p inflight; touch inflight/$KEYLINE_KEY; i=0; "
                + "while [ $(ls inflight | wc -l) -lt 3 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done; "
                + "ls inflight | wc -l >> counts; sleep 0.2; rm inflight/$KEYLINE_KEY; echo $KEYLINE_KEY >> runs.log";
        String json = Jobs.command("wide", "none", script, "PT30S")
                .replace("\"start\": \"2026-01-01\" },", "\"start\": \"2026-11-24\" },\n  \"schedule\": \"0 9 * * *\","
                        + " \"concurrency\": 3,");
        wb.job("wide", json, null);
        wb.clock.set(Instant.parse("2026-11-29T09:00:10Z"));

        List<Scheduler.Started> started = scheduler.tick();

        assertThat(started).extracting(Scheduler.Started::key).containsExactly("2026-11-24", "2026-11-25", "2026-11-26",
                "2026-11-27", "2026-11-28", "2026-11-29");
        assertThat(started).allSatisfy(st -> assertThat(st.state()).isEqualTo(KeyState.DONE));
        List<Integer> counts = Files.readAllLines(wb.jobs.resolve("counts")).stream().map(String::strip)
                .map(Integer::valueOf).toList();
        assertThat(counts).hasSize(6).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(3)).contains(3);
        assertThat(executions()).hasSize(6);
    }
}
