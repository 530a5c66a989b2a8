package io.keyline.cli;

import io.keyline.core.CredentialInfo;
import io.keyline.core.CredentialStore;
import io.keyline.core.RunReport;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;

import java.io.PrintStream;
import java.util.List;

/** The closing lines of a run: what happened to the targeted keys, and what to do next. */
final class RunOutput {
    private RunOutput() {
    }

    /** @param credentials where the login URL of a credential that keys wait for is looked up */
    static void summary(PrintStream out, List<RunReport> reports, int exit, CredentialStore credentials) {
        summary(out, reports, exit, credentials, List.of());
    }

    /** The job files named by {@code errors}, once each, in order. */
    static List<String> invalidFiles(List<io.keyline.core.jobfile.JobFileError> errors) {
        return errors.stream().map(e -> String.valueOf(e.file())).distinct().toList();
    }

    /**
     * @param credentials  where the login URL of a credential that keys wait for is looked up
     * @param invalidFiles job files that did not load (their jobs did not run): they make the exit 1
     */
    static void summary(PrintStream out, List<RunReport> reports, int exit, CredentialStore credentials,
                        List<String> invalidFiles) {
        for (RunReport r : reports) {
            if (r.stopped() != null && r.keys().isEmpty()) {
                out.println(r.job() + ": " + r.stopped());
                continue;
            }
            StringBuilder sb = new StringBuilder(r.job()).append(": ");
            boolean first = true;
            for (KeyState s : KeyState.values()) {
                long n = r.count(s);
                if (n > 0) {
                    sb.append(first ? "" : ", ").append(n).append(' ').append(s);
                    first = false;
                }
            }
            if (first) {
                sb.append("no keys targeted");
            }
            out.println(sb);
            if (r.stopped() != null && !r.notStarted().isEmpty()) {
                // told to stop (Ctrl+C, SIGTERM): what finished counts; the rest is untouched
                out.println("  stopped: " + r.stopped() + " (after " + r.ran() + " key" + (r.ran() == 1 ? "" : "s")
                        + " ran; run the same command again to continue)");
            } else if (r.stopped() != null) {
                out.println("  stopped: " + r.stopped() + (r.ran() > 0 ? " (after " + r.ran() + " key"
                        + (r.ran() == 1 ? "" : "s") + " ran; the rest waits for 'keyline resume " + r.job() + "')" : ""));
            }
            if (!r.departed().isEmpty()) {
                out.println("  departed from the plan (stopped before doing anything it did not show): "
                        + String.join(", ", r.departed()) + " - review a new plan: keyline plan " + r.job() + " --key "
                        + r.departed().get(0));
            }
            if (!r.notYetDue().isEmpty()) {
                out.println("  not yet due, passed by: " + String.join(", ", r.notYetDue()) + " (--ahead runs them early)");
            }
            for (KeyRecord k : r.keys()) {
                if (k.state().needsAttention() || k.state() == KeyState.RETRY_WAIT) {
                    out.println("  " + k.state() + "  " + k.key() + "  " + io.keyline.domain.Printable.line(Text.clip(k.message(), 160)));
                }
            }
            // one look-up per credential, not per parked key (a backfill can park thousands on one)
            java.util.Map<String, String> loginHints = new java.util.HashMap<>();
            for (KeyRecord k : r.keys()) {
                if (k.state() == KeyState.NEEDS_CONFIRMATION) {
                    out.println("  next: keyline confirm " + r.job() + " " + k.key()
                            + "   or   keyline mark-done " + r.job() + " " + k.key() + " --note \"…\"");
                } else if (k.state() == KeyState.NEEDS_CREDENTIAL && k.credential() == null) {
                    // the program said its login was rejected (exit 77) but the step names no credential
                    out.println("  next: the step " + k.step() + " names no credential: give it one (\"credential\" "
                            + "in the job file) or fix the login it uses, then keyline retry " + r.job() + " "
                            + k.key());
                } else if (k.state() == KeyState.NEEDS_CREDENTIAL) {
                    String login = loginHints.computeIfAbsent(k.credential(),
                            name -> credentials.info(name).map(CredentialInfo::loginHint).orElse(""));
                    out.println("  next: renew credential " + k.credential() + login + "; the parked keys resume");
                } else if (k.state() == KeyState.FAILED) {
                    out.println("  next: keyline timeline " + r.job() + " " + k.key() + "   then   keyline retry "
                            + r.job() + " " + k.key());
                }
            }
        }
        if (!invalidFiles.isEmpty()) {
            out.println("invalid job file" + (invalidFiles.size() == 1 ? "" : "s") + ", not run: "
                    + String.join(", ", invalidFiles) + " (the errors are on stderr; keyline jobs shows them)");
            out.println("exit " + exit + " (a job file is invalid: its job did not run)");
            return;
        }
        out.println("exit " + exit + " (" + RunReport.meaning(exit) + ")");
    }
}
