package io.keyline.ui.shell;

import io.keyline.core.CredentialAlerts;
import io.keyline.core.jobfile.JobFileError;
import io.keyline.domain.KeyState;

import java.time.Instant;
import java.util.List;

/**
 * What the console shows at a glance, loaded in one background pass.
 *
 * @param at        when it was loaded
 * @param jobs      the valid jobs with their counts
 * @param attention keys that wait for a person, oldest first
 * @param running   keys being run now
 * @param alerts    credential alerts
 * @param invalid   job files that did not load
 * @param keys      keys stored, of every job (also of jobs whose files are gone)
 */
public record Snapshot(Instant at, List<JobSummary> jobs, List<AttentionItem> attention, List<RunningKey> running,
                       List<CredentialAlerts.Alert> alerts, List<JobFileError> invalid, int keys) {

    /**
     * A key being run right now (by this console or by any other process on the state).
     *
     * @param job       job
     * @param key       key
     * @param step      current step
     * @param stepIndex 0-based index of the current step
     * @param steps     number of steps
     * @param since     when the key last changed
     * @param owner     the process holding its lease
     */
    public record RunningKey(String job, String key, String step, int stepIndex, int steps, Instant since, String owner) {
        public double progress() {
            return steps == 0 ? -1 : (stepIndex + 0.5) / steps;
        }
    }

    /**
     * One job in the sidebar.
     *
     * @param name        job name
     * @param description description
     * @param schedule    cron text, or {@code null}
     * @param keyType     date, week, month or manual
     * @param paused      kill switch on
     * @param pauseReason why, or {@code null}
     * @param attention   keys in FAILED / NEEDS_*
     * @param done        keys DONE
     * @param total       keys stored
     */
    public record JobSummary(String name, String description, String schedule, String keyType, boolean paused,
                             String pauseReason, int attention, int done, int total) {
    }

    /**
     * A key that waits for a person.
     *
     * @param job        job
     * @param key        key
     * @param state      FAILED, NEEDS_CONFIRMATION or NEEDS_CREDENTIAL
     * @param step       step it stopped at
     * @param reason     the key's message
     * @param evidence   one-line evidence summary of the last failure, or empty
     * @param since      when it entered the state
     * @param credential credential it waits for (NEEDS_CREDENTIAL), or {@code null}
     */
    public record AttentionItem(String job, String key, KeyState state, String step, String reason, String evidence,
                                Instant since, String credential) {

        /** The one action that resolves the item. */
        public String primaryAction() {
            return switch (state) {
                case FAILED -> "Retry";
                case NEEDS_CONFIRMATION -> "Confirm…";
                case NEEDS_CREDENTIAL -> "Renew credential…";
                case RUNNING -> "Run now";
                default -> "Open";
            };
        }

        public String id() {
            return job + "/" + key;
        }
    }
}
