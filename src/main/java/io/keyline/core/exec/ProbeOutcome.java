package io.keyline.core.exec;

import io.keyline.domain.Evidence;

/**
 * What a probe found.
 *
 * @param answer   present, absent, inconclusive or rejected credential
 * @param message  human-readable summary (redacted)
 * @param evidence what was sent and received (redacted)
 */
public record ProbeOutcome(Answer answer, String message, Evidence evidence) {

    public enum Answer { PRESENT, ABSENT, INCONCLUSIVE, AUTH }
}
