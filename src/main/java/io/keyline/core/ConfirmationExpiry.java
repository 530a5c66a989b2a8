package io.keyline.core;

import io.keyline.domain.ConfirmExpiry;
import io.keyline.domain.EventType;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.KeyStateMachine;
import io.keyline.domain.Trigger;
import io.keyline.text.Said;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Ends the waits for a confirmation that outlived their step's {@code expireAfter}: the key is skipped or
 * failed as the step says, with an event of its own ({@link EventType#CONFIRMATION_EXPIRED}). A key is never
 * confirmed by this: the waiting step does not run. Runs and the scheduler apply it to the jobs they look at;
 * a key that changed meanwhile (a person confirmed it) is left as it is.
 */
final class ConfirmationExpiry {

    private ConfirmationExpiry() {
    }

    /**
     * Expires what is due in {@code job} at {@code now}.
     *
     * @return the keys that expired, as written
     */
    static List<KeyRecord> apply(EngineContext ctx, JobDefinition job, Instant now) {
        if (job.steps().stream().noneMatch(s -> s.expiry() != null)) {
            return List.of();
        }
        List<KeyChanges.Change> moves = new ArrayList<>();
        for (KeyRecord r : ctx.keys.query(KeyRecords.KeyQuery.in(job.name(), Set.of(KeyState.NEEDS_CONFIRMATION)))) {
            ConfirmExpiry e = Waiting.expiry(job, r);
            Instant at = Waiting.expiresAt(job, r);
            if (e == null || at == null || now.isBefore(at)) {
                continue;
            }
            Trigger t = e.then() == ConfirmExpiry.Then.SKIP ? Trigger.EXPIRE_TO_SKIPPED : Trigger.EXPIRE_TO_FAILED;
            KeyState to = KeyStateMachine.apply(r.state(), t);
            Said msg = Said.of("core.event.expired", r.step(), e.afterText(), r.updatedAt(),
                    Said.of(to == KeyState.SKIPPED ? "core.event.expired.skipped" : "core.event.expired.failed"));
            KeyRecord after = r.withState(to).withFailureWords(null, msg).withConfirmation(null, null)
                    .withNextAttemptAt(null).withUpdatedAt(now);
            moves.add(new KeyChanges.Change(r, after, null, KeyEvent.said(r.job(), r.key(), now, null,
                    EventType.CONFIRMATION_EXPIRED, r.step(), r.attempts(), to, null, msg, null, null, null)));
        }
        if (moves.isEmpty()) {
            return List.of();
        }
        List<KeyRecord> written = ctx.changes.applyAll(moves);
        for (KeyRecord k : written) {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("job", k.job());
            line.put("key", k.key());
            line.put("step", k.step());
            line.put("state", k.state().name());
            line.put("message", k.message());
            try {
                ctx.trace.other(now, "expired", line);
            } catch (RuntimeException ex) {
                // the event in the state is the record; the run log is a copy for tools
            }
        }
        return written;
    }
}
