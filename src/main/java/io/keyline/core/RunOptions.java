package io.keyline.core;

import java.time.Clock;
import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * How the engine behaves; production values in {@link #standard()}.
 *
 * @param clock           the clock (tests move it)
 * @param sleeper         waits for retries due soon (tests advance the clock instead)
 * @param random          jitter source
 * @param waitInPlace     a retry due within this is waited for in the same run
 * @param lease           how long a key lease lasts without renewal
 * @param user            OS user recorded on operator events
 */
public record RunOptions(Clock clock, Sleeper sleeper, RandomGenerator random, Duration waitInPlace, Duration lease,
                         String user) {

    public static RunOptions standard() {
        return new RunOptions(Clock.systemUTC(), Sleeper.REAL, new java.util.Random(), Duration.ofMinutes(1),
                Duration.ofMinutes(2), System.getProperty("user.name", "unknown"));
    }
}
