package io.keyline.core;

import io.keyline.core.exec.Rendering;
import io.keyline.core.exec.StepContext;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.ProbeAnswer;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepKind;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Where an applied plan's key is on its planned path: before each reconcile or execution the run asks
 * whether the action is the one the plan showed next (the same step, the same probe answer, the same request
 * template with the same values known at plan time, the same body); if not, the key stops there with the
 * reason instead of doing something the operator did not see.
 */
final class PlanCursor {

    private final Plan.Expectation expected;
    private int cursor;

    /** @param expected what the plan showed for the key, or {@code null} when no plan is applied */
    PlanCursor(Plan.Expectation expected) {
        this.expected = expected;
    }

    /** Why executing or reconciling {@code a} would depart from the plan being applied, or {@code null}. */
    String departure(Claim c, KeyDecision.Action a, StepDefinition step) {
        if (expected == null || a.kind() == KeyDecision.ActionKind.PROBE) {
            return null;
        }
        List<Plan.PlannedStep> path = expected.path();
        Plan.PlannedStep next = cursor < path.size() ? path.get(cursor) : null;
        boolean reconcile = a.kind() == KeyDecision.ActionKind.RECONCILE;
        if (next == null) {
            if (reconcile && step.id().equals(expected.stopStep()) && expected.stopProbe() == ProbeAnswer.NOT_ASKED) {
                return null;
            }
            return "the plan ends " + (expected.stopStep() == null ? "before" : "at " + expected.stopStep() + " ("
                    + expected.stopKind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + ")")
                    + ", but now " + step.id() + " would " + (reconcile ? "be reconciled" : "run")
                    + (a.probe() == null ? "" : " (its probe answered " + a.probe().word() + ")");
        }
        if (!next.step().equals(step.id())) {
            return "the plan's next step is " + next.step() + ", but now " + step.id() + " would run";
        }
        if (reconcile) {
            if (next.executes() && next.probe() != ProbeAnswer.NOT_ASKED) {
                return "its probe answered present; the plan showed it " + (next.probe() == null ? "without probe"
                        : next.probe().word()) + " and " + step.id() + " to be executed";
            }
            return null;
        }
        if (!next.executes()) {
            return "the plan showed " + step.id() + " as already present (reconciled); now its probe answered "
                    + (a.probe() == null ? "nothing" : a.probe().word());
        }
        if (next.probe() != null && next.probe() != ProbeAnswer.NOT_ASKED && a.probe() != next.probe()) {
            return "its probe answered " + (a.probe() == null ? "nothing" : a.probe().word())
                    + "; the plan showed " + next.probe().word();
        }
        if (next.boundSha256() != null && step.kind() == StepKind.HTTP) {
            List<String> before = path.subList(0, cursor).stream().map(Plan.PlannedStep::step).toList();
            String now = ShownBody.boundHash(new StepContext(c.job, step, c.key(), "{runId}", 1, Map.copyOf(c.outputs),
                    null, UnaryOperator.identity()), before);
            if (!next.boundSha256().equals(now)) {
                return "the request of " + step.id() + " is not the one the plan showed: its template or a value "
                        + "known when the plan was made changed (plan: " + next.boundSha256().substring(0, 12)
                        + "…, now: " + (now == null ? "cannot be rendered" : now.substring(0, 12) + "…") + ")";
            }
        }
        if (next.bodySha256() != null && step.kind() == StepKind.HTTP) {
            String now = bodySha(c, step);
            if (!next.bodySha256().equals(now)) {
                return "the body of " + step.id() + " changed since the plan (plan: sha256 "
                        + next.bodySha256().substring(0, 12) + "…, now: "
                        + (now == null ? "cannot be read" : "sha256 " + now.substring(0, 12) + "…") + ")";
            }
        }
        return null;
    }

    /**
     * Why stopping with {@code stop} would depart from the plan being applied, or {@code null}: the job's own
     * probe found the key's work there although the plan showed it absent (and the steps to run).
     */
    String departure(KeyDecision.Stop stop) {
        if (expected == null || stop.kind() != KeyDecision.StopKind.ALREADY_PRESENT || expected.keyProbe() == null
                || expected.keyProbe() == ProbeAnswer.NOT_ASKED || expected.keyProbe() == ProbeAnswer.PRESENT) {
            return null;
        }
        return "the job's probe answered present; the plan showed it " + expected.keyProbe().word()
                + (expected.path().isEmpty() ? "" : " and " + expected.path().get(0).step() + " to run");
    }

    /** The action was done as planned: the cursor moves past it. */
    void advance(KeyDecision.Action a) {
        if (expected != null && cursor < expected.path().size()
                && expected.path().get(cursor).step().equals(a.step())) {
            cursor++;
        }
    }

    private static String bodySha(Claim c, StepDefinition step) {
        JobDefinition job = c.job;
        try {
            Rendering.RenderedRequest r = Rendering.request(new StepContext(job, step, c.key(), c.runId, 1,
                    Map.copyOf(c.outputs), null, UnaryOperator.identity()));
            return r.body().length == 0 ? null : r.bodySha256();
        } catch (Rendering.RenderException e) {
            return null;
        }
    }
}
