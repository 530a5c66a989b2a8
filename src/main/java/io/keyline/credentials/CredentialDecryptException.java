package io.keyline.credentials;

import io.keyline.text.Said;
import io.keyline.text.SaidException;

/**
 * Thrown when a stored credential cannot be decrypted, almost always because the master key differs
 * from the one it was encrypted with. The message is meant for the operator as is, in the language in use when it
 * is shown ({@link #getMessage}); {@link #said} keeps its words.
 */
public class CredentialDecryptException extends SaidException {
    private static final long serialVersionUID = 1L;

    private final String credentialName;

    /**
     * @param credentialName the credential that could not be decrypted
     * @param reason         why, e.g. {@code wrong master key}
     */
    public CredentialDecryptException(String credentialName, Said reason) {
        super(words(credentialName, reason));
        this.credentialName = credentialName;
    }

    private static Said words(String credentialName, Said reason) {
        // the words the store's lookup also uses for a value it cannot decrypt
        return Said.of("core.credential.cannotDecrypt", credentialName, reason);
    }

    /** The credential that could not be decrypted. */
    public String credentialName() {
        return credentialName;
    }
}
