package io.keyline.cli;

import io.keyline.core.operations.Status;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

@Command(name = "status", description = "Shows keys and their states (all jobs, or one).")
final class StatusCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", arity = "0..1", paramLabel = "JOB", description = "Only this job.")
    String jobName;

    @Option(names = "--attention", description = "Only keys that wait for a person: FAILED, NEEDS_CONFIRMATION, "
            + "NEEDS_CREDENTIAL, and keys a killed run left RUNNING (interrupted: they resume on the next run).")
    boolean attention;

    @Option(names = "--json", description = "Print a JSON array.")
    boolean json;

    @Override
    public Integer call() {
        io.keyline.core.StartupTrace.mark("command line parsed");
        String name = jobName == null ? null : job(jobName).name();
        Status status = ws().operations().status(name, attention);
        io.keyline.core.StartupTrace.mark("keys read (" + status.rows().size() + ")");
        doneReading();
        java.time.Instant now = ws().options().clock().instant();
        if (json) {
            List<Map<String, Object>> rows = new ArrayList<>();
            for (Status.Row r : status.rows()) {
                KeyRecord k = r.key();
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("job", k.job());
                m.put("key", k.key());
                m.put("state", k.state().name());
                m.put("step", k.step());
                m.put("attempts", k.attempts());
                m.put("nextAttemptAt", k.nextAttemptAt());
                m.put("updatedAt", k.updatedAt());
                m.put("message", r.message());
                m.put("credential", k.credential());
                m.put("class", k.failureClass() == null ? null : k.failureClass().name());
                if (r.loginUrl() != null) {
                    m.put("loginUrl", r.loginUrl());
                }
                m.put("interrupted", r.interrupted());
                rows.add(m);
            }
            Text.json(out(), rows);
            return 0;
        }
        out().println("State: " + root().found().stateLine());
        out().println("Jobs:  " + root().found().jobsLine());
        for (String w : CredentialsCommand.warnings(status.credentials(), status.parkedOnMissing(), now,
                CredentialsCommand.warnWindow(root().env()))) {
            out().println("! " + w);
        }
        if (status.rows().isEmpty()) {
            out().println(attention ? "Nothing waits for you." : "No keys yet" + (name == null ? "." : " for " + name + "."));
            return 0;
        }
        Text.Table t = new Text.Table("JOB", "KEY", "STATE", "STEP", "ATTEMPTS", "NEXT ATTEMPT", "UPDATED", "MESSAGE");
        for (Status.Row r : status.rows()) {
            KeyRecord k = r.key();
            t.row(k.job(), k.key(), r.interrupted() ? "RUNNING (interrupted)" : k.state(), k.step(), k.attempts(),
                    Text.time(k.nextAttemptAt()), Text.time(k.updatedAt()), Text.clip(r.message(), 160));
        }
        io.keyline.core.StartupTrace.mark("table built");
        t.print(out());
        io.keyline.core.StartupTrace.mark("table printed");
        return 0;
    }
}
