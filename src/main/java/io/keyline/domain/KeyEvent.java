package io.keyline.domain;

import io.keyline.text.Said;

import java.time.Instant;

/**
 * One entry of a key's append-only history, written in the same transaction as the state change.
 *
 * @param id           store-assigned sequence (0 before it is stored)
 * @param job          job name
 * @param key          key
 * @param ts           when
 * @param runId        run that wrote it (null for operator actions outside a run)
 * @param type         what happened
 * @param step         step concerned, or {@code null}
 * @param attempt      attempt number of that step, or 0
 * @param state        key state after the event
 * @param failureClass failure class, or {@code null}
 * @param message      human-readable, never a secret: the English words, as machine output and exports keep them
 * @param user         OS user for operator actions, else {@code null}
 * @param note         operator's note, or {@code null}
 * @param evidence     what was sent and received, secrets redacted, or {@code null}
 * @param probe        the answer of the step's probe this event records (a reconcile, a wait that its probe
 *                     decided, an inconclusive probe's retry), or {@code null} when the event records no probe
 * @param said         the same message as a bundle key and its arguments, said in the language in use where it is
 *                     shown, or {@code null} for an event stored before events kept it (its {@code message} is
 *                     what there is)
 * @param waitReason   why the event left its key waiting in NEEDS_CONFIRMATION, or {@code null}: in any other state,
 *                     and for a wait stored before events kept it
 */
public record KeyEvent(long id, String job, String key, Instant ts, String runId, EventType type, String step,
                       int attempt, KeyState state, FailureClass failureClass, String message, String user,
                       String note, Evidence evidence, ProbeAnswer probe, Said said, WaitReason waitReason) {

    /** An event that leaves no reason of a wait. */
    public KeyEvent(long id, String job, String key, Instant ts, String runId, EventType type, String step,
                    int attempt, KeyState state, FailureClass failureClass, String message, String user,
                    String note, Evidence evidence, ProbeAnswer probe, Said said) {
        this(id, job, key, ts, runId, type, step, attempt, state, failureClass, message, user, note, evidence, probe,
                said, null);
    }

    /** An event whose message has only its English words. */
    public KeyEvent(long id, String job, String key, Instant ts, String runId, EventType type, String step,
                    int attempt, KeyState state, FailureClass failureClass, String message, String user,
                    String note, Evidence evidence, ProbeAnswer probe) {
        this(id, job, key, ts, runId, type, step, attempt, state, failureClass, message, user, note, evidence, probe,
                null);
    }

    /**
     * An event not stored yet (its id is 0: the store numbers events as it writes them) whose message is
     * {@code said}: its English words are the stored {@code message}.
     */
    public static KeyEvent said(String job, String key, Instant ts, String runId, EventType type,
                                String step, int attempt, KeyState state, FailureClass failureClass, Said said,
                                String user, String note, Evidence evidence) {
        return new KeyEvent(0, job, key, ts, runId, type, step, attempt, state, failureClass, said.english(), user,
                note, evidence, null, said);
    }

    /** An event that records no probe's answer. */
    public KeyEvent(long id, String job, String key, Instant ts, String runId, EventType type, String step,
                    int attempt, KeyState state, FailureClass failureClass, String message, String user,
                    String note, Evidence evidence) {
        this(id, job, key, ts, runId, type, step, attempt, state, failureClass, message, user, note, evidence, null);
    }

    /** The same event recording the answer of its step's probe. */
    public KeyEvent withProbe(ProbeAnswer answer) {
        return new KeyEvent(id, job, key, ts, runId, type, step, attempt, state, failureClass, message, user, note,
                evidence, answer, said, waitReason);
    }

    /**
     * The same event leaving its key waiting for {@code why}; kept only when the event leaves the key in
     * NEEDS_CONFIRMATION.
     */
    public KeyEvent withWaitReason(WaitReason why) {
        return new KeyEvent(id, job, key, ts, runId, type, step, attempt, state, failureClass, message, user, note,
                evidence, probe, said, state == KeyState.NEEDS_CONFIRMATION ? why : null);
    }
}
