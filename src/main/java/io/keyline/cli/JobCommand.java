package io.keyline.cli;

import io.keyline.domain.JobDefinition;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

/**
 * A command on one job ({@code keyline COMMAND JOB …}): the job is looked up (or the usual error: unknown job,
 * invalid file) before the command acts on it.
 */
abstract class JobCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "JOB")
    String jobName;

    @Override
    public final Integer call() {
        return call(job(jobName));
    }

    /** Acts on the job and returns the exit code. */
    abstract int call(JobDefinition job);
}
