package io.keyline.core.exec;

import io.keyline.domain.Evidence;

/**
 * What a probe found.
 *
 * @param answer   present, absent, inconclusive or rejected credential
 * @param message  human-readable summary (redacted)
 * @param evidence what was sent and received (redacted)
 * @param values   what the probe's {@code extract} found in an answer that said present or absent, by name
 * @param refreshed the credential's new fingerprint when the site refreshed its cookies on the answer (kept,
 *                  encrypted), else {@code null}
 */
public record ProbeOutcome(Answer answer, String message, Evidence evidence, java.util.Map<String, String> values,
                           String refreshed) {

    public ProbeOutcome {
        values = values == null ? java.util.Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(values));
    }

    public ProbeOutcome(Answer answer, String message, Evidence evidence, java.util.Map<String, String> values) {
        this(answer, message, evidence, values, null);
    }

    public ProbeOutcome(Answer answer, String message, Evidence evidence) {
        this(answer, message, evidence, java.util.Map.of());
    }

    /** The same answer, with the credential's new fingerprint after the site refreshed it. */
    public ProbeOutcome refreshed(String fingerprint) {
        return new ProbeOutcome(answer, message, evidence, values, fingerprint);
    }

    public enum Answer { PRESENT, ABSENT, INCONCLUSIVE, AUTH }
}
