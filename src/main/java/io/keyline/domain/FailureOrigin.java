package io.keyline.domain;

/**
 * Whose doing a failed attempt was, as far as Keyline can tell: the exit code of a run says "the
 * environment failed" (1) apart from "the site or program said no" (2).
 */
public enum FailureOrigin {
    /**
     * Nothing answered: the host name could not be resolved, the connection was refused or timed out, the
     * network had no route, the TLS handshake failed (nothing was sent); the program could not be started
     * (not found, not executable, permission denied).
     */
    ENVIRONMENT,
    /** The site or the program answered, and its answer is the failure: an HTTP status, a body, an exit code. */
    ANSWER,
    /** The request was sent or the program ran, and no answer came: a timeout, a connection reset after sending. */
    NO_ANSWER
}
