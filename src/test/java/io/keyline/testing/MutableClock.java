package io.keyline.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that tests move by hand; waiting for a retry moves it instead of sleeping. */
public final class MutableClock extends Clock {
    private volatile Instant now;
    private volatile boolean live;

    public MutableClock(Instant start) {
        this.now = start;
    }

    public void advance(Duration d) {
        now = instant().plus(d);
        live = false;
    }

    public boolean live() {
        return live;
    }

    /** From now on, tell the real time (for tests whose child processes use the real clock). */
    public void followSystemClock() {
        live = true;
    }

    public void set(Instant t) {
        now = t;
        live = false;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return live ? Instant.now() : now;
    }
}
