package io.keyline.credentials;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * What an OAuth 2.0 client needs to obtain access tokens with a refresh token (RFC 6749, section 6): the token
 * endpoint, the client's id and secret, and the refresh token. The client secret and the refresh token are secrets;
 * the endpoint and the client id are not (the client id is in every authorization link). {@link #toString()} masks
 * both secrets.
 *
 * @param tokenUrl     the token endpoint ({@code https://api.dropboxapi.com/oauth2/token})
 * @param clientId     the client (app) id, Dropbox's "app key"
 * @param clientSecret the client secret, Dropbox's "app secret"
 * @param refreshToken the refresh token
 */
public record OAuthGrant(String tokenUrl, String clientId, String clientSecret, String refreshToken) {

    /** The names of the four fields, as the input and the stored value write them. */
    public static final List<String> FIELDS = List.of("token_url", "client_id", "client_secret", "refresh_token");

    public OAuthGrant {
        Objects.requireNonNull(tokenUrl, "tokenUrl");
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(clientSecret, "clientSecret");
        Objects.requireNonNull(refreshToken, "refreshToken");
    }

    /** The same grant with the refresh token the endpoint rotated to. */
    public OAuthGrant withRefreshToken(String next) {
        return new OAuthGrant(tokenUrl, clientId, clientSecret, next);
    }

    /** Compact JSON with the four fields in a fixed order: what is stored (encrypted) and fingerprinted. */
    public String canonical() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("token_url", tokenUrl);
        o.put("client_id", clientId);
        o.put("client_secret", clientSecret);
        o.put("refresh_token", refreshToken);
        return o.toString();
    }

    /** The fingerprint of the refresh token alone: which refresh token is stored, safe to show. */
    public String refreshFingerprint() {
        return Hashes.fingerprint(refreshToken.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return "OAuthGrant[tokenUrl=" + tokenUrl + ", clientId=" + clientId + ", clientSecret=***, refreshToken=***]";
    }
}
