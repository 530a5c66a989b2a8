package io.keyline.cli;

import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRules;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

@Command(name = "rearm", description = {
    "Re-arms a DONE key: its steps (all, or from --from-step on) run again at the next run. Audited with "
        + "your user name and note. An unsafe step still goes through its probe: an effect that exists is "
        + "recorded, not made twice."})
final class RearmCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "JOB")
    String jobName;

    @Parameters(index = "1", paramLabel = "KEY")
    String key;

    @Option(names = "--note", paramLabel = "T", required = true, description = "Why (required; kept in the timeline).")
    String note;

    @Option(names = "--from-step", paramLabel = "S", description = "The first step to run again (default: all steps).")
    String fromStep;

    @Override
    public Integer call() {
        JobDefinition job = job(jobName);
        String k = KeyRules.normalize(job.key(), key);
        ws().operations().keyActions().rearm(job, k, note, fromStep);
        out().println(job.name() + " " + k + " " + io.keyline.core.operations.KeyActions.rearmed(fromStep)
                + ". See what a run would do: keyline plan " + job.name() + " --key " + k);
        return 0;
    }
}
