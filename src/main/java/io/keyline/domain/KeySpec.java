package io.keyline.domain;

import java.time.ZoneId;
import java.util.Objects;

/**
 * How a job forms its idempotency keys.
 *
 * @param type   the key type
 * @param zone   zone in which dates, weeks and months (and the schedule) are evaluated
 * @param start  first key that may exist (bounds backfills); {@code null} when unbounded
 * @param source where a job with manual keys finds them itself (the job file's {@code keys}), or {@code null}
 */
public record KeySpec(KeyType type, ZoneId zone, String start, KeySource source) {
    public KeySpec {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(zone, "zone");
    }

    /** Keys without a source: given, or from the schedule. */
    public KeySpec(KeyType type, ZoneId zone, String start) {
        this(type, zone, start, null);
    }
}
