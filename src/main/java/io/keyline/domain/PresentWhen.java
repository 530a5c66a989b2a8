package io.keyline.domain;

/**
 * When an HTTP probe's JSON answer means "the effect already exists". Exactly one of
 * {@code equalsJson}, {@code notEqualsJson} and {@code exists} is set.
 *
 * @param jsonPointer   RFC 6901 pointer into the response body ({@code ""} is the whole body)
 * @param equalsJson    canonical JSON text of the value that means present, or {@code null}
 * @param notEqualsJson canonical JSON text of the value that means absent, or {@code null}
 * @param exists        {@code true}: present when the pointer resolves to a non-null value; {@code false}: when it does not
 */
public record PresentWhen(String jsonPointer, String equalsJson, String notEqualsJson, Boolean exists) {
}
