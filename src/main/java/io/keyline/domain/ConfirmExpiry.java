package io.keyline.domain;

import java.time.Duration;
import java.time.Instant;

/**
 * How long a step's wait for a confirmation may last ({@code "confirm": {"expireAfter": "P7D", "then": "skip"}}):
 * after {@code after} the waiting key is skipped or failed, by a run or the scheduler, as an event of its own.
 * It is never confirmed by itself: the step does not run.
 *
 * @param after how long the key may wait, from when it started waiting
 * @param then  what the key becomes when the wait expires
 */
public record ConfirmExpiry(Duration after, Then then) {

    /** What an expired wait becomes. */
    public enum Then {
        /** The key is skipped (the work is moot: this day's article, after a week). */
        SKIP,
        /** The key fails (a person must look at it). */
        FAIL
    }

    public ConfirmExpiry {
        if (after == null || after.isNegative() || after.isZero()) {
            throw new IllegalArgumentException("expireAfter must be positive");
        }
        if (then == null) {
            throw new IllegalArgumentException("then is required");
        }
    }

    /** {@code expireAfter} as the job file would say it: {@code P7D}, {@code PT36H}. */
    public String afterText() {
        return after.toSeconds() % 86_400 == 0 && after.toNanosPart() == 0 ? "P" + after.toDays() + "D"
                : after.toString();
    }

    /** When a wait that started at {@code since} expires. */
    public Instant expiresAt(Instant since) {
        return since.plus(after);
    }
}
