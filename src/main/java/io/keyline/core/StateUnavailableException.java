package io.keyline.core;

/** The state folder cannot be opened, read or written; the message says what to do. */
public final class StateUnavailableException extends RuntimeException {
    public StateUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
