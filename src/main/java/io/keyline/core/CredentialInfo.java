package io.keyline.core;

import java.time.Instant;

/**
 * What may be shown about a stored credential: never its value.
 *
 * @param name           credential name
 * @param type           cookie, bearer, header or basic
 * @param fingerprint    first 8 hex chars of the SHA-256 of the value
 * @param cookies        number of cookies (0 for tokens and headers)
 * @param earliestExpiry earliest cookie expiry, or {@code null}
 * @param updatedAt      when it was last set
 * @param updatedBy      who set it
 * @param lastUsedAt     when a request or a program last carried it, or {@code null} (never since it was set)
 * @param lastResult     what the site said then ({@code accepted}, {@code rejected}, {@code no answer}), or
 *                       {@code null} when nothing was sent with it yet
 * @param parkedKeys     keys in NEEDS_CREDENTIAL that wait for it
 * @param loginUrl       where the operator logs in again ({@code --login-url}), or {@code null}
 */
public record CredentialInfo(String name, String type, String fingerprint, int cookies, Instant earliestExpiry,
                             Instant updatedAt, String updatedBy, Instant lastUsedAt, String lastResult,
                             int parkedKeys, String loginUrl) {

    /** Whether the credential expires before {@code now + warn} (or has expired). */
    public boolean expiresWithin(Instant now, java.time.Duration warn) {
        return earliestExpiry != null && earliestExpiry.isBefore(now.plus(warn));
    }

    public boolean rejected() {
        return "rejected".equals(lastResult);
    }
}
