package io.keyline.core.exec;

import java.time.Instant;

/** What an executor tells the engine while a step runs. */
public interface ExecutionListener {

    /** Hears nothing. */
    ExecutionListener NONE = new ExecutionListener() {
    };

    /**
     * A command step's child process started (in its own process group, whose id is its pid): the
     * engine records it, so that a run taking over from a dead holder waits for it instead of
     * starting a second copy.
     */
    default void childStarted(long pid, Instant startedAt) {
    }
}
