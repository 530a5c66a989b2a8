package io.keyline.core;

import java.time.Instant;
import java.util.Optional;

/** The child processes command steps started: a run that takes over a key waits for the one its holder left. */
public interface ChildRecords {

    /** Records the child process a command step of a key started (one per key: the latest). */
    void recordChild(Child child);

    /** The child process a key's command step started last, if recorded. */
    Optional<Child> child(String job, String key);

    /**
     * A command step's child process.
     *
     * @param job       job
     * @param key       key
     * @param step      step
     * @param host      host it runs on
     * @param pid       pid (and process group id)
     * @param startedAt its start time (a pid may be reused)
     * @param deadline  when the step's timeout ends
     */
    record Child(String job, String key, String step, String host, long pid, Instant startedAt, Instant deadline) {
    }
}
