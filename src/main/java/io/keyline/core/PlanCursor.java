package io.keyline.core;

import io.keyline.core.exec.Rendering;
import io.keyline.core.exec.StepContext;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.ProbeAnswer;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepKind;
import io.keyline.text.Said;

import java.util.List;
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

    /** The redo of a step's life its request's {@code Idempotency-Key} names ({@link Redos}). */
    private final java.util.function.ToIntFunction<StepDefinition> redo;

    /**
     * @param expected what the plan showed for the key, or {@code null} when no plan is applied
     * @param redo     the redo of a step's life, as the key's history says now
     */
    PlanCursor(Plan.Expectation expected, java.util.function.ToIntFunction<StepDefinition> redo) {
        this.expected = expected;
        this.redo = redo;
    }

    /** Why executing or reconciling {@code a} would depart from the plan being applied, or {@code null}. */
    Said departure(Claim c, KeyDecision.Action a, StepDefinition step) {
        if (expected == null || a.kind() == KeyDecision.ActionKind.PROBE) {
            return null;
        }
        List<Plan.PlannedStep> path = expected.path();
        Plan.PlannedStep next = cursor < path.size() ? path.get(cursor) : null;
        int back = next == null ? -1 : goneBackTo(c.job, next, step, path);
        if (back >= 0) {
            // the planned step was answered "try again" and its retry goes back to this one (retryFrom): the plan's
            // path from here is walked again, as the job says
            cursor = back;
            next = path.get(cursor);
        }
        boolean reconcile = a.kind() == KeyDecision.ActionKind.RECONCILE;
        if (next == null) {
            if (reconcile && step.id().equals(expected.stopStep()) && expected.stopProbe() == ProbeAnswer.NOT_ASKED) {
                return null;
            }
            Said would = Said.of(reconcile ? "core.departure.wouldReconcile" : "core.departure.wouldRun");
            String probe = a.probe() == null ? "" : "Probe";
            return expected.stopStep() == null
                    ? Said.of("core.departure.endsBefore" + probe, step.id(), would, answer(a.probe()))
                    : Said.of("core.departure.endsAt" + probe, step.id(), would, answer(a.probe()),
                            expected.stopStep(), Said.of("core.stopKind." + expected.stopKind().name()));
        }
        if (!next.step().equals(step.id())) {
            return Said.of("core.departure.otherStep", next.step(), step.id());
        }
        if (reconcile) {
            if (next.executes() && next.probe() != ProbeAnswer.NOT_ASKED) {
                return Said.of("core.departure.presentNow", next.probe() == null
                        ? Said.of("core.departure.withoutProbe") : answer(next.probe()), step.id());
            }
            return null;
        }
        if (!next.executes()) {
            return Said.of("core.departure.notPresentNow", step.id(), answered(a.probe()));
        }
        if (next.probe() != null && next.probe() != ProbeAnswer.NOT_ASKED && a.probe() != next.probe()) {
            return Said.of("core.departure.otherAnswer", answered(a.probe()), answer(next.probe()));
        }
        if (next.boundSha256() != null && step.kind() == StepKind.HTTP) {
            List<String> before = path.subList(0, cursor).stream().map(Plan.PlannedStep::step).toList();
            String now = ShownBody.boundHash(new StepContext(c.job, step, c.key(), "{runId}", 1, Map.copyOf(c.outputs),
                    null, UnaryOperator.identity(), redo.applyAsInt(step)), before);
            if (!next.boundSha256().equals(now)) {
                return Said.of("core.departure.requestChanged", step.id(), next.boundSha256().substring(0, 12),
                        now == null ? Said.of("core.departure.cannotRender") : Said.plain(now.substring(0, 12) + "…"));
            }
        }
        if (next.bodySha256() != null && step.kind() == StepKind.HTTP) {
            String now = bodySha(c, step);
            if (!next.bodySha256().equals(now)) {
                return Said.of("core.departure.bodyChanged", step.id(), next.bodySha256().substring(0, 12),
                        now == null ? Said.of("core.departure.cannotRead")
                                : Said.plain("sha256 " + now.substring(0, 12) + "…"));
            }
        }
        return null;
    }

    /**
     * The index of {@code step} on the path when the planned step {@code next} goes back to it for a retry (its
     * {@code retryFrom}) and the path showed it before; else -1.
     */
    private int goneBackTo(JobDefinition job, Plan.PlannedStep next, StepDefinition step, List<Plan.PlannedStep> path) {
        StepDefinition planned = job.step(next.step());
        if (planned == null || !step.id().equals(planned.retryFrom())) {
            return -1;
        }
        for (int i = 0; i < cursor; i++) {
            if (path.get(i).step().equals(step.id())) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Why stopping with {@code stop} would depart from the plan being applied, or {@code null}: the job's own
     * probe found the key's work there although the plan showed it absent (and the steps to run).
     */
    Said departure(KeyDecision.Stop stop) {
        if (expected == null || stop.kind() != KeyDecision.StopKind.ALREADY_PRESENT || expected.keyProbe() == null
                || expected.keyProbe() == ProbeAnswer.NOT_ASKED || expected.keyProbe() == ProbeAnswer.PRESENT) {
            return null;
        }
        return expected.path().isEmpty() ? Said.of("core.departure.jobProbePresent", answer(expected.keyProbe()))
                : Said.of("core.departure.jobProbePresentRun", answer(expected.keyProbe()),
                        expected.path().get(0).step());
    }

    /** A probe's answer in words ({@code present}), or nothing. */
    private static Said answer(ProbeAnswer a) {
        return a == null ? Said.plain("") : Said.of("core.probeAnswer." + a.name());
    }

    /** What a probe answered, {@code nothing} when it was not asked. */
    private static Said answered(ProbeAnswer a) {
        return a == null ? Said.of("core.departure.nothing") : answer(a);
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
