package io.keyline.cli;

import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRules;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

@Command(name = "skip", description = "Skips a key: it will not run (re-arm it later with 'retry').")
final class SkipCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "JOB")
    String jobName;

    @Parameters(index = "1", paramLabel = "KEY")
    String key;

    @Option(names = "--note", paramLabel = "T", required = true, description = "Why (required).")
    String note;

    @Override
    public Integer call() {
        JobDefinition job = job(jobName);
        String k = KeyRules.normalize(job.key(), key);
        ws().operations().actions().skip(job, k, note);
        out().println(job.name() + " " + k + " SKIPPED");
        return 0;
    }
}
