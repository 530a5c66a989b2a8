package io.keyline.core.exec;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** A usable credential, as steps see it. Implementations never expose the secret in {@code toString}. */
public interface CredentialMaterial {

    String name();

    /** First 8 hex chars of the SHA-256 of the value: safe to show and to log. */
    String fingerprint();

    /**
     * The fingerprint of the value as the operator last stored it: cookies the site refreshed since change
     * {@link #fingerprint()}, not this (what a plan binds: a refresh by the site does not make it stale, a
     * renewal by the operator does).
     */
    default String renewalFingerprint() {
        return fingerprint();
    }

    /** Headers an HTTP request to {@code uri} carries ({@code Cookie}, {@code Authorization}, …). */
    Map<String, String> httpHeaders(URI uri, Instant now);

    /**
     * Environment a command step receives ({@code KEYLINE_CREDENTIAL}, {@code KEYLINE_COOKIE}), with the
     * cookies that have not expired at {@code now} (the engine's clock).
     */
    Map<String, String> environment(Instant now);

    /**
     * The cookies of a cookie credential as they can be shown: name, domain, path and expiry, the value masked
     * ({@code sid=***; Host=localhost; Path=/}); empty for a token or a header.
     */
    default List<String> cookiesShown() {
        return List.of();
    }

    /** Every string that must be redacted wherever it might appear. */
    List<String> secretStrings();

    /**
     * Where the operator logs in again ({@code credentials set NAME --login-url URL}), or {@code null}: a
     * redirect to it (same origin, a path under it) means the site rejected the credential.
     */
    default String loginUrl() {
        return null;
    }

    /**
     * The site answered a request that carried this credential with {@code Set-Cookie} headers and the answer
     * is not a rejected login: a cookie credential keeps what the site set for its own host (encrypted, as
     * every stored value), unless the credential refuses refreshing ({@code --no-refresh}).
     *
     * @param uri        the request the answer came to
     * @param setCookies the answer's {@code Set-Cookie} values
     * @return what changed when the stored value changed, else {@code null}
     */
    default SiteChange refreshedBySite(URI uri, List<String> setCookies, Instant now) {
        return null;
    }

    /** The token endpoint, client and refresh token of an OAuth 2.0 credential, else {@code null}. */
    default io.keyline.credentials.OAuthGrant oauth() {
        return null;
    }

    /**
     * The token endpoint answered with a new refresh token (rotation): it replaces the stored one, encrypted, before
     * the access token that came with it is used.
     *
     * @return the credential's new fingerprint when it was stored, {@code null} when it was not (the operator renewed
     *         the credential meanwhile, or the value is not a stored one)
     */
    default String rotate(io.keyline.credentials.OAuthGrant next) {
        return null;
    }

    /**
     * What the cookies a site set changed in the stored value.
     *
     * @param fingerprint the stored value's new fingerprint
     * @param login       whether they changed the login itself (see
     *                    {@link io.keyline.credentials.SiteCookies#loginChanged}), not only a setting the site keeps
     *                    beside it
     */
    record SiteChange(String fingerprint, boolean login) {
    }
}
