package io.keyline.core;

import java.nio.file.Path;
import java.util.List;

/** Lets the reliability suite (another package) run {@link PlanEngineEquivalence}. */
public final class PlanEngineEquivalenceAccess {
    private PlanEngineEquivalenceAccess() {
    }

    /** Cases run, steps executed, keys the job's own probe found done, and mismatches. */
    public record Result(int cases, int executedSteps, int foundByOwnProbe, List<String> failures) {
    }

    public static Result run(Path root, long seed, int n) throws Exception {
        PlanEngineEquivalence eq = new PlanEngineEquivalence(root, seed);
        eq.run(n);
        return new Result(eq.cases, eq.executedSteps, eq.foundByOwnProbe, List.copyOf(eq.failures));
    }
}
