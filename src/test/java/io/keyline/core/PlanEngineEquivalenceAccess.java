package io.keyline.core;

import java.nio.file.Path;
import java.util.List;

/** Lets the reliability suite (another package) run {@link PlanEngineEquivalence}. */
public final class PlanEngineEquivalenceAccess {
    private PlanEngineEquivalenceAccess() {
    }

    /** Cases run, steps executed and mismatches. */
    public record Result(int cases, int executedSteps, List<String> failures) {
    }

    public static Result run(Path root, long seed, int n) throws Exception {
        PlanEngineEquivalence eq = new PlanEngineEquivalence(root, seed);
        eq.run(n);
        return new Result(eq.cases, eq.executedSteps, List.copyOf(eq.failures));
    }
}
