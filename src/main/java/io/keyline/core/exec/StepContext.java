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
 * @param redo       how often the step was done before and is now done again (a re-armed key, a retry from an
 *                   earlier step): 0 for its first life. Its request's {@code Idempotency-Key} names it
 *                   ({@link Rendering#idempotencyKey}), so that a redo is a new request to a site that honours the key,
 *                   while every send of one life carries the same key.
 */
public record StepContext(JobDefinition job, StepDefinition step, String key, String runId, int attempt,
                          Map<String, Map<String, String>> outputs, CredentialMaterial credential,
                          java.util.function.UnaryOperator<String> redact, int redo) {

    /** The context of a step in its first life ({@code redo} 0): where no key's history is at hand. */
    public StepContext(JobDefinition job, StepDefinition step, String key, String runId, int attempt,
                       Map<String, Map<String, String>> outputs, CredentialMaterial credential,
                       java.util.function.UnaryOperator<String> redact) {
        this(job, step, key, runId, attempt, outputs, credential, redact, 0);
    }
}
