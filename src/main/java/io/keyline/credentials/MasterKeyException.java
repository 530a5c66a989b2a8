package io.keyline.credentials;

/**
 * Thrown when the master key is unusable: a malformed {@code KEYLINE_MASTER_KEY}, or a key file that is
 * malformed or accessible to other users. The message says what is expected and how to fix it.
 */
public class MasterKeyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what is wrong and what is expected; never contains key material */
    public MasterKeyException(String message) {
        super(message);
    }
}
