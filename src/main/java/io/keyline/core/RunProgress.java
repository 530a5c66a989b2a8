package io.keyline.core;

import io.keyline.domain.KeyState;

/**
 * What a run tells a watcher while it runs (a live counter on a terminal): called from the threads
 * that run keys, so implementations are thread-safe and quick. Nothing here changes a key.
 */
public interface RunProgress {

    /** A watcher that does nothing. */
    RunProgress NONE = new RunProgress() {
    };

    /** A run of {@code keys} targeted keys of {@code job} starts. */
    default void runStarted(String job, int keys) {
    }

    /** A key is taken up (it may still turn out to need nothing). */
    default void keyStarted(String job, String key) {
    }

    /**
     * A targeted key is through with this run: finished before, ran, or was passed by.
     *
     * @param state where it stands, or {@code null} when it was not started (the run stopped first)
     */
    default void keyEnded(String job, String key, KeyState state) {
    }

    /** The run of {@code job} ended. */
    default void runEnded(String job) {
    }
}
