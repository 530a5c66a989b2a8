package io.keyline.domain;

import java.time.Duration;

/**
 * Exponential backoff with jitter, capped per delay and in total elapsed time.
 *
 * @param maxAttempts  total attempts including the first try
 * @param initialDelay delay before the second attempt
 * @param multiplier   growth factor per attempt (at least 1.0)
 * @param maxDelay     cap for one delay
 * @param jitter       0..1: a delay is drawn uniformly from {@code d*(1-jitter) .. d*(1+jitter)}, then capped
 * @param maxElapsed   no retry is scheduled later than this after the step's first attempt
 */
public record RetryPolicy(int maxAttempts, Duration initialDelay, double multiplier,
                          Duration maxDelay, double jitter, Duration maxElapsed) {

    public static final RetryPolicy DEFAULT = new RetryPolicy(3, Duration.ofSeconds(5), 2.0,
            Duration.ofMinutes(5), 0.5, Duration.ofMinutes(30));
}
