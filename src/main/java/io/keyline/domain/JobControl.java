package io.keyline.domain;

import java.time.Instant;

/**
 * What the operator decided about a job, kept in the state (not in the job file): its kill switch, and the review
 * of its unsafe steps.
 *
 * @param job        job name
 * @param paused     whether the switch is on
 * @param reason     why (operator's words)
 * @param until      the pause ends by itself at this time, or {@code null}
 * @param user       who paused
 * @param pausedAt   when
 * @param reviewed   the hash of the job's unsafe steps as the operator last approved them (or applied a plan of
 *                   them), {@link #ADOPTED} for a job that ran before reviews existed, or {@code null}: never
 * @param reviewedBy who approved
 * @param reviewedAt when
 */
public record JobControl(String job, boolean paused, String reason, Instant until, String user, Instant pausedAt,
                         String reviewed, String reviewedBy, Instant reviewedAt) {

    /**
     * The review of a job that had run before reviews existed: it counts as approved for the unsafe steps its
     * file has when a run first meets it, which then become its reviewed hash.
     */
    public static final String ADOPTED = "*";

    /** A control without a review. */
    public JobControl(String job, boolean paused, String reason, Instant until, String user, Instant pausedAt) {
        this(job, paused, reason, until, user, pausedAt, null, null, null);
    }

    public static JobControl running(String job) {
        return new JobControl(job, false, null, null, null, null);
    }

    /** The same switch with this review. */
    public JobControl withReview(String hash, String by, Instant at) {
        return new JobControl(job, paused, reason, until, user, pausedAt, hash, by, at);
    }

    /** The same review with this switch (a pause or a resume keeps the review). */
    public JobControl withSwitch(JobControl sw) {
        return new JobControl(job, sw.paused, sw.reason, sw.until, sw.user, sw.pausedAt, reviewed, reviewedBy,
                reviewedAt);
    }

    /** Whether the pause is in force at {@code now} (a pause with a past {@code until} is over). */
    public boolean pausedAt(Instant now) {
        return paused && (until == null || now.isBefore(until));
    }
}
