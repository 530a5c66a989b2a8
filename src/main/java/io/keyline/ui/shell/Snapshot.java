package io.keyline.ui.shell;

import io.keyline.core.CredentialAlerts;
import io.keyline.core.jobfile.JobFileError;
import io.keyline.core.operations.Attention;

import java.time.Instant;
import java.util.List;

/**
 * What the console shows at a glance, loaded in one background pass.
 *
 * @param at        when it was loaded
 * @param jobs      the valid jobs with their counts
 * @param attention what waits for a person, grouped by cause (core {@link Attention})
 * @param running   keys being run now
 * @param alerts    credential alerts
 * @param invalid   job files that did not load
 * @param keys      keys stored, of every job (also of jobs whose files are gone)
 */
public record Snapshot(Instant at, List<JobSummary> jobs, List<Attention.Item> attention, List<RunningKey> running,
                       List<CredentialAlerts.Alert> alerts, List<JobFileError> invalid, int keys) {

    /** Keys that wait for a person (missing keys are not waiting). */
    public int waitingKeys() {
        return attention.stream().mapToInt(Attention.Item::waitingKeys).sum();
    }

    /**
     * A key being run right now (by this console or by any other process on the state).
     *
     * @param job       job
     * @param key       key
     * @param step      current step
     * @param stepIndex 0-based index of the current step
     * @param steps     number of steps
     * @param owner     the process holding its lease
     */
    public record RunningKey(String job, String key, String step, int stepIndex, int steps, String owner) {
        public double progress() {
            return steps == 0 ? -1 : (stepIndex + 0.5) / steps;
        }
    }

    /**
     * One job in the sidebar.
     *
     * @param name        job name
     * @param schedule    the schedule in words ("daily at 09:00 (UTC)"), or "no schedule"
     * @param paused      kill switch on
     * @param pauseReason why, or {@code null}
     * @param attention   keys in FAILED / NEEDS_*
     * @param done        keys DONE
     * @param total       keys stored
     * @param missing     keys of its calendar that should exist but never ran
     * @param missingText "23 days" (the unit of its keys), or empty
     */
    public record JobSummary(String name, String schedule, boolean paused,
                             String pauseReason, int attention, int done, int total, int missing, String missingText) {
    }
}
