package io.keyline.cli;

import io.keyline.domain.JobDefinition;
import picocli.CommandLine.Command;


import static io.keyline.text.Text.t;

@Command(name = "resume")
final class ResumeCommand extends JobCommand {

    @Override
    int call(JobDefinition job) {
        ws().operations().actions().resume(job.name());
        return done(t("cli.resume.done", job.name()));
    }
}
