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
 * @param refresh  where cookies the site sets go (the store), or {@code null} when they are not kept
 * @param renewal  the fingerprint of the value the operator stored ({@link #renewalFingerprint()}), or
 *                 {@code null} when it is this value's
 * @param rotation where a refresh token an OAuth 2.0 endpoint rotated to goes (the store), or {@code null}
 */
public record ParsedMaterial(String name, ParsedCredential value, String loginUrl, String label, SiteRefresh refresh,
                             String renewal, Rotation rotation) implements CredentialMaterial {

    /** Stores the refresh token an OAuth 2.0 token endpoint rotated to (the credential store); see {@link #rotate}. */
    @FunctionalInterface
    public interface Rotation {
        /** @return the new fingerprint when it was stored, else {@code null} */
        String rotate(String name, ParsedCredential from, io.keyline.credentials.OAuthGrant next);
    }

    public ParsedMaterial(String name, ParsedCredential value, String loginUrl, String label, SiteRefresh refresh,
                          String renewal) {
        this(name, value, loginUrl, label, refresh, renewal, null);
    }

    @Override
    public io.keyline.credentials.OAuthGrant oauth() {
        return value.oauth();
    }

    @Override
    public String rotate(io.keyline.credentials.OAuthGrant next) {
        return rotation == null ? null : rotation.rotate(name, value, next);
    }

    /** Keeps the cookies a site set on an answer (the credential store); see {@link #refreshedBySite}. */
    @FunctionalInterface
    public interface SiteRefresh {
        /** @return what changed when the stored value changed, else {@code null} */
        SiteChange refresh(String name, URI uri, List<String> setCookies, Instant now);
    }

    /** A value whose refreshes are not kept (a login window's capture). */
    public ParsedMaterial(String name, ParsedCredential value, String loginUrl, String label) {
        this(name, value, loginUrl, label, null, null);
    }

    @Override
    public String renewalFingerprint() {
        return renewal == null ? value.fingerprint() : renewal;
    }

    @Override
    public SiteChange refreshedBySite(URI uri, List<String> setCookies, Instant now) {
        return refresh == null ? null : refresh.refresh(name, uri, setCookies, now);
    }

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
    public List<String> cookiesShown() {
        return value.cookies().stream().map(Object::toString).toList();
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
