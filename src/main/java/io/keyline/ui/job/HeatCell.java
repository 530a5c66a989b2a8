package io.keyline.ui.job;

import io.keyline.domain.KeyState;

import java.time.LocalDate;

/**
 * One cell of a job's calendar heatmap.
 *
 * @param key         the key
 * @param firstDay    first day of the key's period
 * @param state       the key's state, or {@code null} when it never ran (a gap, if it should exist)
 * @param beforeStart the key is before the job's {@code key.start}: it is not expected to exist
 */
public record HeatCell(String key, LocalDate firstDay, KeyState state, boolean beforeStart) {

    /** A key that should exist (since key.start) but never ran. */
    public boolean gap() {
        return state == null && !beforeStart;
    }
}
