package io.keyline.core.exec;

import io.keyline.domain.Evidence;
import io.keyline.domain.FailureOrigin;

/**
 * What a probe found.
 *
 * @param answer   present, absent, inconclusive or rejected credential
 * @param message  human-readable summary (redacted)
 * @param evidence what was sent and received (redacted)
 * @param values   what the probe's {@code extract} found in an answer that said present or absent, by name
 * @param origin   for an inconclusive answer, whose doing it was when known (nothing answered:
 *                 {@link FailureOrigin#ENVIRONMENT}), else {@code null}
 * @param refreshed the credential's new fingerprint when the site refreshed its cookies on the answer (kept,
 *                  encrypted), else {@code null}
 */
public record ProbeOutcome(Answer answer, String message, Evidence evidence, java.util.Map<String, String> values,
                           FailureOrigin origin, String refreshed) {

    public ProbeOutcome {
        values = values == null ? java.util.Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(values));
    }

    public ProbeOutcome(Answer answer, String message, Evidence evidence, java.util.Map<String, String> values) {
        this(answer, message, evidence, values, null, null);
    }

    public ProbeOutcome(Answer answer, String message, Evidence evidence) {
        this(answer, message, evidence, java.util.Map.of());
    }

    /** The same answer, with the credential's new fingerprint after the site refreshed it. */
    public ProbeOutcome refreshed(String fingerprint) {
        return new ProbeOutcome(answer, message, evidence, values, origin, fingerprint);
    }

    /** A probe that could not be asked because nothing answered (the host, the network, the program). */
    public static ProbeOutcome unreachable(String message, Evidence evidence) {
        return new ProbeOutcome(Answer.INCONCLUSIVE, message, evidence, java.util.Map.of(), FailureOrigin.ENVIRONMENT,
                null);
    }

    public enum Answer { PRESENT, ABSENT, INCONCLUSIVE, AUTH }
}
