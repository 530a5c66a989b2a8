package io.keyline.reliability;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Plan = apply = run over 10,000 generated jobs and key states ({@code -Dkeyline.equivalence.cases=N}). */
@Tag("reliability")
class PlanEngineEquivalenceSuite {

    @TempDir
    Path tmp;

    @Test
    void tenThousandGeneratedCases() throws Exception {
        long seed = Long.getLong("keyline.equivalence.seed", System.nanoTime());
        int n = Integer.getInteger("keyline.equivalence.cases", 10_000);
        long t0 = System.nanoTime();
        var eq = io.keyline.core.PlanEngineEquivalenceAccess.run(tmp, seed, n);
        long s = (System.nanoTime() - t0) / 1_000_000_000;
        var figures = new java.util.LinkedHashMap<String, Object>();
        figures.put("cases", eq.cases());
        figures.put("executedSteps", eq.executedSteps());
        figures.put("foundByOwnProbe", eq.foundByOwnProbe());
        figures.put("mismatches", eq.failures().size());
        figures.put("seed", seed);
        figures.put("seconds", s);
        Suites.report("equivalence", figures, String.join("\n", eq.failures()));
        assertThat(eq.failures()).as("seed %d", seed).isEmpty();
        assertThat(eq.cases()).isGreaterThanOrEqualTo(n);
        assertThat(eq.foundByOwnProbe()).as("the generator reaches keys the job's own probe finds done").isPositive();
    }
}
