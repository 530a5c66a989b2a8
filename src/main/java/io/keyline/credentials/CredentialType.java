package io.keyline.credentials;

import java.util.Locale;

/** The kinds of named credential an HTTP step can send. */
public enum CredentialType {
    /** One or more login cookies, sent in a {@code Cookie} header to matching hosts. */
    COOKIE,
    /** A token sent as {@code Authorization: Bearer TOKEN}. */
    BEARER,
    /** One arbitrary request header, {@code Name: value}. */
    HEADER,
    /** A user name and password sent as {@code Authorization: Basic base64(user:password)} (HTTP Basic). */
    BASIC,
    /**
     * An OAuth 2.0 refresh token with its client's id and secret and the token endpoint: an access token is
     * obtained from the endpoint when a request needs one, and sent as {@code Authorization: Bearer TOKEN}.
     */
    OAUTH2;

    /** The lower-case name used in job files and JSON: {@code cookie}, {@code bearer}, {@code header}, {@code basic},
     * {@code oauth2}. */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a lower-case name as written by {@link #jsonName()}.
     *
     * @throws IllegalArgumentException if {@code name} is not one of the lower-case names
     */
    public static CredentialType fromJsonName(String name) {
        for (CredentialType type : values()) {
            if (type.jsonName().equals(name)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown credential type \"" + name + "\": expected cookie, bearer, header, basic or oauth2");
    }
}
