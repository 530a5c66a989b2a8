package io.keyline.core;

/** An operator action or a command that cannot be carried out; the message says why and what to do. */
public class OperatorException extends RuntimeException {
    public OperatorException(String message) {
        super(message);
    }
}
