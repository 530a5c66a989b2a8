package io.keyline.cli;

import io.keyline.core.Engine;
import io.keyline.core.RunReport;
import io.keyline.core.RunTrace;
import io.keyline.core.Targets;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "run", description = {
    "Executes a job's keys: today's key by default, or --key/--from/--to/--due.",
    "'run --due' without a job runs every due key of every job that is not paused."})
final class RunCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", arity = "0..1", paramLabel = "JOB")
    String jobName;

    @Mixin
    KeySelection selection;

    @Override
    public Integer call() {
        if (jobName == null) {
            if (!selection.due || !selection.keys.isEmpty() || selection.from != null || selection.to != null) {
                throw new UsageError("run needs a JOB (or 'run --due' for every job)");
            }
            return runAllDue();
        }
        JobDefinition job = job(jobName);
        List<String> keys = selection.resolve(ws(), job);
        if (!selection.due) {
            selection.refuseNotYetDue(ws(), job, keys);
        }
        try (RunTrace trace = ws().trace(out())) {
            RunReport report = ws().engine(trace).run(job, keys,
                    io.keyline.core.RunRequest.plain(selection.ahead, selection.describe()));
            int exit = report.exitCode();
            RunOutput.summary(out(), List.of(report), exit, ws().credentials());
            notifyAfter(List.of(report), trace);
            return exit;
        }
    }

    private int runAllDue() {
        Instant now = ws().options().clock().instant();
        java.time.Duration window = selection.window(ws());
        List<RunReport> reports = new ArrayList<>();
        List<KeyRecord> all = new ArrayList<>();
        try (RunTrace trace = ws().trace(out())) {
            Engine engine = ws().engine(trace);
            for (JobDefinition job : ws().catalog().jobs()) {
                if (ws().store().jobControl(job.name()).pausedAt(now)) {
                    out().println(job.name() + ": paused, passed by");
                    continue;
                }
                List<Targets.DueKey> due = Targets.dueKeys(job, ws().store(), now, window);
                if (due.isEmpty()) {
                    continue;
                }
                due.stream().filter(Targets.DueKey::catchUp)
                        .forEach(d -> out().println(job.name() + " " + d.key() + ": " + d.note()));
                List<String> keys = due.stream().map(Targets.DueKey::key).toList();
                RunReport r = engine.run(job, keys, io.keyline.core.RunRequest.plain(selection.ahead, "--due"));
                reports.add(r);
                all.addAll(r.keys());
            }
            notifyAfter(reports, trace);
        }
        for (var e : ws().catalog().errors()) {
            err().println("skipped invalid job file: " + e);
        }
        int exit = RunReport.exitCode(all, false);
        if (reports.isEmpty()) {
            out().println("Nothing is due.");
        }
        RunOutput.summary(out(), reports, exit, ws().credentials());
        return exit;
    }
}
