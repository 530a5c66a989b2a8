package io.keyline.domain;

/** How a failed step attempt is classified. */
public enum FailureClass {
    /**
     * The request provably never arrived or the site refused it (connect refused, DNS, connect timeout, TLS
     * handshake failure, 429, 503, 507, {@code retryWhen}, exit 75).
     */
    RETRYABLE,
    /**
     * The request may have arrived (timeout of the exchange, 500/502/504 and other 5xx, reset after send, killed
     * by timeout; a 409 that says a request with the same {@code Idempotency-Key} is still being processed).
     */
    TRANSIENT_AFTER_SEND,
    /** The outside world may have changed; never retried automatically. */
    AMBIGUOUS,
    /**
     * The credential was rejected (401, a 403 the job's {@code retryWhen}/{@code refusedWhen} do not read otherwise, a
     * redirect to the login page, {@code authWhen}, exit 77).
     */
    AUTH,
    /**
     * The request is wrong and will stay wrong (400/404/422, 501, any other 409, other 3xx and 4xx, a 2xx that fails
     * {@code successWhen}, exit 64/65, bad input).
     */
    FATAL,
    /** Anything else. */
    UNKNOWN
}
