package io.keyline.domain;

/** Whether an http step or probe follows redirects (never, unless it asks for same-origin ones). */
public enum Redirects {
    /** A 3xx is an answer, classified like any other (the default). */
    NEVER,
    /** GET/HEAD only: Keyline follows redirects within the request's origin (scheme, host, port), hop by hop. */
    SAME_ORIGIN
}
