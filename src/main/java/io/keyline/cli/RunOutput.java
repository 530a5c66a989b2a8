package io.keyline.cli;

import io.keyline.core.CredentialInfo;
import io.keyline.core.CredentialStore;
import io.keyline.core.KeyDecision;
import io.keyline.core.RunReport;
import io.keyline.core.operations.Words;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;

import java.io.PrintStream;
import java.util.List;

import static io.keyline.text.Text.t;

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
                out.println(t("cli.run.stoppedJob", r.job(), r.stopped()));
                continue;
            }
            List<String> counts = new java.util.ArrayList<>();
            for (KeyState s : KeyState.values()) {
                long n = r.count(s);
                if (n > 0) {
                    counts.add(t("cli.run.count", String.valueOf(n), state(s)));
                }
            }
            out.println(counts.isEmpty() ? t("cli.run.noKeys", r.job())
                    : t("cli.run.counts", r.job(), String.join(t("common.listSeparator"), counts)));
            if (r.stopped() != null && (!r.notStarted().isEmpty() || r.overBudget())) {
                // told to stop (Ctrl+C, SIGTERM) or out of time: what finished counts; the next run goes on
                out.println("  " + t("cli.run.stoppedAgain", r.stopped(), r.ran()));
            } else if (r.stopped() != null) {
                out.println("  " + (r.ran() > 0
                        ? t("cli.run.stoppedResume", r.stopped(), r.ran(), r.job())
                        : t("cli.run.stopped", r.stopped())));
            }
            if (!r.departed().isEmpty()) {
                out.println("  " + t("cli.run.departed", String.join(", ", r.departed()), r.job(),
                        r.departed().get(0)));
            }
            if (!r.notYetDue().isEmpty()) {
                out.println("  " + t("cli.run.notYetDue", String.join(", ", r.notYetDue())));
            }
            for (KeyRecord k : r.keys()) {
                if (k.state().needsAttention() || k.state() == KeyState.RETRY_WAIT) {
                    out.println("  " + state(k.state()) + "  " + k.key() + "  "
                            + io.keyline.domain.Printable.line(Text.clip(Words.said(k), 160)));
                }
            }
            // one line per credential, not per parked key (a backfill can park thousands on one): a renewal
            // resumes them all
            java.util.Set<String> renewSaid = new java.util.HashSet<>();
            boolean reviewSaid = false;
            for (KeyRecord k : r.keys()) {
                if (io.keyline.core.DecisionInputs.waitsForReview(k)) {
                    // the job's review moves every such key on (a confirmation of one key is refused): said once
                    if (!reviewSaid) {
                        out.println("  " + t("cli.run.nextReview", r.job()));
                        reviewSaid = true;
                    }
                } else if (k.state() == KeyState.NEEDS_CONFIRMATION) {
                    out.println("  " + t("cli.run.nextConfirm", r.job(), k.key()));
                } else if (k.state() == KeyState.NEEDS_CREDENTIAL && k.credential() == null) {
                    // the program said its login was rejected (exit 77) but the step names no credential
                    out.println("  " + t("cli.run.nextNoCredential", k.step(), r.job(), k.key()));
                } else if (k.state() == KeyState.NEEDS_CREDENTIAL && renewSaid.add(k.credential())) {
                    String login = credentials.info(k.credential()).map(CredentialInfo::loginUrl).orElse("");
                    out.println("  " + (login.isEmpty() ? t("cli.run.nextRenew", k.credential())
                            : t("cli.run.nextRenewAt", k.credential(), login)));
                } else if (KeyDecision.mayBeDone(k)) {
                    // a plain retry would send again what may already be there: the site is looked at first
                    out.println("  " + t("cli.run.nextFailedMayBeDone", r.job(), k.key()));
                } else if (k.state() == KeyState.FAILED) {
                    out.println("  " + t("cli.run.nextFailed", r.job(), k.key()));
                }
            }
        }
        if (!invalidFiles.isEmpty()) {
            out.println(t("cli.run.invalidFiles", invalidFiles.size(), String.join(", ", invalidFiles)));
            out.println(t("cli.run.exitInvalid", String.valueOf(exit)));
            return;
        }
        out.println(t("cli.run.exit", String.valueOf(exit), meaning(exit, reports)));
    }

    /**
     * What the exit code says of these runs. Exit 5 has three causes, and a person reads which one: a key waits for
     * its retry, another process runs a key, or the run was stopped (SIGTERM) with keys left that nothing failed.
     */
    static String meaning(int exit, List<RunReport> reports) {
        if (exit != RunReport.RETRY_PENDING) {
            return RunReport.meaning(exit);
        }
        List<KeyState> states = reports.stream().flatMap(r -> r.keys().stream()).map(KeyRecord::state).toList();
        return states.contains(KeyState.RETRY_WAIT) ? RunReport.meaning(exit)
                : states.contains(KeyState.RUNNING) ? t("cli.run.exit5.running") : t("cli.run.exit5.left");
    }

    /** A key state as the operator reads it ({@code FAILED}; in Chinese, its Chinese word). */
    static String state(KeyState s) {
        return s == null ? "-" : t("cli.state." + s.name());
    }
}
