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
        StateStore store = ws().store();
        Instant now = ws().options().clock().instant();
        Text.Table t = new Text.Table("JOB", "KEY", "SCHEDULE", "PAUSED", "DONE", "ATTENTION", "WAITING", "DESCRIPTION");
        for (JobDefinition j : catalog.jobs()) {
            Map<KeyState, Integer> c = store.countsByState(j.name());
            JobControl jc = store.jobControl(j.name());
            int attention = c.getOrDefault(KeyState.FAILED, 0) + c.getOrDefault(KeyState.NEEDS_CONFIRMATION, 0)
                    + c.getOrDefault(KeyState.NEEDS_CREDENTIAL, 0);
            int waiting = c.getOrDefault(KeyState.RETRY_WAIT, 0) + c.getOrDefault(KeyState.PENDING, 0)
                    + c.getOrDefault(KeyState.RUNNING, 0);
            t.row(j.name(), j.key().type().jsonName() + " " + j.key().zone(),
                    j.schedule() == null ? "-" : j.schedule().text(),
                    jc.pausedAt(now) ? "yes: " + Text.clip(jc.reason(), 40) : "no",
                    c.getOrDefault(KeyState.DONE, 0), attention, waiting, Text.clip(j.description(), 60));
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
