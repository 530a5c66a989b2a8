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

@Command(name = "jobs", description = {"Lists the jobs: key type, schedule, paused, keys by state; and invalid job files "
        + "with their errors.", "Exit 0 when at least one job file is valid, 1 when none is (each error is listed)."})
final class JobsCommand extends Sub implements Callable<Integer> {

    @Override
    public Integer call() {
        JobCatalog catalog = ws().catalog();
        List<Overview.Job> jobs = ws().operations().overview(catalog.jobs()).jobs();
        Instant now = ws().options().clock().instant();
        Text.Table t = new Text.Table("JOB", "KEY", "SCHEDULE", "PAUSED", "DONE", "ATTENTION", "WAITING", "DESCRIPTION");
        for (Overview.Job o : jobs) {
            JobDefinition j = o.def();
            t.row(j.name(), j.key().type().jsonName() + " " + j.key().zone(),
                    j.schedule() == null ? "-" : j.schedule().text(),
                    o.paused(now) ? "yes: " + Text.clip(o.control().reason(), 40) : "no",
                    o.count(KeyState.DONE), o.attention(), o.waiting(), Text.clip(j.description(), 60));
        }
        java.time.Duration warn = CredentialsCommand.warnWindow(root().env());
        java.util.List<String> warnings = CredentialsCommand.warnings(ws().credentials(), now, warn);
        doneReading();
        if (t.size() == 0) {
            out().println("No valid jobs in " + ws().jobsDir() + (catalog.errors().isEmpty()
                    ? ": add a job file (*.json; the fields are in docs/job-files.md)"
                    : ": every job file there is invalid (errors below)"));
        } else {
            t.print(out());
        }
        for (String w : warnings) {
            out().println("! " + w);
        }
        if (!catalog.errors().isEmpty()) {
            out().println();
            out().println("Invalid job files (not loaded):");
            for (JobFileError e : catalog.errors()) {
                out().println("  " + io.keyline.domain.Printable.line(e.toString()));
            }
        }
        // nothing to run is a failure a script must see (exit 1), whatever the reason
        return catalog.jobs().isEmpty() ? 1 : 0;
    }
}
