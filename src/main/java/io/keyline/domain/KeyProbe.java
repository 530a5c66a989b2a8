package io.keyline.domain;

import java.util.List;
import java.util.Map;

/**
 * A job's own probe (its top-level {@code probe}): asked before a key's first step whether the key's work is
 * already there. {@code present} makes the key DONE without running a step (so preparing steps, such as
 * opening an editor that locks a page, are not run for work that exists); {@code absent} or an answer that
 * cannot tell lets the steps run as usual, each unsafe step still guarded by its own probe.
 *
 * @param spec       the probe, the same shape as a step's (it cannot use any step's outputs: none ran yet)
 * @param credential the credential it is sent with, or {@code null}
 */
public record KeyProbe(ProbeSpec spec, String credential) {

    /**
     * How the key's probe is named where a step id would be (the answers of a key's probes, the step a probe
     * is asked for): no step id can be this.
     */
    public static final String STEP = "(key)";

    /** Whether {@code stepId} names the key's probe rather than a step. */
    public static boolean is(String stepId) {
        return STEP.equals(stepId);
    }

    /** The probe as the executors ask one: a step that does nothing but carry the probe and its credential. */
    public StepDefinition asStep() {
        return new StepDefinition(STEP, spec.kind(), Effect.NONE, ConfirmPolicy.NEVER, credential, List.of(), Map.of(),
                null, null, spec, spec.timeout(), RetryPolicy.DEFAULT);
    }
}
