package io.keyline.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Plan = apply = run, for generated jobs and key states (a few hundred cases here; the reliability
 * profile runs 10,000: {@code PlanEngineEquivalenceSuite}).
 */
class PlanEngineEquivalenceTest {

    @TempDir
    Path tmp;

    @Test
    void theEngineExecutesExactlyTheStepsThePlanLists() throws Exception {
        long seed = Long.getLong("keyline.equivalence.seed", System.nanoTime());
        PlanEngineEquivalence eq = new PlanEngineEquivalence(tmp, seed);
        eq.run(Integer.getInteger("keyline.equivalence.cases", 300));
        System.out.println("plan/engine equivalence: cases=" + eq.cases + " executedSteps=" + eq.executedSteps
                + " failures=" + eq.failures.size() + " seed=" + seed + " stops=" + eq.stops);
        assertThat(eq.failures).as("seed %d", seed).isEmpty();
        // the generator reaches the interesting paths (not only "skip (done)")
        assertThat(eq.executedSteps).isGreaterThan(eq.cases / 2);
        assertThat(eq.stops.keySet()).anyMatch(s -> s.contains("credential")).anyMatch(s -> s.contains("confirmation"))
                .anyMatch(s -> s.equals("done"));
        assertThat(eq.foundByOwnProbe).as("keys the job's own probe found done").isPositive();
    }
}
