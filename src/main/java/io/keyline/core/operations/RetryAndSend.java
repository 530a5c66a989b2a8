package io.keyline.core.operations;

import io.keyline.core.CredentialProvider;
import io.keyline.core.DecisionInputs;
import io.keyline.core.Engine;
import io.keyline.core.KeyDecision;
import io.keyline.core.KeyRecords;
import io.keyline.core.OperatorActions;
import io.keyline.core.OperatorException;
import io.keyline.core.WorkerRegistry;
import io.keyline.domain.Effect;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.OperatorMoves;
import io.keyline.domain.ProbeAnswer;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepRecord;
import io.keyline.domain.Trigger;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Retry, shown before it sends: for each key a retry would re-arm, the first unsafe step its run would
 * execute and exactly what that step sends now (the confirm dialog's payload: method, URL, masked headers,
 * body and its hash). Which step that is comes from {@link KeyDecision} (the path of the re-armed key, its
 * probes not asked yet: the run asks them right before the step), the same rule the engine follows. The
 * retry itself refuses when what it would send changed since it was shown.
 */
public record RetryAndSend(KeyRecords store, CredentialProvider credentials, WorkerRegistry holders,
                           ConfirmAndRun confirm, KeyActions actions, Clock clock) {

    /**
     * What the retry of one key would send.
     *
     * @param record  the key before the retry
     * @param step    the first unsafe step its run executes
     * @param before  the steps its run executes before that one (their outputs may still change what it sends)
     * @param payload what the step sends now, with the hash the retry is bound to
     */
    public record Send(KeyRecord record, StepDefinition step, List<String> before, ConfirmAndRun.Payload payload) {
        public String key() {
            return record.key();
        }

        /** Whether the payload could be rendered (it has a hash to bind). */
        public boolean shown() {
            return payload != null && payload.hash() != null;
        }
    }

    /**
     * What retrying {@code keys} would send through an unsafe step, in key order; keys whose retried run
     * executes no unsafe step (or that cannot be retried) are left out: an empty list means nothing unsafe
     * is sent.
     */
    public List<Send> preview(JobDefinition job, List<String> keys) {
        DecisionInputs inputs = DecisionInputs.of(job, false, clock, holders, Duration.ZERO);
        Map<String, KeyDecision.CredentialState> creds = DecisionInputs.credentials(job, credentials);
        List<Send> out = new ArrayList<>();
        for (String key : keys) {
            KeyRecord rec = store.key(job.name(), key).orElse(null);
            if (rec == null || !OperatorMoves.of(rec).allows(Trigger.RETRY)) {
                continue;
            }
            KeyRecord armed = OperatorActions.armedForRetry(rec);
            Map<String, StepRecord> steps = store.steps(job.name(), key);
            KeyDecision.Path path = KeyDecision.project(inputs.planned(key, armed, steps, creds, null, clock.instant(),
                    null), (step, before) -> ProbeAnswer.NOT_ASKED);
            List<String> before = new ArrayList<>();
            for (KeyDecision.Action a : path.actions()) {
                if (a.kind() != KeyDecision.ActionKind.EXECUTE) {
                    continue;
                }
                StepDefinition s = job.step(a.step());
                if (s.effect() == Effect.UNSAFE) {
                    out.add(new Send(rec, s, List.copyOf(before), confirm.payloadOf(job, armed, s)));
                    break;
                }
                before.add(s.id());
            }
        }
        return out;
    }

    /**
     * The value that stands for what was shown of a send in {@link #retryAndRun}: its payload hash, or an empty
     * string when it could not be rendered (the reason was shown instead).
     */
    public static String hashShown(Send s) {
        return s.payload() == null || s.payload().hash() == null ? "" : s.payload().hash();
    }

    /**
     * Retries the keys and runs them now, if every payload shown ({@code shownHashes}: key → {@link #hashShown}
     * of what was shown) is still what would be sent; otherwise refuses and re-arms nothing.
     *
     * @throws OperatorException naming the key whose request changed since it was shown
     */
    public List<KeyActions.Outcome> retryAndRun(JobDefinition job, List<String> keys, String note,
                                                Map<String, String> shownHashes, Engine engine) {
        for (Send s : preview(job, keys)) {
            String shown = shownHashes.get(s.key());
            if (shown == null || !Objects.equals(shown, hashShown(s))) {
                throw OperatorException.of(shown == null ? "core.refused.retryNotShown"
                        : "core.refused.retryChanged", s.key(), s.step().id());
            }
        }
        return actions.retryAndRun(job, keys, note, engine);
    }
}
