package io.keyline.core.exec;

import io.keyline.domain.Evidence;
import io.keyline.domain.FailureClass;

import java.time.Duration;
import java.util.Map;

/**
 * The result of one step attempt.
 *
 * @param failure    {@code null} on success, else the class of the failure
 * @param message    human-readable summary (redacted)
 * @param outputs    outputs for later steps (success only)
 * @param evidence   what was sent and received (redacted)
 * @param retryAfter a server's {@code Retry-After}, or {@code null}
 */
public record StepOutcome(FailureClass failure, String message, Map<String, String> outputs, Evidence evidence,
                          Duration retryAfter) {

    public static StepOutcome success(String message, Map<String, String> outputs, Evidence evidence) {
        return new StepOutcome(null, message, outputs, evidence, null);
    }

    public static StepOutcome failure(FailureClass cls, String message, Evidence evidence) {
        return new StepOutcome(cls, message, Map.of(), evidence, null);
    }

    public boolean succeeded() {
        return failure == null;
    }
}
