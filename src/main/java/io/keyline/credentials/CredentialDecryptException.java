package io.keyline.credentials;

/**
 * Thrown when a stored credential cannot be decrypted, almost always because the master key differs
 * from the one it was encrypted with. The message is meant for the operator as is.
 */
public class CredentialDecryptException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String credentialName;

    /**
     * @param credentialName the credential that could not be decrypted
     * @param reason         why, e.g. {@code wrong master key}
     */
    public CredentialDecryptException(String credentialName, String reason) {
        super("cannot decrypt credential " + credentialName + ": " + reason);
        this.credentialName = credentialName;
    }

    /** The credential that could not be decrypted. */
    public String credentialName() {
        return credentialName;
    }
}
