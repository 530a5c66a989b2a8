package io.keyline.acceptance;

import io.keyline.core.RunTrace;
import io.keyline.core.Scheduler;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import io.keyline.workspace.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A job's first unattended unsafe run is reviewed: a new job's keys wait as "new job: review its plan" under
 * {@code run --due}, the scheduler and a worker (nothing is sent, a person is notified) until the operator applies a
 * plan of it or approves it; an edit of an unsafe step asks again; safe-only jobs run as before. A run typed by a
 * person of several keys that send unsafe steps asks on a terminal and needs {@code --yes} without one.
 */
class ReviewTest {

    /** Daily at 08:00 UTC from 2026-11-27: on the workbench's 2026-11-29 09:00 three keys are due. */
    static String job(String name, String sent, String description) {
        return """
            { "name": "NAME", "description": "DESC",
              "key": { "type": "date", "zone": "UTC", "start": "2026-11-27" },
              "schedule": "0 8 * * *",
              "steps": [
                { "id": "write", "kind": "command", "effect": "none", "command": ["true"] },
                { "id": "publish", "kind": "command", "effect": "unsafe",
                  "command": ["sh", "-c", "echo \\"SENT $KEYLINE_KEY\\" >> sent.txt"] } ] }
            """.replace("NAME", name).replace("SENT", sent).replace("DESC", description);
    }

    static final String SAFE = """
        { "name": "report", "key": { "type": "date", "zone": "UTC", "start": "2026-11-28" },
          "schedule": "0 8 * * *",
          "steps": [ { "id": "build", "kind": "command", "effect": "none",
                       "command": ["sh", "-c", "echo \\"$KEYLINE_KEY\\" >> built.txt"] } ] }
        """;

    static List<String> lines(Path f) throws Exception {
        return Files.exists(f) ? Files.readAllLines(f) : List.of();
    }

    @Test
    void aNewJobWaitsForReviewUnderRunDueAndRunsAfterApproveAndAnEditAsksAgain(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("daily", job("daily", "posted", "the daily post"), null);
        wb.job("report", SAFE, null);
        Files.writeString(wb.jobs.resolve("notify.json"),
                "{\"hooks\": [{\"on\": [\"attention\"], \"command\": [\"sh\", \"-c\", \"cat >> notified.txt\"]}]}");
        Path sent = wb.jobs.resolve("sent.txt");

        Result due = wb.cli("run", "--due");
        assertThat(lines(sent)).as("a new job's unsafe step ran unreviewed").isEmpty();
        assertThat(due.exit()).as(due.toString()).isEqualTo(4);
        // the safe-only job is not held back
        assertThat(lines(wb.jobs.resolve("built.txt"))).containsExactly("2026-11-28", "2026-11-29");
        Result waiting = wb.cli("status", "--attention");
        assertThat(waiting.out()).contains("2026-11-27", "2026-11-28", "2026-11-29", "NEEDS_CONFIRMATION",
                "new job: review its plan");
        // in Chinese the wait reads in Chinese, the stored English stays for machine output
        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            Result zh = wb.cli("status", "--attention");
            assertThat(zh.out()).as(zh.toString()).contains("新作业：请审核它的计划；在此之前，任何运行都不会为这个任务项发送 publish")
                    .doesNotContain("review its plan");
            assertThat(wb.cli("status", "--attention", "--json").out()).contains("new job: review its plan");
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
        // a person is told, through notify.json's attention hooks
        assertThat(Files.readString(wb.jobs.resolve("notified.txt"))).contains("review its plan", "daily");
        // nothing else runs them: another --due passes them by, a confirmation of one key is refused
        wb.cli("run", "--due");
        Result confirm = wb.cli("confirm", "daily", "2026-11-29");
        assertThat(confirm.exit()).as(confirm.toString()).isEqualTo(1);
        assertThat(confirm.err()).contains("keyline approve daily");
        assertThat(lines(sent)).isEmpty();

        Result approve = wb.cli("approve", "daily", "--note", "read the script");
        assertThat(approve.exit()).as(approve.toString()).isZero();
        assertThat(approve.out()).contains("publish: command sh -c", "3 keys waited");
        Result after = wb.cli("run", "--due");
        assertThat(after.exit()).as(after.toString()).isZero();
        assertThat(lines(sent)).containsExactly("posted 2026-11-27", "posted 2026-11-28", "posted 2026-11-29");
        assertThat(wb.cli("timeline", "daily", "2026-11-29").out()).contains("read the script");

        // the next day, after an edit of the unsafe step's command: it waits for a review again
        wb.job("daily", job("daily", "reposted", "the daily post"), null);
        wb.clock.advance(Duration.ofDays(1));
        Result edited = wb.cli("run", "--due");
        assertThat(edited.exit()).as(edited.toString()).isEqualTo(4);
        assertThat(lines(sent)).hasSize(3);
        assertThat(wb.cli("status", "daily").out()).contains("2026-11-30", "changed since its review");
        assertThat(wb.cli("approve", "daily").exit()).isZero();
        assertThat(wb.cli("run", "--due").exit()).isZero();
        assertThat(lines(sent)).last().isEqualTo("reposted 2026-11-30");

        // an edit of what the review does not cover (the description) asks nothing
        wb.job("daily", job("daily", "reposted", "the daily post, reworded"), null);
        wb.clock.advance(Duration.ofDays(1));
        Result reworded = wb.cli("run", "--due");
        assertThat(reworded.exit()).as(reworded.toString()).isZero();
        assertThat(lines(sent)).last().isEqualTo("reposted 2026-12-01");
    }

