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

    /**
     * After an attempt whose outcome is unknown, a probe that cannot tell is asked as often as the retry policy
     * tries a step, counted from the key's history, then a person decides: the plan of a key whose probe could not
     * tell twice of three says the key waits for a person, as the run does, not that the probe is asked later.
     */
    @Test
    void aKeyWhoseProbeCouldNotTellAsOftenAsItsRetriesAllowIsPlannedToWaitForAPerson() throws Exception {
        PlanEngineEquivalence eq = new PlanEngineEquivalence(tmp, 1);

        eq.run(3, PlanEngineEquivalence::unknownAndAsked);

        assertThat(eq.failures).isEmpty();
        assertThat(eq.askedOut).as("the key whose probe could not tell twice").isEqualTo(1);
    }

    /**
     * A probe that cannot tell before its step is sent is retried like a safe step: the plan of a key whose step
     * has had all but one of its tries says the key fails with this answer, as the run does, not that the probe
     * is asked later.
     */
    @Test
    void aKeyWhoseProbeCannotTellOnItsLastTryIsPlannedToFail() throws Exception {
        PlanEngineEquivalence eq = new PlanEngineEquivalence(tmp, 1);

        eq.run(3, PlanEngineEquivalence::retried);

        assertThat(eq.failures).isEmpty();
    }
}
