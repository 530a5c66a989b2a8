package io.keyline.core;

import io.keyline.domain.RetryPolicy;

import java.time.Duration;
import java.util.random.RandomGenerator;

/** Exponential backoff with jitter, capped per delay (a step's {@code retry}). */
public final class Backoff {
    private Backoff() {
    }

    /**
     * The delay after failed attempt {@code attempt} (1-based): {@code initialDelay * multiplier^(attempt-1)},
     * spread by ±jitter, capped at {@code maxDelay}.
     */
    public static Duration delay(RetryPolicy p, int attempt, RandomGenerator random) {
        double base = p.initialDelay().toMillis() * Math.pow(p.multiplier(), Math.max(0, attempt - 1));
        double spread = p.jitter() == 0 ? 1.0 : 1.0 + p.jitter() * (2 * random.nextDouble() - 1);
        double ms = Math.min(p.maxDelay().toMillis(), base * spread);
        return Duration.ofMillis(Math.max(0, Math.round(ms)));
    }
}