    @Test
    void theSchedulerAndAWorkerLeaveANewJobToItsReviewAndRunItAfterwards(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("daily", job("daily", "posted", "d"), null);
        Path sent = wb.jobs.resolve("sent.txt");
        assertThat(wb.cli("jobs").exit()).isZero(); // the state exists

        // the console's scheduler
        try (Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env())) {
            Scheduler scheduler = ws.scheduler(ws.engine(RunTrace.NONE), Duration.ofDays(7));
            scheduler.tick();
            scheduler.tick();
        }
        assertThat(lines(sent)).as("the scheduler sent a new job's unsafe step").isEmpty();
        assertThat(wb.cli("status", "daily").out()).contains("new job: review its plan");

        // a worker, on another new job
        wb.job("weekly", job("weekly", "weekly", "w"), null);
        Result worker = wb.cli("worker", "--until-idle", "--tick", "PT0.1S");
        assertThat(worker.exit()).as(worker.toString()).isZero();
        assertThat(lines(sent)).as("a worker sent a new job's unsafe step").isEmpty();
        assertThat(wb.cli("status", "weekly").out()).contains("2026-11-29", "new job: review its plan");

        assertThat(wb.cli("approve", "daily").exit()).isZero();
        assertThat(wb.cli("approve", "weekly").exit()).isZero();
        Result again = wb.cli("worker", "--until-idle", "--tick", "PT0.1S");
        assertThat(again.exit()).as(again.toString()).isZero();
        assertThat(lines(sent)).containsExactlyInAnyOrder("posted 2026-11-27", "posted 2026-11-28",
                "posted 2026-11-29", "weekly 2026-11-27", "weekly 2026-11-28", "weekly 2026-11-29");
    }

    @Test
    void applyingAPlanReviewsTheJob(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("daily", job("daily", "posted", "d"), null);
        Path sent = wb.jobs.resolve("sent.txt");
        assertThat(wb.cli("run", "--due").exit()).isEqualTo(4);

        Result plan = wb.cli("plan", "daily", "--due");
        assertThat(plan.out()).contains("new job: review its plan", "publish: command sh -c", "run write,publish");
        String id = plan.out().replaceAll("(?s).*keyline apply ([0-9a-f]{16}).*", "$1");
        Result apply = wb.cli("apply", id);
        assertThat(apply.exit()).as(apply.toString()).isZero();
        assertThat(lines(sent)).hasSize(3);

        wb.clock.advance(Duration.ofDays(1));
        assertThat(wb.cli("run", "--due").exit()).isZero();
        assertThat(lines(sent)).hasSize(4);
    }

    /**
     * A plan of one key is applied: it reviews the job, so the job's other keys that waited for the review go back to
     * PENDING, and the unattended runs send them from now on. The operator is told, as approve tells it.
     */
    @Test
    void applyingAPlanOfOneKeySaysWhichOtherKeysItReleased(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("daily", job("daily", "posted", "d"), null);
        Path sent = wb.jobs.resolve("sent.txt");
        assertThat(wb.cli("run", "--due").exit()).isEqualTo(4);

        Result plan = wb.cli("plan", "daily", "--key", "2026-11-29");
        String id = plan.out().replaceAll("(?s).*keyline apply ([0-9a-f]{16}).*", "$1");
        Result apply = wb.cli("apply", id);
        assertThat(apply.exit()).as(apply.toString()).isZero();
        assertThat(lines(sent)).containsExactly("posted 2026-11-29");
        assertThat(wb.cli("status", "daily").out()).contains("2026-11-27", "2026-11-28", "PENDING");
        assertThat(apply.out()).as(apply.toString()).contains("Applying the plan reviewed daily: 2 other keys waited "
                + "for the review and go back to PENDING: 2026-11-27, 2026-11-28. The next run takes them (keyline "
                + "run --due, the scheduler, workers).");
        assertThat(apply.out().indexOf("Applying the plan reviewed")).as("said before the exit code's line, which "
                + "ends the output").isLessThan(apply.out().indexOf("\nexit 0 ("));

        // what it said is what happens
        assertThat(wb.cli("run", "--due").exit()).isZero();
        assertThat(lines(sent)).containsExactly("posted 2026-11-29", "posted 2026-11-27", "posted 2026-11-28");

        // the review's event names the plan in the language of whoever reads it: no English note in a Chinese timeline
        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            Result timeline = wb.cli("timeline", "daily", "2026-11-27");
            assertThat(timeline.out()).as(timeline.toString()).contains(id).doesNotContain("applied plan");
            assertThat(timeline.out()).contains("应用计划 " + id);
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
        assertThat(wb.cli("timeline", "daily", "2026-11-27").out()).contains("applying plan " + id);
    }

    @Test
    void aTypedRunOfSeveralUnsafeKeysNeedsYesWithoutATerminal(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("daily", job("daily", "posted", "d"), null);
        Path sent = wb.jobs.resolve("sent.txt");

        Result refused = wb.cli("run", "daily", "--from", "2026-11-27", "--to", "2026-11-29");
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err()).contains("3 keys of daily", "publish", "--yes", "Nothing ran");
        assertThat(lines(sent)).isEmpty();

        // one key is typed and run, as before
        assertThat(wb.cli("run", "daily", "--key", "2026-11-27").exit()).isZero();
        Result yes = wb.cli("run", "daily", "--from", "2026-11-27", "--to", "2026-11-29", "--yes");
        assertThat(yes.exit()).as(yes.toString()).isZero();
        assertThat(lines(sent)).containsExactly("posted 2026-11-27", "posted 2026-11-28", "posted 2026-11-29");
        // keys that are done send nothing: no question
        assertThat(wb.cli("run", "daily", "--from", "2026-11-27", "--to", "2026-11-29").exit()).isZero();
    }

    @Test
    void onATerminalATypedRunOfSeveralUnsafeKeysShowsThePlanAndAsks(@TempDir Path tmp) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/script")), "script(1) gives the child a terminal");
        Workbench wb = new Workbench(tmp);
        wb.job("doc", """
            { "name": "doc", "key": { "type": "manual" },
              "steps": [ { "id": "send", "kind": "command", "effect": "unsafe",
                           "command": ["sh", "-c", "echo \\"$KEYLINE_KEY\\" >> sent.txt"] } ] }
            """, null);
        Path sent = wb.jobs.resolve("sent.txt");
        assertThat(wb.cli("jobs").exit()).isZero();

        String no = onTerminal(wb, "n\n", "run", "doc", "--key", "D-1", "--key", "D-2");
        assertThat(no).contains("Plan ", "D-1", "D-2", "run send", "Run these 2 keys, sending send? [y/N]",
                "Nothing ran");
        assertThat(lines(sent)).isEmpty();

        String yes = onTerminal(wb, "y\n", "run", "doc", "--key", "D-1", "--key", "D-2");
        assertThat(yes).contains("Run these 2 keys");
        assertThat(lines(sent)).containsExactly("D-1", "D-2");
        // what was shown and answered yes is reviewed: the plan of the job asks for nothing more
        assertThat(wb.cli("plan", "doc", "--key", "D-3").out()).doesNotContain("review its plan");
    }

    /** {@code keyline ARGS} in a child JVM on a terminal (script(1)) that is typed {@code input}; its output. */
    private static String onTerminal(Workbench wb, String input, String... args) throws Exception {
        List<String> java = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "io.keyline.app.Main", "--state", wb.state.toString(), "--jobs", wb.jobs.toString()));
        java.addAll(List.of(args));
        StringBuilder line = new StringBuilder();
        for (String a : java) {
            line.append('\'').append(a.replace("'", "'\\''")).append("' ");
        }
        Path typed = wb.root.resolve("typed.txt");
        Files.writeString(typed, input);
        ProcessBuilder pb = new ProcessBuilder("/usr/bin/script", "-qec", line.toString(), "/dev/null")
                .redirectErrorStream(true).redirectInput(typed.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("KEYLINE_"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    static File none() {
        return new File("/dev/null");
    }
}
