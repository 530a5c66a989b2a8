package io.keyline.domain;

import java.time.Instant;

/**
 * The kill switch of a job, kept in the state (not in the job file).
 *
 * @param job      job name
 * @param paused   whether the switch is on
 * @param reason   why (operator's words)
 * @param until    the pause ends by itself at this time, or {@code null}
 * @param user     who paused
 * @param pausedAt when
 */
public record JobControl(String job, boolean paused, String reason, Instant until, String user, Instant pausedAt) {

    public static JobControl running(String job) {
        return new JobControl(job, false, null, null, null, null);
    }

    /** Whether the pause is in force at {@code now} (a pause with a past {@code until} is over). */
    public boolean pausedAt(Instant now) {
        return paused && (until == null || now.isBefore(until));
    }
}
