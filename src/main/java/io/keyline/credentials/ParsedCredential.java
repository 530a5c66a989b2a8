package io.keyline.credentials;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The secret content of a credential, ready to be stored, fingerprinted and sent. Only the fields of
 * its {@link #type()} are set: {@code cookies} (non-empty) for COOKIE, {@code token} for BEARER and BASIC,
 * {@code headerName}/{@code headerValue} for HEADER; the others are empty or {@code null}.
 * {@link #toString()} masks every secret.
 *
 * @param type        the kind of credential
 * @param cookies     the cookies, in input order (empty unless COOKIE)
 * @param token       the bearer token (BEARER), or the login {@code user:password} (BASIC: the user name up to
 *                    the first colon, as HTTP Basic reads it)
 * @param headerName  the header name (HEADER only)
 * @param headerValue the header value (HEADER only)
 * @param oauth       the token endpoint, client and refresh token (OAUTH2 only)
 */
public record ParsedCredential(CredentialType type, List<Cookie> cookies, String token,
                               String headerName, String headerValue, OAuthGrant oauth) {

    private static final String CREDENTIAL_VARIABLE = "KEYLINE_CREDENTIAL";
    private static final String COOKIE_VARIABLE = "KEYLINE_COOKIE";

    /** Checks that exactly the fields of {@code type} are set. */
    public ParsedCredential {
        Objects.requireNonNull(type, "type");
        cookies = cookies == null ? List.of() : List.copyOf(cookies);
        boolean consistent = switch (type) {
            case COOKIE -> !cookies.isEmpty() && token == null && headerName == null && headerValue == null
                    && oauth == null;
            case BEARER -> cookies.isEmpty() && token != null && headerName == null && headerValue == null
                    && oauth == null;
            case BASIC -> cookies.isEmpty() && token != null && token.indexOf(':') > 0 && headerName == null
                    && headerValue == null && oauth == null;
            case HEADER -> cookies.isEmpty() && token == null && headerName != null && headerValue != null
                    && oauth == null;
            case OAUTH2 -> cookies.isEmpty() && token == null && headerName == null && headerValue == null
                    && oauth != null;
        };
        if (!consistent) {
            throw new IllegalArgumentException("the fields set do not match credential type " + type.jsonName());
        }
    }

    /** A credential of a type other than OAUTH2. */
    public ParsedCredential(CredentialType type, List<Cookie> cookies, String token, String headerName,
                            String headerValue) {
        this(type, cookies, token, headerName, headerValue, null);
    }

    /** An OAUTH2 credential: access tokens are obtained with the grant when a request needs one. */
    public static ParsedCredential ofOAuth(OAuthGrant grant) {
        return new ParsedCredential(CredentialType.OAUTH2, List.of(), null, null, null, grant);
    }

    /** A COOKIE credential. */
    public static ParsedCredential ofCookies(List<Cookie> cookies) {
        return new ParsedCredential(CredentialType.COOKIE, cookies, null, null, null);
    }

    /** A BEARER credential. */
    public static ParsedCredential ofToken(String token) {
        return new ParsedCredential(CredentialType.BEARER, List.of(), token, null, null);
    }

    /** A BASIC credential: a user name (without a colon) and a password. */
    public static ParsedCredential ofBasic(String user, String password) {
        return new ParsedCredential(CredentialType.BASIC, List.of(), user + ":" + password, null, null);
    }

    /** A HEADER credential. */
    public static ParsedCredential ofHeader(String name, String value) {
        return new ParsedCredential(CredentialType.HEADER, List.of(), null, name, value);
    }

    /**
     * Rebuilds a credential from {@link #canonicalSecret()}. The canonical form is itself accepted
     * input, so this parses it.
     *
     * @throws CredentialFormatException if {@code canonicalSecret} is not a valid credential of {@code type}
     */
    public static ParsedCredential fromCanonical(CredentialType type, String canonicalSecret) {
        return CredentialParser.parseStored(type, canonicalSecret);
    }

    /**
     * A deterministic serialization of the secret content, used for storage and for the fingerprint:
     * compact JSON of the cookies (see {@code JsonCookieFormat}), the token, {@code user:password}, or
     * {@code Name: value}.
     */
    public String canonicalSecret() {
        return switch (type) {
            case COOKIE -> JsonCookieFormat.write(cookies);
            case BEARER, BASIC -> token;
            case HEADER -> headerName + ": " + headerValue;
            case OAUTH2 -> oauth.canonical();
        };
    }

    /** The first 8 lower-case hex characters of the SHA-256 of {@link #canonicalSecret()}. */
    public String fingerprint() {
        return Hashes.fingerprint(canonicalSecret().getBytes(StandardCharsets.UTF_8));
    }

    /** The earliest expiry among cookies that have one; empty for session cookies and other types. */
    public Optional<Instant> earliestExpiry() {
        return cookies.stream().map(Cookie::expires).filter(Objects::nonNull).min(Comparator.naturalOrder());
    }

    /**
     * The headers to add to a request to {@code uri} at {@code now}. COOKIE: a {@code Cookie} header with
     * the cookies a browser would send (see {@link Cookie#matches}), longer paths first, or no header
     * at all if none match. BEARER: {@code Authorization: Bearer TOKEN}. BASIC: {@code Authorization: Basic} and the
     * Base64 of {@code user:password} in UTF-8. HEADER: that header. OAUTH2: none (the access token is not part
     * of the stored value: {@code core.exec.AccessTokens} obtains it and adds the header).
     */
    public Map<String, String> httpHeaders(URI uri, Instant now) {
        return switch (type) {
            case COOKIE -> {
                List<Cookie> matching = cookies.stream()
                        .filter(cookie -> cookie.matches(uri, now))
                        .sorted(Comparator.comparingInt((Cookie cookie) -> cookie.path().length()).reversed())
                        .toList();
                yield matching.isEmpty() ? Map.of() : Map.of("Cookie", cookieHeader(matching));
            }
            case BEARER -> Map.of("Authorization", "Bearer " + token);
            case BASIC -> Map.of("Authorization", "Basic " + basicEncoded());
            case HEADER -> Map.of(headerName, headerValue);
            case OAUTH2 -> Map.of();
        };
    }

    /** The user name of a BASIC credential (not a secret); {@code null} for the other types. */
    public String user() {
        return type == CredentialType.BASIC ? token.substring(0, token.indexOf(':')) : null;
    }

    /** The password of a BASIC credential; {@code null} for the other types. */
    public String password() {
        return type == CredentialType.BASIC ? token.substring(token.indexOf(':') + 1) : null;
    }

    private String basicEncoded() {
        return Base64.getEncoder().encodeToString(token.getBytes(StandardCharsets.UTF_8));
    }

    /** {@link #environment(Instant)} at the current time. */
    public Map<String, String> environment() {
        return environment(Instant.now());
    }

    /**
     * Environment variables for commands: {@code KEYLINE_CREDENTIAL} holds the raw secret (the cookie
     * header string {@code a=1; b=2} of all cookies not expired at {@code now}, the token, {@code user:password}
     * as {@code curl -u} takes it, or the header value); for cookies {@code KEYLINE_COOKIE} holds the same cookie header string.
     */
    public Map<String, String> environment(Instant now) {
        return switch (type) {
            case COOKIE -> {
                String header = cookieHeader(cookies.stream().filter(cookie -> !cookie.isExpired(now)).toList());
                yield Map.of(CREDENTIAL_VARIABLE, header, COOKIE_VARIABLE, header);
            }
            case BEARER, BASIC -> Map.of(CREDENTIAL_VARIABLE, token);
            case HEADER -> Map.of(CREDENTIAL_VARIABLE, headerValue);
            case OAUTH2 -> Map.of();
        };
    }

    /**
     * Every secret to mask wherever it might be shown or stored as a message or evidence: the value of
     * each cookie that is worth masking ({@link Redactor#worthMasking}: not {@code lang=en},
     * {@code consent=true} or {@code lang=2026}, which are no secrets and would only make harmless
     * text unreadable), the bearer token, the header value, or of a BASIC credential the password, the whole
     * {@code user:password} and its Base64 as it is sent (the password is the secret: a server that says it back
     * alone, or decoded, must not show it).
     */
    public List<String> secretStrings() {
        List<String> secrets = new ArrayList<>();
        switch (type) {
            case COOKIE -> cookies.stream().map(Cookie::value).filter(Redactor::worthMasking).distinct()
                    .forEach(secrets::add);
            case BEARER -> secrets.add(token);
            case BASIC -> {
                secrets.add(password());
                secrets.add(token);
                secrets.add(basicEncoded());
            }
            case HEADER -> secrets.add(headerValue);
            case OAUTH2 -> {
                secrets.add(oauth.refreshToken());
                secrets.add(oauth.clientSecret());
            }
        }
        return List.copyOf(secrets);
    }

    /** A description without any secret, e.g. {@code ParsedCredential[type=bearer, token=***]}. */
    @Override
    public String toString() {
        String content = switch (type) {
            case COOKIE -> "cookies=" + cookies;
            case BEARER -> "token=***";
            case BASIC -> "user=" + user() + ", password=***";
            case HEADER -> "header=" + headerName + ": ***";
            case OAUTH2 -> "oauth=" + oauth;
        };
        return "ParsedCredential[type=" + type.jsonName() + ", " + content + "]";
    }

    private static String cookieHeader(List<Cookie> cookies) {
        return cookies.stream().map(Cookie::pair).collect(Collectors.joining("; "));
    }
}
