package io.keyline.core;

import io.keyline.text.Said;

/**
 * The state folder cannot be opened, read or written; the message says what to do, in the language in use when it
 * is shown ({@link #getMessage}) when it was given as words, in English in logs ({@link #english}).
 */
public final class StateUnavailableException extends RuntimeException {

    private final transient Said said;

    /** @param message what is wrong, as text (a database's own words, a sentence not yet in the bundles) */
    public StateUnavailableException(String message, Throwable cause) {
        this(Said.plain(message), cause);
    }

    /** @param said what is wrong, as words */
    public StateUnavailableException(Said said, Throwable cause) {
        super(said.english(), cause);
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

    /** What is wrong, in English. */
    public String english() {
        return super.getMessage();
    }
}
