package io.keyline.cli;

import io.keyline.domain.JobDefinition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "run")
final class RunCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", arity = "0..1", paramLabel = "JOB")
    String jobName;

    @Mixin
    KeySelection selection;

    @picocli.CommandLine.Option(names = "--max-time", paramLabel = "DURATION")
    String maxTime;

    /** The budget of this run, or {@code null}. */
    private java.time.Duration maxTime() {
        if (maxTime == null) {
            return null;
        }
        java.time.Duration d;
        try {
            d = java.time.Duration.parse(maxTime);
        } catch (java.time.format.DateTimeParseException e) {
            throw new UsageError(t("cli.run.badMaxTime", "--max-time", io.keyline.domain.Printable.line(maxTime)));
        }
        if (d.isNegative() || d.isZero()) {
            throw new UsageError(t("cli.run.zeroMaxTime", "--max-time", maxTime));
        }
        return d;
    }

    @Option(names = "--yes")
    boolean yes;

    @Override
    public Integer call() {
        if (jobName == null) {
            if (!selection.due || !selection.keys.isEmpty() || selection.from != null || selection.to != null) {
                throw new UsageError(t("cli.run.needsJob"));
            }
            return runAllDue();
        }
        java.time.Duration budget = maxTime();
        JobDefinition job = job(jobName);
        List<String> keys = selection.resolve(ws(), job);
        warnOf(job);
        if (!selection.due) {
            selection.refuseNotYetDue(ws(), job, keys);
            Integer refused = RunConsent.ask(this, job, keys, selection.notes(), selection.ahead, yes);
            if (refused != null) {
                return refused;
            }
        }
        // with --due nobody watches: a job whose unsafe steps wait for a review runs none of them
        return runReported(s -> within(s, budget).run(job, keys, selection.due
                ? io.keyline.core.RunRequest.due(selection.ahead)
                : io.keyline.core.RunRequest.plain(selection.ahead, selection.describe())));
    }

    /** The session's engine, with the run's budget when one was given. */
    private static io.keyline.core.Engine within(RunSession s, java.time.Duration budget) {
        return budget == null ? s.engine : s.engine.maxTime(budget);
    }

    /** How many job files did not load (a file with several errors counts once). */
    private static int invalidFiles(List<io.keyline.core.jobfile.JobFileError> errors) {
        return (int) errors.stream().map(io.keyline.core.jobfile.JobFileError::file).distinct().count();
    }

    private int runAllDue() {
        java.time.Duration window = selection.window(ws());
        java.time.Duration budget = maxTime();
        io.keyline.core.operations.RunDue.Result result;
        List<io.keyline.core.jobfile.JobFileError> invalid = ws().catalog().errors();
        warnOf(ws().catalog().warnings());
        try (RunSession session = new RunSession(this)) {
            result = ws().operations().runDue().run(ws().catalog().jobs(), within(session, budget), window,
                    selection.ahead, out()::println);
            for (var e : invalid) {
                // in the run log too: a monitor that reads it sees the job that did not run
                session.trace.other(ws().options().clock().instant(), "job-file", java.util.Map.of("result",
                        "invalid", "file", e.file().toString(), "line", e.line(), "column", e.column(),
                        "message", e.message()));
            }
            notifyAfter(result.reports(), session.trace);
        }
        for (var e : invalid) {
            err().println(t("cli.run.invalidFile", e));
        }
        result.listing().forEach(l -> err().println(l.text()));
        int exit = result.exitCode(invalidFiles(invalid));
        if (result.nothingDue()) {
            out().println(t("cli.run.nothingDue"));
        }
        RunOutput.summary(out(), result.reports(), exit, ws().credentials(), RunOutput.invalidFiles(invalid));
        return exit;
    }
}
