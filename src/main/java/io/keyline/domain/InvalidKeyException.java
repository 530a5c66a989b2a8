package io.keyline.domain;

import io.keyline.text.Said;

import java.util.List;

/**
 * An idempotency key (or key range) that a job's {@link KeySpec} does not accept. The message is the
 * command line's; {@link #problem()} and {@link #values()} say the same as data, for a screen that words it
 * itself.
 */
public class InvalidKeyException extends IllegalArgumentException {

    /** What is wrong with the key. */
    public enum Problem {
        /** values: the key. */
        NOT_A_DATE,
        /** values: the key. */
        NOT_A_WEEK,
        /** values: the key, the year, its last ISO week ("53"). */
        NO_SUCH_WEEK,
        /** values: the key. */
        NOT_A_MONTH,
        /** values: the key, the job's first key. */
        BEFORE_START,
        /** values: the first key, the last key. */
        RANGE_BACKWARDS,
        /** values: the first key, the last key, how many keys, the limit. */
        RANGE_TOO_LONG,
        /** Manual keys have no order (no range, no "today"); no values. */
        NO_ORDER,
        /** The key is empty; no values. */
        EMPTY,
        /** values: the key's start, its length, the limit. */
        TOO_LONG,
        /** values: the key (control characters escaped). */
        CONTROL_CHARACTER,
        /** values: the key. */
        PATH_SEPARATOR,
        /** values: the key. */
        DOT_DOT,
        /** values: the key. */
        FIRST_CHARACTER,
        /** values: the key, the character. */
        CHARACTER,
        /** Anything else: the message says it; no values. */
        OTHER
    }

    private final Problem problem;
    private final List<String> values;
    private final transient Said said;

    /** @param message what is wrong, naming the value and what is expected, in the language in use */
    public InvalidKeyException(String message) {
        this(Problem.OTHER, Said.plain(message));
    }

    /**
     * @param problem what is wrong
     * @param said    the same for the command line, naming the value and what is expected, as words
     * @param values  the values {@code problem} documents, in its order
     */
    public InvalidKeyException(Problem problem, Said said, String... values) {
        super(said.english());
        this.problem = problem;
        this.values = List.of(values);
        this.said = said;
    }

    /** What is wrong, in the language in use. */
    @Override
    public String getMessage() {
        return said == null ? super.getMessage() : said.text();
    }

    /** What is wrong, as words. */
    public Said said() {
        return said == null ? Said.plain(super.getMessage()) : said;
    }

    public Problem problem() {
        return problem;
    }

    /** The values the problem documents (see {@link Problem}). */
    public List<String> values() {
        return values;
    }
}
