package io.keyline.core.notify;

import io.keyline.core.jobfile.Hook;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyState;

import java.time.Instant;
import java.util.List;

/** The notification outbox in the state (migration V6); the JDBC store implements it. */
public interface NotifyStore {

    /** How far key events have been read for notifications. */
    long cursor();

    /** Moves the cursor forward to {@code eventId} (never back). */
    void advanceCursor(long eventId, Instant now);

    /**
     * Events after {@code afterId} (oldest first, at most {@code limit}) by which a key entered an attention
     * state: FAILED, NEEDS_CONFIRMATION or NEEDS_CREDENTIAL, where its previous event had another state and no
     * later event has moved it to another one.
     */
    List<KeyEvent> attentionEntries(long afterId, int limit);

    /** The id of the newest event older than {@code before}, or {@code afterId} when there is none after it. */
    long lastEventBefore(long afterId, Instant before);

    /**
     * Queues an event for a hook, once: {@code false} when this (dedup, hook) was queued before (by any
     * process).
     */
    boolean enqueue(String dedup, String hook, String eventJson, Instant now);

    /**
     * Takes up to {@code limit} deliveries that are due, for this process until {@code until}; a delivery
     * another process holds is not taken.
     */
    List<Delivery> claimDue(Instant now, String owner, Instant until, int limit);

    /**
     * The keys that wait for a person now (FAILED, NEEDS_CONFIRMATION, NEEDS_CREDENTIAL), those that have
     * waited longest first, at most {@code limit}.
     */
    List<WaitingKey> waiting(int limit);

    /**
     * A key that waits for a person.
     *
     * @param since when it started waiting (its last change: a waiting key is not changed until a person acts)
     */
    record WaitingKey(String job, String key, KeyState state, String step, String credential, Instant since,
                      io.keyline.domain.WaitReason why) {
    }

    /** The event most recently queued whose dedup key starts with {@code prefix} (any hook), if any. */
    java.util.Optional<Queued> latest(String prefix);

    /**
     * An event as it was queued.
     *
     * @param dedup     what it announces
     * @param eventJson the event
     * @param queuedAt  when it was queued
     */
    record Queued(String dedup, String eventJson, Instant queuedAt) {
    }

    /** The earliest next attempt of a pending delivery, or {@code null}. */
    Instant nextDue();

    void delivered(long id, Instant now);

    /** A failed attempt: retried at {@code nextAt}, or given up. */
    void failed(long id, int attempts, Instant nextAt, boolean gaveUp, String error, Instant now);

    /**
     * A queued event for one hook.
     *
     * @param id        row id
     * @param dedup     what it announces (e.g. {@code attention:1234})
     * @param hook      the hook's id ({@link Hook#id()})
     * @param eventJson the redacted event
     * @param attempts  attempts so far
     */
    record Delivery(long id, String dedup, String hook, String eventJson, int attempts) {
    }
}
