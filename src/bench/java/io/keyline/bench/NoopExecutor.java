package io.keyline.bench;

import io.keyline.core.exec.ProbeOutcome;
import io.keyline.core.exec.StepContext;
import io.keyline.core.exec.StepExecutor;
import io.keyline.core.exec.StepOutcome;

import java.util.Map;

/** The bench-only step kind: registered for COMMAND through the executor interface, does no outside work. */
final class NoopExecutor implements StepExecutor {
    @Override
    public StepOutcome execute(StepContext ctx) {
        return StepOutcome.success("no-op", Map.of(), null);
    }

    @Override
    public ProbeOutcome probe(StepContext ctx) {
        throw new UnsupportedOperationException("no probes in the bench");
    }
}
