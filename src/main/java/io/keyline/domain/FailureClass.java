package io.keyline.domain;

/** How a failed step attempt is classified (SPEC §3). */
public enum FailureClass {
    /** The request provably never arrived (connect refused, DNS, connect timeout, 429, exit 75). */
    RETRYABLE,
    /** The request may have arrived (read timeout, 5xx, reset after send, killed by timeout). */
    TRANSIENT_AFTER_SEND,
    /** The outside world may have changed; never retried automatically. */
    AMBIGUOUS,
    /** The credential was rejected (401/403, exit 77). */
    AUTH,
    /** The request is wrong and will stay wrong (400/404/409/422, exit 64/65, bad input). */
    FATAL,
    /** Anything else. */
    UNKNOWN
}
