package io.keyline.domain;

import java.util.Objects;

/**
 * Where a job keyed by document number ({@code key.type: manual}) finds its keys itself: the job file's
 * {@code "keys": {"source": …, "maxKeys": N}}. {@code run --due} and the scheduler ask it and take the keys it
 * lists that are not done yet. The source is a read-only step that is never recorded: a command whose last stdout
 * line is {@code {"outputs": {"keys": [..]}}}, or an http GET whose answer holds the list at a JSON pointer (each
 * entry a string or an integer, or, with {@code each}, an object with the key at that pointer). At most
 * {@code maxKeys} entries are taken (more is refused as a whole: a listing that grew by mistake runs nothing); each
 * is validated as a key, and a bad one is reported, never run.
 *
 * @param step    the command or the GET, as a step with effect {@code none} whose output {@code keys} is the list
 * @param each    for an http source: the JSON pointer of the key inside each entry, or {@code null} (the entry is
 *                the key)
 * @param maxKeys the most entries taken (default {@value #DEFAULT_MAX_KEYS})
 */
public record KeySource(StepDefinition step, String each, int maxKeys) {

    /** The default bound of a listing. */
    public static final int DEFAULT_MAX_KEYS = 1000;
    /** The output that holds the list. */
    public static final String OUTPUT = "keys";

    public KeySource {
        Objects.requireNonNull(step, "step");
        if (maxKeys < 1) {
            throw new IllegalArgumentException("maxKeys must be at least 1");
        }
    }
}
