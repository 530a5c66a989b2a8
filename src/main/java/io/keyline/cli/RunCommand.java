package io.keyline.cli;

import io.keyline.domain.JobDefinition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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

    @Option(names = "--yes", description = "Run several keys that send unsafe steps without asking. On a terminal, "
            + "such a run shows its plan and asks y/N first; without one it needs --yes.")
    boolean yes;

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
            Integer refused = RunConsent.ask(this, job, keys, selection.notes(), selection.ahead, yes);
            if (refused != null) {
                return refused;
            }
        }
        // with --due nobody watches: a job whose unsafe steps wait for a review runs none of them
        return runReported(s -> s.engine.run(job, keys, selection.due ? io.keyline.core.RunRequest.due(selection.ahead)
                : io.keyline.core.RunRequest.plain(selection.ahead, selection.describe())));
    }

    private int runAllDue() {
        java.time.Duration window = selection.window(ws());
        io.keyline.core.operations.RunDue.Result result;
        try (RunSession session = new RunSession(this)) {
            result = ws().operations().runDue().run(ws().catalog().jobs(), session.engine, window, selection.ahead,
                    out()::println);
            notifyAfter(result.reports(), session.trace);
        }
        for (var e : ws().catalog().errors()) {
            err().println("skipped invalid job file: " + e);
        }
        result.listing().forEach(err()::println);
        int exit = result.exitCode();
        if (result.nothingDue()) {
            out().println("Nothing is due.");
        }
        RunOutput.summary(out(), result.reports(), exit, ws().credentials());
        return exit;
    }
}
