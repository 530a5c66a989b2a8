package io.keyline.cli;

import io.keyline.core.jobfile.JobCatalog;
import io.keyline.core.jobfile.JobFileError;
import io.keyline.core.operations.Overview;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyState;
import picocli.CommandLine.Command;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "jobs")
final class JobsCommand extends Sub implements Callable<Integer> {

    @Override
    public Integer call() {
        JobCatalog catalog = ws().catalog();
        List<Overview.Job> jobs = ws().operations().overview(catalog.jobs()).jobs();
        Instant now = ws().options().clock().instant();
        Text.Table t = new Text.Table(t("cli.jobs.col.job"), t("cli.jobs.col.key"), t("cli.jobs.col.schedule"),
                t("cli.jobs.col.paused"), t("cli.jobs.col.done"), t("cli.jobs.col.attention"), t("cli.jobs.col.waiting"),
                t("cli.jobs.col.description"));
        for (Overview.Job o : jobs) {
            JobDefinition j = o.def();
            t.row(j.name(), j.key().type().jsonName() + " " + j.key().zone(),
                    j.schedule() == null ? "-" : j.schedule().text(),
                    o.paused(now) ? t("cli.jobs.pausedBecause", Text.clip(o.control().reason(), 40)) : t("cli.jobs.notPaused"),
                    o.count(KeyState.DONE), o.attention(), o.waiting(), Text.clip(j.description(), 60));
        }
        java.time.Duration warn = CredentialsCommand.warnWindow(root().env());
        java.util.List<String> warnings = CredentialsCommand.warnings(ws().credentials(), now, warn);
        doneReading();
        if (t.size() == 0) {
            out().println(t(catalog.errors().isEmpty() ? "cli.jobs.noneAddOne" : "cli.jobs.noneValid",
                    String.valueOf(ws().jobsDir())));
        } else {
            t.print(out());
        }
        for (String w : warnings) {
            out().println("! " + w);
        }
        if (!catalog.warnings().isEmpty()) {
            out().println();
            out().println(t("cli.jobs.warnings"));
            for (JobFileError e : catalog.warnings()) {
                out().println("  " + io.keyline.domain.Printable.line(e.toString()));
            }
        }
        if (!catalog.errors().isEmpty()) {
            out().println();
            out().println(t("cli.jobs.invalid"));
            for (JobFileError e : catalog.errors()) {
                out().println("  " + io.keyline.domain.Printable.line(e.toString()));
            }
        }
        // nothing to run is a failure a script must see (exit 1), whatever the reason
        return catalog.jobs().isEmpty() ? 1 : 0;
    }
}
