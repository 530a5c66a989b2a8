package io.keyline.domain;

/** An idempotency key (or key range) that a job's {@link KeySpec} does not accept. */
public class InvalidKeyException extends IllegalArgumentException {

    /** @param message what is wrong, naming the value and what is expected */
    public InvalidKeyException(String message) {
        super(message);
    }
}
