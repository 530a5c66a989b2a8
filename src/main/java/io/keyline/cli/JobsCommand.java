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
        // what the last status read, when the state has not changed since (ReadSnapshot): no H2 to open
        io.keyline.store.ReadSnapshot.Data copy = ws().readCopy();
        List<Overview.Job> jobs;
        if (copy != null) {
            io.keyline.core.StartupTrace.mark("jobs counted from the copy of the last status");
            jobs = catalog.jobs().stream().map(j -> new Overview.Job(j, copy.countsByState(j.name()),
                    copy.jobControl(j.name()))).toList();
        } else {
            jobs = ws().operations().overview(catalog.jobs()).jobs();
        }
        Instant now = ws().options().clock().instant();
        Text.Table t = new Text.Table("JOB", "KEY", "SCHEDULE", "PAUSED", "DONE", "ATTENTION", "WAITING", "DESCRIPTION");
        for (Overview.Job o : jobs) {
            JobDefinition j = o.def();
            t.row(j.name(), j.key().type().jsonName() + " " + j.key().zone(),
                    j.schedule() == null ? "-" : j.schedule().text(),
                    o.paused(now) ? "yes: " + Text.clip(o.control().reason(), 40) : "no",
                    o.count(KeyState.DONE), o.attention(), o.waiting(), Text.clip(j.description(), 60));
        }
        if (t.size() == 0) {
            out().println("No valid jobs in " + ws().jobsDir() + (catalog.errors().isEmpty()
                    ? ": add a job file (*.json; the fields are in docs/job-files.md)"
                    : ": every job file there is invalid (errors below)"));
        } else {
            t.print(out());
        }
        java.time.Duration warn = CredentialsCommand.warnWindow(root().env());
        for (String w : copy != null ? CredentialsCommand.warnings(copy.credentials(), copy.parkedOnMissing(), now, warn)
                : CredentialsCommand.warnings(ws().credentials(), now, warn)) {
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
