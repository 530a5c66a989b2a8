package io.keyline.core.operations;

import io.keyline.core.Engine;
import io.keyline.core.OperatorActions;
import io.keyline.core.RunReport;
import io.keyline.core.KeyRecords;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.OperatorMoves;
import io.keyline.domain.WaitReason;
import io.keyline.text.Said;

import java.util.ArrayList;
import java.util.List;

/**
 * The operator's actions on one key that are more than one call: retry-and-run (re-arm a failed
 * key, then run it now), run-now (an interrupted key resumes where it stopped) and rearm (a done key's
 * steps run again), each with one sentence that says what happened. {@code keyline retry --run},
 * {@code keyline rearm} and the console's Retry, Run now and Rearm… call these.
 */
public final class KeyActions {

    private final KeyRecords store;
    private final OperatorActions actions;

    public KeyActions(KeyRecords store, OperatorActions actions) {
        this.store = store;
        this.actions = actions;
    }

    /**
     * What an action did to a key.
     *
     * @param job    job
     * @param key    key
     * @param after  the key when the action (and its run, if any) ended
     * @param report the run, or {@code null} when nothing ran
     */
    public record Outcome(String job, String key, KeyRecord after, RunReport report) {
    }

    /**
     * Refuses a move an operator chose on a key as a screen showed it ({@code shown}, waiting for {@code why}) when the
     * key is in another state now: a move that the new state allows too (a retry of a key someone skipped meanwhile)
     * would otherwise be done to a key the operator did not see. Asked right before the move, in the background.
     *
     * @throws io.keyline.core.OperatorException when the key's state (or whether it waits for its job's review) is
     *                                           not the one shown, or the key is gone
     */
    public void requireAsShown(String job, String key, KeyState shown, WaitReason why) {
        KeyRecord now = store.key(job, key).orElse(null);
        if (now == null) {
            throw io.keyline.core.OperatorException.of("core.refused.neverRan", key, job);
        }
        if (now.state() != shown || OperatorMoves.heldForReview(now.state(), now.waitReason())
                != OperatorMoves.heldForReview(shown, why)) {
            throw io.keyline.core.OperatorException.of("core.refused.notAsShown", job, key,
                    Said.of(stateKey(shown, why)), Said.of(stateKey(now.state(), now.waitReason())));
        }
    }

    private static String stateKey(KeyState s, WaitReason why) {
        return OperatorMoves.heldForReview(s, why) ? "common.state.NEEDS_REVIEW" : "common.state." + s.name();
    }

    /** Re-arms a FAILED (or skipped, or credential-parked) key with a fresh retry budget, then runs it now. */
    public Outcome retryAndRun(JobDefinition job, String key, String note, Engine engine) {
        return retryAndRun(job, key, note, null, engine);
    }

    /**
     * As {@link #retryAndRun(JobDefinition, String, String, Engine)}, going back to {@code fromStep} first: it and
     * the steps after it run again, their outputs discarded ({@link OperatorActions#retry(JobDefinition, String,
     * String, String)}).
     */
    public Outcome retryAndRun(JobDefinition job, String key, String note, String fromStep, Engine engine) {
        actions.retry(job, key, note, fromStep);
        return run(job, key, engine);
    }

    /** Re-arms a key without running it ({@code fromStep}: see {@link #retryAndRun}); returns it as stored now. */
    public KeyRecord retry(JobDefinition job, String key, String note, String fromStep) {
        return actions.retry(job, key, note, fromStep);
    }

    /**
     * Retries several failed keys of one job that share a cause, then runs them in one run.
     *
     * @return one outcome per key, in order
     */
    public List<Outcome> retryAndRun(JobDefinition job, List<String> keys, String note, Engine engine) {
        List<String> rearmed = new ArrayList<>();
        for (String k : keys) {
            actions.retry(job, k, note);
            rearmed.add(k);
        }
        RunReport r = engine.run(job, rearmed);
        List<Outcome> out = new ArrayList<>();
        for (String k : rearmed) {
            out.add(new Outcome(job.name(), k, store.key(job.name(), k).orElse(null), r));
        }
        return out;
    }

    /** Runs the keys now (in target order); says how the run ended: "Run finished: 3 done, 1 failed". */
    public String runNow(JobDefinition job, List<String> keys, Engine engine) {
        RunReport r = engine.run(job, keys);
        String finished = r.stopped() != null ? r.stopped() : Words.counts(Words.countsOf(r.keys()));
        if (r.notYetDue().isEmpty()) {
            return io.keyline.text.Text.t("core.keyActions.runFinished", finished);
        }
        // a key later than the current one was passed by: say how many and why, or the count would hide them
        List<String> left = r.notYetDue();
        String which = left.size() <= 3 ? String.join(", ", left) : left.get(0) + " .. " + left.get(left.size() - 1);
        String why = io.keyline.text.Text.t("core.keyActions.notYetDue", left.size(), which);
        return r.keys().isEmpty() && r.stopped() == null ? io.keyline.text.Text.t("core.keyActions.nothingRan", why)
                : io.keyline.text.Text.t("core.keyActions.runFinishedLeft", finished, why);
    }

    /** Runs a key now (an interrupted one resumes at the step where it stopped). */
    public Outcome run(JobDefinition job, String key, Engine engine) {
        RunReport r = engine.run(job, List.of(key));
        KeyRecord after = r.keys().stream().filter(k -> k.key().equals(key)).findFirst()
                .orElseGet(() -> store.key(job.name(), key).orElse(null));
        return new Outcome(job.name(), key, after, r);
    }

    /**
     * Re-arms a DONE key: its steps (all, or from {@code fromStep} on) run again at the next run; an
     * unsafe step still goes through its probe.
     */
    public Outcome rearm(JobDefinition job, String key, String note, String fromStep) {
        KeyRecord after = actions.rearm(job, key, note, fromStep);
        return new Outcome(job.name(), key, after, null);
    }

    /** "re-armed (all steps)" / "re-armed from step publish", and what happens next. */
    public static String rearmed(String fromStep) {
        return fromStep == null ? io.keyline.text.Text.t("core.keyActions.rearmedAll")
                : io.keyline.text.Text.t("core.keyActions.rearmedFrom", fromStep);
    }
}
