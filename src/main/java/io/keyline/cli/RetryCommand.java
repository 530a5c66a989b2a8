package io.keyline.cli;

import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRules;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

@Command(name = "retry", description = "Re-arms a FAILED (or SKIPPED) key with a fresh retry budget; the next run picks "
        + "it up, or --run runs it now (as the console's Retry does; exit codes as for run).")
final class RetryCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "JOB")
    String jobName;

    @Parameters(index = "1", paramLabel = "KEY")
    String key;

    @Option(names = "--note", paramLabel = "T", description = "Why (kept in the key's timeline).")
    String note;

    @Option(names = "--run", description = "Run the key right after re-arming it.")
    boolean run;

    @Override
    public Integer call() {
        JobDefinition job = job(jobName);
        String k = KeyRules.normalize(job.key(), key);
        if (run) {
            try (RunSession s = new RunSession(this)) {
                io.keyline.core.RunTrace trace = s.trace;
                io.keyline.core.operations.KeyActions.Outcome o = ws().operations().keyActions().retryAndRun(job, k, note,
                        s.engine);
                int exit = o.report().exitCode();
                RunOutput.summary(out(), java.util.List.of(o.report()), exit, ws().credentials());
                notifyAfter(java.util.List.of(o.report()), trace);
                return exit;
            }
        }
        ws().operations().actions().retry(job, k, note);
        out().println(job.name() + " " + k + " re-armed (PENDING); run it with: keyline run " + job.name() + " --key " + k
                + " (or retry --run)");
        return 0;
    }
}
