package io.keyline.domain;

import java.time.Instant;
import java.util.Map;

/**
 * Durable progress of one step of one key.
 *
 * @param step           step id
 * @param status         progress
 * @param attempts       executions in the current retry cycle (reset by an operator's retry)
 * @param firstAttemptAt start of the current retry cycle (for {@code maxElapsed}), or {@code null}
 * @param outputs        outputs of a finished step
 * @param updatedAt      last change
 */
public record StepRecord(String step, StepStatus status, int attempts, Instant firstAttemptAt,
                         Map<String, String> outputs, Instant updatedAt) {
    public StepRecord {
        // in the order the step gave them (Map.copyOf would list them in an order each JVM picks)
        outputs = outputs == null || outputs.isEmpty() ? Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(outputs));
    }
}
