package io.keyline.cli;

import io.keyline.core.StateStore;
import io.keyline.core.jobfile.JobCatalog;
import io.keyline.core.jobfile.JobFileError;
import io.keyline.domain.JobControl;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyState;
import picocli.CommandLine.Command;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "jobs", description = {"Lists the jobs: key type, schedule, paused, keys by state; and invalid job files "
        + "with their errors.", "Exit 0 when at least one job file is valid, 1 when none is (each error is listed)."})
final class JobsCommand extends Sub implements Callable<Integer> {

    @Override
    public Integer call() {
        JobCatalog catalog = ws().catalog();
        // what the last status read, when the state has not changed since (ReadSnapshot): no H2 to open
        io.keyline.store.ReadSnapshot.Data copy = ws().readCopy();
        StateStore store = copy == null ? ws().store() : null;
        if (copy != null) {
            io.keyline.core.StartupTrace.mark("jobs counted from the copy of the last status");
        }
        Instant now = ws().options().clock().instant();
        Text.Table t = new Text.Table("JOB", "KEY", "SCHEDULE", "PAUSED", "DONE", "ATTENTION", "WAITING", "DESCRIPTION");
        for (JobDefinition j : catalog.jobs()) {
            Map<KeyState, Integer> c = copy != null ? copy.countsByState(j.name()) : store.countsByState(j.name());
            JobControl jc = copy != null ? copy.jobControl(j.name()) : store.jobControl(j.name());
            int attention = c.getOrDefault(KeyState.FAILED, 0) + c.getOrDefault(KeyState.NEEDS_CONFIRMATION, 0)
                    + c.getOrDefault(KeyState.NEEDS_CREDENTIAL, 0);
            int waiting = c.getOrDefault(KeyState.RETRY_WAIT, 0) + c.getOrDefault(KeyState.PENDING, 0)
                    + c.getOrDefault(KeyState.RUNNING, 0);
            t.row(j.name(), j.key().type().jsonName() + " " + j.key().zone(),
                    j.schedule() == null ? "-" : j.schedule().text(),
                    jc.pausedAt(now) ? "yes: " + Text.clip(jc.reason(), 40) : "no",
                    c.getOrDefault(KeyState.DONE, 0), attention, waiting, Text.clip(j.description(), 60));
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
