package io.keyline.core;

import io.keyline.text.Said;
import io.keyline.text.SaidException;

/**
 * An operator action or a command that cannot be carried out; the message says why and what to do, in the
 * language in use when it is shown ({@link #getMessage}), in English for machine output ({@link #english}).
 */
public class OperatorException extends SaidException {

    /** Why, put into words when it is shown: a bundle key and its arguments. */
    public OperatorException(Said said) {
        super(said);
    }

    /** Why, as text already in the language in use (a message of another exception, a sentence already said). */
    public OperatorException(String message) {
        this(Said.plain(message));
    }

    /** Why, as a bundle key and its arguments. */
    public static OperatorException of(String key, Object... args) {
        return new OperatorException(Said.of(key, args));
    }
}
