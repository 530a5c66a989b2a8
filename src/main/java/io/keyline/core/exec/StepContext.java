package io.keyline.core.exec;

import io.keyline.core.exec.CredentialMaterial;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.StepDefinition;

import java.util.Map;

/**
 * What an executor needs for one step attempt.
 *
 * @param job        the job
 * @param step       the step
 * @param key        the idempotency key
 * @param runId      the run
 * @param attempt    attempt number of this step (1-based)
 * @param outputs    outputs of earlier steps, by step id
 * @param credential the step's credential, or {@code null}
 * @param redact     removes every known secret (and its encodings) from a text
 */
public record StepContext(JobDefinition job, StepDefinition step, String key, String runId, int attempt,
                          Map<String, Map<String, String>> outputs, CredentialMaterial credential,
                          java.util.function.UnaryOperator<String> redact) {
}
