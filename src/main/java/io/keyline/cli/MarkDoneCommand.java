package io.keyline.cli;

import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRules;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

@Command(name = "mark-done", description = "Records that a key's work already happened (you checked): the key becomes DONE "
        + "and is never executed again.")
final class MarkDoneCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "JOB")
    String jobName;

    @Parameters(index = "1", paramLabel = "KEY")
    String key;

    @Option(names = "--note", paramLabel = "T", required = true, description = "What you checked (required).")
    String note;

    @Override
    public Integer call() {
        JobDefinition job = job(jobName);
        String k = KeyRules.normalize(job.key(), key);
        ws().operations().actions().markDone(job, k, note);
        out().println(job.name() + " " + k + " marked DONE");
        return 0;
    }
}
