package io.keyline.core.exec;

/** Executes steps of one kind. Registered per kind in {@link Executors}. */
public interface StepExecutor {

    /** Performs the step's work. Never throws for a failure of the outside world: it classifies it. */
    StepOutcome execute(StepContext ctx) throws InterruptedException;

    /** {@link #execute(StepContext)}, telling {@code listener} what it starts (child processes). */
    default StepOutcome execute(StepContext ctx, ExecutionListener listener) throws InterruptedException {
        return execute(ctx);
    }

    /** Runs the step's read-only probe. */
    ProbeOutcome probe(StepContext ctx) throws InterruptedException;
}
