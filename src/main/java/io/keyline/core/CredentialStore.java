package io.keyline.core;

import io.keyline.credentials.ParsedCredential;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The credential store as the CLI and the console manage it (the engine only needs {@link CredentialProvider}). */
public interface CredentialStore extends CredentialProvider {

    /**
     * Stores or replaces a credential's value; the previous value stays intact if this fails. A new value
     * (another fingerprint) forgets the last use and its result: they were the old value's.
     *
     * @param loginUrl where the operator logs in again, or {@code null} to keep the stored one
     */
    CredentialInfo set(String name, ParsedCredential value, String loginUrl, String user);

    /** {@link #set(String, ParsedCredential, String, String)} keeping the stored login URL. */
    default CredentialInfo set(String name, ParsedCredential value, String user) {
        return set(name, value, null, user);
    }

    /** Every stored credential with its parked-key count, by name. */
    List<CredentialInfo> list();

    Optional<CredentialInfo> info(String name);

    /** Keys parked on credentials that are not stored at all, by credential name. */
    Map<String, Integer> parkedOnMissing();

    /**
     * Opens the master key now and returns its fingerprint: a worker checks its key when it starts, not at
     * 3 a.m. at its first credential. On a shared (PostgreSQL) state the key must be given and be the
     * state's.
     *
     * @throws io.keyline.credentials.MasterKeyException when there is none, or it is not the state's
     */
    default String checkMasterKey() {
        return "";
    }
}
