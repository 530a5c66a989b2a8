package io.keyline.core.operations;

import io.keyline.core.Engine;
import io.keyline.core.OperatorException;
import io.keyline.core.Plan;
import io.keyline.core.Planner;
import io.keyline.core.RunReport;
import io.keyline.core.RunRequest;
import io.keyline.core.KeyRecords;
import io.keyline.core.SavedPlans;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Plan and apply, as the command line and the console both do them: a plan is saved with how it was
 * made; {@code apply} re-plans it the same way, refuses when anything changed since (the id differs),
 * and otherwise executes exactly its steps.
 */
public final class PlanApply {

    private final SavedPlans store;
    private final KeyRecords keys;
    private final Planner planner;
    private final io.keyline.core.CredentialProvider credentials;
    private final Reviewer reviewer;

    /** Records that a plan of a job was applied: the job's unsafe steps, as planned, are reviewed. */
    @FunctionalInterface
    public interface Reviewer {
        /** @return the job's keys that waited for the review and go on (PENDING) */
        List<KeyRecord> applied(JobDefinition job, String planId);

        /** Records nothing (a plan applied in a test of the engine alone). */
        Reviewer NONE = (job, planId) -> List.of();
    }

    public PlanApply(SavedPlans store, KeyRecords keys, Planner planner) {
        this(store, keys, planner, null, Reviewer.NONE);
    }

    /**
     * @param credentials masks what the applied keys came to ({@link Applied#outcomes}); {@code null}: none shown
     * @param reviewer    told of every plan that is applied (not of a stale one): applying a plan of a job is the
     *                    review of its unsafe steps that unattended runs wait for
     */
    public PlanApply(SavedPlans store, KeyRecords keys, Planner planner,
                     io.keyline.core.CredentialProvider credentials, Reviewer reviewer) {
        this.store = store;
        this.keys = keys;
        this.planner = planner;
        this.credentials = credentials;
        this.reviewer = reviewer;
    }

    /**
     * What applying a plan did.
     *
     * @param report   the run
     * @param after    every planned key as it is now, by key (keys the run did not start too: skipped, blocked,
     *                 not due)
     * @param outcomes what the keys that are done now came to (their steps' answers, masked), by key
     * @param released the job's keys outside the plan that waited for the review the plan made ({@link Run})
     */
    public record Applied(RunReport report, Map<String, KeyRecord> after, Map<String, Outcomes.KeyOutcome> outcomes,
                          List<KeyRecord> released) {
        public Applied(RunReport report, Map<String, KeyRecord> after) {
            this(report, after, Map.of(), List.of());
        }
    }

    /**
     * What applying a plan ran, and what its review let go on besides.
     *
     * @param report   the run of the plan's keys
     * @param released the job's keys outside the plan that waited for the review of its unsafe steps: applying the
     *                 plan reviewed them, and they went back to PENDING (the next run, unattended too, takes them)
     */
    public record Run(RunReport report, List<KeyRecord> released) {
    }

    /** A plan that {@code apply} refused: something changed since it was shown. */
    public static final class StalePlanException extends OperatorException {
        private final transient io.keyline.text.Said changes;

        /** @param changes what changed since the plan was made, or {@code null} when that is not known */
        public StalePlanException(io.keyline.text.Said message, io.keyline.text.Said changes) {
            super(message);
            this.changes = changes;
        }

        /** What changed since the plan was made ("key 2026-11-28: Skipped now, was not started"), or {@code null}. */
        public io.keyline.text.Said changes() {
            return changes;
        }
    }

    /** Makes a plan without keeping it (it cannot be applied): what a run would do, to ask before it runs. */
    public Plan plan(JobDefinition job, List<String> keys, Map<String, io.keyline.text.Said> notes, Planner.Options options) {
        return planner.plan(job, keys, notes, options);
    }

