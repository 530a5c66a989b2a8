package io.keyline.cli;

import io.keyline.core.operations.Status;
import io.keyline.core.operations.Words;
import io.keyline.domain.KeyRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "status")
final class StatusCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", arity = "0..1", paramLabel = "JOB", descriptionKey = "JOB")
    String jobName;

    @Option(names = "--attention")
    boolean attention;

    @Mixin
    JsonOutput json;

    @Option(names = "--exit-code")
    boolean exitCode;

    @Override
    public Integer call() {
        io.keyline.core.StartupTrace.mark("command line parsed");
        String name = jobName == null ? null : job(jobName).name();
        Status status = ws().operations().status(name, attention, ws().catalog().jobs());
        io.keyline.core.StartupTrace.mark("keys read (" + status.rows().size() + ")");
        doneReading();
        java.time.Instant now = ws().options().clock().instant();
        // a job file that does not load is a job that no longer runs: a person must fix it
        List<String> invalid = name == null ? RunOutput.invalidFiles(ws().catalog().errors()) : List.of();
        int exit = exitCode && (status.anyWaits() || !invalid.isEmpty())
                ? io.keyline.core.RunReport.WAITING_FOR_OPERATOR : 0;
        if (json.on) {
            for (String file : invalid) {
                err().println(t("cli.doctor.invalidJob", file));
            }
            List<Map<String, Object>> rows = new ArrayList<>();
            for (Status.Row r : status.rows()) {
                KeyRecord k = r.key();
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("job", k.job());
                m.put("key", k.key());
                m.put("state", k.state().name());
                m.put("step", k.step());
                m.put("attempts", k.attemptsAtStep());
                m.put("nextAttemptAt", k.nextAttemptAt());
                m.put("updatedAt", k.updatedAt());
                m.put("message", r.message());
                m.put("credential", k.credential());
                m.put("class", k.failureClass() == null ? null : k.failureClass().name());
                if (r.loginUrl() != null) {
                    m.put("loginUrl", r.loginUrl());
                }
                m.put("interrupted", r.interrupted());
                m.put("waitingSince", r.waitingSince());
                m.put("waitingSeconds", r.waitingSince() == null ? null
                        : io.keyline.core.Waiting.age(k, now).toSeconds());
                if (r.expiresAt() != null) {
                    m.put("expiresAt", r.expiresAt());
                }
                rows.add(m);
            }
            Text.json(out(), rows);
            return exit;
        }
        out().println(t("cli.status.state", root().found().stateLine()));
        out().println(t("cli.status.jobs", root().found().jobsLine()));
        for (String w : CredentialsCommand.warnings(status.credentials(), status.parkedOnMissing(), now,
                CredentialsCommand.warnWindow(root().env()))) {
            out().println("! " + w);
        }
        for (String file : invalid) {
            out().println("! " + t("cli.doctor.invalidJob", file));
        }
        if (status.rows().isEmpty() && attention && !invalid.isEmpty()) {
            return exit;
        }
        if (status.rows().isEmpty()) {
            out().println(attention ? t("cli.status.nothingWaits") : name == null ? t("cli.status.noKeys")
                    : t("cli.status.noKeysFor", name));
            return exit;
        }
        Text.Table t = new Text.Table(t("cli.jobs.col.job"), t("cli.jobs.col.key"), t("cli.status.col.state"),
                t("cli.status.col.step"), t("cli.status.col.attempts"), t("cli.status.col.nextAttempt"),
                t("cli.status.col.updated"), t("cli.status.col.waiting"), t("cli.status.col.message"));
        for (Status.Row r : status.rows()) {
            KeyRecord k = r.key();
            t.row(k.job(), k.key(), r.interrupted() ? t("cli.status.interrupted") : RunOutput.state(k.state()), k.step(),
                    k.attemptsAtStep(),
                    Text.time(k.nextAttemptAt()), Text.time(k.updatedAt()), waiting(r, now),
                    Text.clip(java.util.Objects.equals(r.message(), k.message()) ? Words.said(k) : r.message(), 160));
        }
        io.keyline.core.StartupTrace.mark("table built");
        t.print(out());
        io.keyline.core.StartupTrace.mark("table printed");
        return exit;
    }

    /** "3 d 4 h" (and when the wait expires), or empty for a key that does not wait. */
    private static String waiting(Status.Row r, java.time.Instant now) {
        java.time.Duration age = io.keyline.core.Waiting.age(r.key(), now);
        if (age == null) {
            return "";
        }
        String text = io.keyline.core.Waiting.text(age);
        return r.expiresAt() == null ? text : t("cli.status.expires", text, Text.time(r.expiresAt()));
    }
}
