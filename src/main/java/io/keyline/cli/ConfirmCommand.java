package io.keyline.cli;

import io.keyline.core.RunReport;
import io.keyline.core.RunTrace;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRules;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "confirm", description = "Confirms the unsafe step a key waits on and runs it now. Exit codes as for run.")
final class ConfirmCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "JOB")
    String jobName;

    @Parameters(index = "1", paramLabel = "KEY")
    String key;

    @Option(names = "--note", paramLabel = "T", description = "Why (kept in the key's timeline).")
    String note;

    @Option(names = "--payload", paramLabel = "HASH",
            description = "Only confirm if the step would send this payload (hash shown by the console).")
    String payload;

    @Override
    public Integer call() {
        JobDefinition job = job(jobName);
        String k = KeyRules.normalize(job.key(), key);
        try (RunSession s = new RunSession(this)) {
            RunTrace trace = s.trace;
            RunReport report = ws().operations().confirmAndRun().confirmAndRun(job, k, note, payload, s.engine,
                    rec -> out().println("confirmed " + rec.confirmedStep() + " of " + job.name() + " " + k
                            + "; running it now")).report();
            int exit = report.exitCode();
            RunOutput.summary(out(), List.of(report), exit, ws().credentials());
            notifyAfter(List.of(report), trace);
            return exit;
        }
    }
}
