package io.keyline.core;

/** An operator action or a command that cannot be carried out; the message says why and what to do. */
public final class OperatorException extends RuntimeException {
    public OperatorException(String message) {
        super(message);
    }
}
