package io.keyline.core;

import io.keyline.text.Said;
import io.keyline.text.SaidException;

/**
 * The state folder cannot be opened, read or written; the message says what to do, in the language in use when it
 * is shown ({@link #getMessage}) when it was given as words, in English in logs ({@link #english}).
 */
public final class StateUnavailableException extends SaidException {

    /** @param message what is wrong, as text (a database's own words, a sentence not yet in the bundles) */
    public StateUnavailableException(String message, Throwable cause) {
        this(Said.plain(message), cause);
    }

    /** @param said what is wrong, as words */
    public StateUnavailableException(Said said, Throwable cause) {
        super(said, cause);
    }
}
