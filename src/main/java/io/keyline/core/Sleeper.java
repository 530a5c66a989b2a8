package io.keyline.core;

import java.time.Duration;

/** Waits for a retry that is due soon. Tests move a clock instead of sleeping. */
@FunctionalInterface
public interface Sleeper {
    Sleeper REAL = d -> Thread.sleep(Math.max(0, d.toMillis()));

    void sleep(Duration d) throws InterruptedException;
}
