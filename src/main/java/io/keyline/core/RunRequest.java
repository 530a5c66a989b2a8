package io.keyline.core;

import java.util.Map;

/**
 * How a run was asked for.
 *
 * @param ahead      keys later than the current one may run (the operator said so: {@code --ahead})
 * @param planId     the plan being applied, or {@code null} for a plain run
 * @param expected   for {@code apply}: per key, the steps the plan listed, in order; a key whose reality
 *                   departs from them stops there. {@code null} for a plain run.
 * @param selection  how the keys were chosen ({@code --key …}, {@code --from … --to …}, {@code --due}), for the run log
 * @param unattended nobody who saw the job's plan asked for this run ({@code --due}, the scheduler, a worker, the
 *                   keys a renewed login resumed): the keys of a job whose unsafe steps were never reviewed, or
 *                   changed since, wait for the review ({@link Review})
 */
public record RunRequest(boolean ahead, String planId, Map<String, Plan.Expectation> expected, String selection,
                         boolean unattended) {

    /** A plain run of the due and current keys. */
    public static final RunRequest PLAIN = new RunRequest(false, null, null, null);

    /** A run of the scheduler (the console's, a worker's): unattended. */
    public static final RunRequest SCHEDULED = new RunRequest(false, null, null, "--due", true);

    public RunRequest(boolean ahead, String planId, Map<String, Plan.Expectation> expected, String selection) {
        this(ahead, planId, expected, selection, false);
    }

    public static RunRequest plain(boolean ahead, String selection) {
        return new RunRequest(ahead, null, null, selection);
    }

    /**
     * The keys a renewed login resumed, run at once: whoever renewed the login has not seen the plans of the jobs
     * that waited for it, so a job whose unsafe steps wait for a review keeps its keys for the review.
     */
    public static final RunRequest RESUMED = new RunRequest(false, null, null, null, true);

    /** {@code run --due}: the due keys, unattended. */
    public static RunRequest due(boolean ahead) {
        return new RunRequest(ahead, null, null, "--due", true);
    }

    /** Applies {@code plan}: exactly its steps, keys ahead of schedule only if the plan allowed them. */
    public static RunRequest apply(Plan plan) {
        Map<String, Plan.Expectation> byKey = new java.util.LinkedHashMap<>();
        for (Plan.KeyPlan k : plan.keys()) {
            byKey.put(k.key(), k.expectation());
        }
        return new RunRequest(plan.ahead(), plan.planId(), byKey, "apply " + plan.planId());
    }

    public boolean applying() {
        return expected != null;
    }
}
