package io.keyline.cli;

import io.keyline.domain.JobDefinition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "resume")
final class ResumeCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "JOB")
    String jobName;

    @Override
    public Integer call() {
        JobDefinition job = job(jobName);
        ws().operations().actions().resume(job.name());
        out().println(t("cli.resume.done", job.name()));
        return 0;
    }
}
