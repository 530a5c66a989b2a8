package io.keyline.core;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Plans kept for {@code apply}. */
public interface SavedPlans {

    /**
     * Keeps a plan for {@code apply}.
     *
     * @param options how it was made ({@code ahead}, {@code no-probes}, comma-separated), or {@code null}
     * @param inputs  the text its id hashes ({@link Planner.Planned#inputs}), or {@code null}
     */
    void savePlan(String planId, String job, Instant createdAt, List<String> keys, String options, String inputs);

    Optional<SavedPlan> plan(String planId);

    /**
     * A plan kept for {@code apply}.
     *
     * @param inputs the text its id hashed when it was made, or {@code null} (a plan kept before they were)
     */
    record SavedPlan(String planId, String job, Instant createdAt, List<String> keys, String options, String inputs) {

        public boolean has(String option) {
            return options != null && java.util.Arrays.asList(options.split(",")).contains(option);
        }
    }
}
