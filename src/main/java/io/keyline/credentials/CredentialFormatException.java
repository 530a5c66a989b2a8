package io.keyline.credentials;

/**
 * Thrown when credential input cannot be parsed. The message names where the problem is (a 1-based
 * line number or a JSON array index) and which field is wrong, and never contains a secret value.
 */
public class CredentialFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message location, field and problem, e.g. {@code [2].value: missing}; must not contain a secret */
    public CredentialFormatException(String message) {
        super(message);
    }
}