    /** Makes a plan and keeps it for {@link #apply}. */
    public Plan planAndSave(JobDefinition job, List<String> keys, Map<String, io.keyline.text.Said> notes, Planner.Options options) {
        Planner.Planned planned = planner.planned(job, keys, notes, options);
        Plan plan = planned.plan();
        store.savePlan(plan.planId(), job.name(), plan.createdAt(), keys, options(options), planned.inputs());
        return plan;
    }

    /** The saved plan, or a clear refusal. */
    public SavedPlans.SavedPlan saved(String planId) {
        return store.plan(planId).orElseThrow(() -> OperatorException.of(
                "core.refused.noPlan", planId));
    }

    /**
     * The saved plan made again now, the same way; throws {@link StalePlanException} when its id
     * changed (the job file, a body, a probe's answer, a credential or a key's state changed).
     */
    public Plan replan(String planId, Function<String, JobDefinition> jobs) {
        SavedPlans.SavedPlan saved = saved(planId);
        JobDefinition job = jobs.apply(saved.job());
        Planner.Planned planned = planner.planned(job, saved.keys(), Map.of(), options(saved));
        Plan now = planned.plan();
        if (!now.planId().equals(planId)) {
            String again = "keyline plan " + job.name() + (saved.keys().size() == 1 ? " --key "
                    + saved.keys().get(0) : "");
            io.keyline.text.Said changes = Planner.changes(saved.inputs(), planned.inputs(), saved.keys());
            throw new StalePlanException(changes == null
                    ? io.keyline.text.Said.of("core.refused.stalePlan", planId, now.planId(), again)
                    : io.keyline.text.Said.of("core.refused.stalePlanWhat", planId, changes, now.planId(), again),
                    changes);
        }
        return now;
    }

    /**
     * Applies a saved plan: exactly its steps, or a refusal when it is stale. A plan that is applied reviews the
     * job's unsafe steps as it showed them: keys of the plan that waited for that review run as planned, the job's
     * other keys that waited for it go back to PENDING ({@link Run#released}), and unattended runs take the job
     * from then on.
     */
    public Run apply(String planId, Function<String, JobDefinition> jobs, Engine engine) {
        Plan now = replan(planId, jobs);
        JobDefinition job = jobs.apply(now.job());
        List<String> planned = now.keys().stream().map(Plan.KeyPlan::key).toList();
        List<KeyRecord> released = io.keyline.core.Review.hash(job) == null ? List.of()
                : reviewer.applied(job, planId).stream().filter(k -> !planned.contains(k.key())).toList();
        return new Run(engine.run(job, planned, RunRequest.apply(now)), released);
    }

    /** As {@link #apply}, then reads every key of the plan as it is now. */
    public Applied applyAndRead(String planId, Function<String, JobDefinition> jobs, Engine engine) {
        Run run = apply(planId, jobs, engine);
        RunReport report = run.report();
        Map<String, KeyRecord> after = new HashMap<>(keys.keys(report.job(), saved(planId).keys()));
        report.keys().forEach(k -> after.put(k.key(), k));
        Map<String, Outcomes.KeyOutcome> outcomes = Map.of();
        if (credentials != null) {
            JobDefinition job = jobs.apply(report.job());
            List<KeyRecord> records = List.copyOf(after.values());
            outcomes = Outcomes.of(job, records, keys, io.keyline.core.ShownHeaders.secretsOf(job, credentials));
        }
        return new Applied(report, after, outcomes, run.released());
    }

    static String options(Planner.Options o) {
        List<String> out = new ArrayList<>();
        if (o.ahead()) {
            out.add("ahead");
        }
        if (!o.probes()) {
            out.add("no-probes");
        }
        return out.isEmpty() ? null : String.join(",", out);
    }

    static Planner.Options options(SavedPlans.SavedPlan saved) {
        return Planner.Options.DEFAULT.withAhead(saved.has("ahead")).withProbes(!saved.has("no-probes"));
    }
}
