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
     * @param loginUrl where the operator logs in again, {@code null} to keep the stored one, {@code ""} to remove it
     */
    CredentialInfo set(String name, ParsedCredential value, String loginUrl, String user);

    /**
     * {@link #set(String, ParsedCredential, String, String)}, and whether cookies the site sets on its answers are
     * kept ({@code null} keeps the stored choice; a new credential keeps them).
     */
    default CredentialInfo set(String name, ParsedCredential value, String loginUrl, Boolean refreshBySite,
                               String user) {
        CredentialInfo info = set(name, value, loginUrl, user);
        return refreshBySite == null ? info : settings(name, null, refreshBySite, user).orElse(info);
    }

    /**
     * Changes a stored credential's login URL ({@code null} keeps it, {@code ""} removes it) and whether the site
     * may refresh it ({@code null} keeps it), leaving its value as it is.
     *
     * @return what is stored now, or empty when the credential is not stored
     */
    default Optional<CredentialInfo> settings(String name, String loginUrl, Boolean refreshBySite, String user) {
        return Optional.empty();
    }

    /** Whether cookies the site sets on answers to requests that carried the credential are kept (default yes). */
    default boolean refreshBySite(String name) {
        return true;
    }

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
