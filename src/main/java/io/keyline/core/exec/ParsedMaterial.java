package io.keyline.core.exec;

import io.keyline.credentials.ParsedCredential;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A parsed credential value as steps see it: a stored one decrypted by the credential store, or the cookies
 * a login window captured. {@code toString} is {@code label}, which never holds the value.
 *
 * @param name     the credential's name
 * @param value    the parsed value
 * @param loginUrl where the operator logs in again, or {@code null}
 * @param label    what {@code toString} says (a name and a fingerprint)
 */
public record ParsedMaterial(String name, ParsedCredential value, String loginUrl, String label)
        implements CredentialMaterial {

    @Override
    public String fingerprint() {
        return value.fingerprint();
    }

    @Override
    public Map<String, String> httpHeaders(URI uri, Instant now) {
        return value.httpHeaders(uri, now);
    }

    @Override
    public Map<String, String> environment(Instant now) {
        return value.environment(now);
    }

    @Override
    public List<String> secretStrings() {
        return value.secretStrings();
    }

    @Override
    public String toString() {
        return label;
    }
}
