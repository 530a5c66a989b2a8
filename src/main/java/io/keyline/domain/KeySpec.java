package io.keyline.domain;

import java.time.ZoneId;
import java.util.Objects;

/**
 * How a job forms its idempotency keys.
 *
 * @param type  the key type
 * @param zone  zone in which dates, weeks and months (and the schedule) are evaluated
 * @param start first key that may exist (bounds backfills); {@code null} when unbounded
 */
public record KeySpec(KeyType type, ZoneId zone, String start) {
    public KeySpec {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(zone, "zone");
    }
}
