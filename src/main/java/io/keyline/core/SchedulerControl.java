package io.keyline.core;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.List;

/**
 * What the console sees of the embedded scheduler: its mode, what it is about to run, the next
 * schedule tick, and a switch to pause it. {@link #status()} reads the state: call it off the UI thread.
 */
public interface SchedulerControl {

    /** {@code ON}: ticking; {@code PAUSED}: an operator paused it; {@code OFF}: there is no scheduler. */
    enum Mode { ON, PAUSED, OFF }

    /**
     * A key the scheduler will start.
     *
     * @param job     the job
     * @param key     the key
     * @param tick    its schedule tick (in the job's zone), or {@code null} for a stored pending key or retry
     * @param catchUp whether the tick was missed (downtime) and is being caught up
     * @param note    {@code catch-up: missed tick 2026-11-27 09:00}, or {@code null}
     */
    record Upcoming(String job, String key, ZonedDateTime tick, boolean catchUp, io.keyline.text.Said note) {
    }

    /**
     * @param mode     the mode
     * @param running  {@code job key} the scheduler is executing right now, or {@code null}
     * @param dueNow   keys its next tick will start (catch-ups included), in order; not the keys it only parks for
     *                 the review of their job's unsafe steps
     * @param next     the next schedule tick that will start a key (not one whose key waits for a person, nor one
     *                 that only parks it for its job's review), or {@code null} when none will
     * @param nextTick when the scheduler looks next, or {@code null} when it is not ticking
     * @param window   the catch-up window, e.g. {@code PT168H}
     * @param problem  the last error of a tick, as words, or {@code null}
     */
    record Status(Mode mode, String running, List<Upcoming> dueNow, Upcoming next, Instant nextTick,
                  java.time.Duration window, io.keyline.text.Said problem) {
    }

    Status status();

    /**
     * What the last tick that started keys did (the console says it in a notification: "8 keys ran: 8 done").
     *
     * @param at     when the tick ended
     * @param keys   "job key" of every key it started, in order
     * @param states final state of each started key, in the same order
     */
    record Ran(java.time.Instant at, List<String> keys, List<io.keyline.domain.KeyState> states) {
        public Ran {
            keys = List.copyOf(keys);
            states = List.copyOf(states);
        }
    }

    /** The last tick that started keys, or {@code null} when none did yet. */
    default Ran lastRan() {
        return null;
    }

    /** The catch-up window (cheap; no state is read). */
    default java.time.Duration window() {
        return Targets.DEFAULT_CATCH_UP;
    }

    /** Lets the scheduler start keys again. */
    void enable();

    /** Pauses the scheduler itself: it starts nothing new (a key it is running right now runs to its end). */
    void disable();

    /** No scheduler (CLI, tests): status {@code OFF}, the switches do nothing. */
    SchedulerControl NONE = new SchedulerControl() {
        @Override
        public Status status() {
            return new Status(Mode.OFF, null, List.of(), null, null, Targets.DEFAULT_CATCH_UP, null);
        }

        @Override
        public void enable() {
        }

        @Override
        public void disable() {
        }
    };
}
