package io.keyline.core.operations;

import io.keyline.core.CredentialProvider;
import io.keyline.core.ShownHeaders;
import io.keyline.core.KeyEvents;
import io.keyline.core.KeyRecords;
import io.keyline.domain.EventType;
import io.keyline.domain.Evidence;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.Printable;
import io.keyline.domain.WaitReason;
import io.keyline.text.Said;
import io.keyline.text.Text;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A key's history as an operator reads it: its events grouped by run (operator actions outside a run
 * form their own group), each in plain words, with the key's current record and, for a done key, what
 * it came to. The console's timeline shows it; {@code keyline timeline} prints the same evidence text.
 */
public final class Timeline {

    private Timeline() {
    }

    /** One row: a run header or an event. */
    public sealed interface Row permits RunHeader, EventRow {
    }

    /**
     * The header of a group of events.
     *
     * @param runId    the run, or {@code null} for operator actions outside a run
     * @param start    first event
     * @param end      last event
     * @param events   events in the group
     * @param failures failed attempts in the group
     * @param outcome  key state after the group's last event
     * @param outcomeWaitReason why the group's last event left the key waiting in NEEDS_CONFIRMATION, or {@code null}
     * @param executed time spent in the group's step executions (each attempt from "started" to its
     *                 success or failure; waits between attempts and before the first step do not count), or
     *                 {@code null} when the group has no finished step execution
     */
    public record RunHeader(String runId, Instant start, Instant end, int events, int failures, KeyState outcome,
                            WaitReason outcomeWaitReason, Duration executed) implements Row {
        /** A wait this long (or longer) inside a run is said beside its duration: "2 min 21 s (steps 191 ms)". */
        static final Duration WAIT_SHOWN = Duration.ofSeconds(1);

        public boolean operator() {
            return runId == null;
        }

        /** How long the run lasted for the key: from its first event (the claim) to its last. */
        public Duration duration() {
            return start == null || end == null || end.isBefore(start) ? Duration.ZERO : Duration.between(start, end);
        }

        /**
         * The time its step executions took, when the run also waited a while (queued behind other keys of a
         * backfill, a retry waited for in place); {@code null} when that is (about) the whole run.
         */
        public Duration stepsWhenWaited() {
            return executed == null || duration().minus(executed).compareTo(WAIT_SHOWN) < 0 ? null : executed;
        }

        public String title() {
            return operator() ? Text.t("core.timeline.operator") : Text.t("core.timeline.run", runId);
        }

        /** "2026-11-29 09:00:00 · 4.2 s · 7 events · 1 failure"; a run that waited: "… · 2 min 21 s (steps 191 ms) · …". */
        public String summary() {
            StringBuilder sb = new StringBuilder(EvidenceText.time(start));
            if (!operator()) {
                Duration steps = stepsWhenWaited();
                sb.append(" · ").append(steps == null ? EvidenceText.duration(duration())
                        : Text.t("core.timeline.tookWithSteps", EvidenceText.duration(duration()),
                        EvidenceText.duration(steps)));
            }
            sb.append(" · ").append(Text.t("core.timeline.events", events));
            if (failures > 0) {
                sb.append(" · ").append(Text.t("core.timeline.failures", failures));
            }
            return sb.toString();
        }
    }

    /**
     * One event of the key's history.
     *
     * @param id            store sequence
     * @param runId         run, or {@code null}
     * @param ts            when
     * @param sincePrevious time since the previous event of the same group, or {@code null} for the first
     * @param type          what happened
     * @param step          step, or {@code null}
     * @param attempt       attempt of the step, or 0
     * @param state         key state after the event
     * @param stateChanged  whether the event changed the key's state
     * @param failureClass  failure class, or {@code null}
     * @param message       message (one printable line; a probe's answer in plain words)
     * @param user          operator (operator actions), or {@code null}
     * @param note          operator's note, or {@code null}
     * @param evidence      evidence, or {@code null}
     * @param words         the words the event keeps (they say the evidence's detail), or {@code null}
     * @param waitReason    why the event left the key waiting in NEEDS_CONFIRMATION, or {@code null} (also for a
     *                      wait stored before events kept it)
     */
    public record EventRow(long id, String runId, Instant ts, Duration sincePrevious, EventType type, String step,
                           int attempt, KeyState state, boolean stateChanged, FailureClass failureClass, String message,
                           String user, String note, Evidence evidence, Said words, WaitReason waitReason)
            implements Row {

        private static final Set<EventType> FAILURES = EnumSet.of(EventType.STEP_FAILED, EventType.KEY_FAILED,
                EventType.RETRY_SCHEDULED, EventType.WAITING_FOR_CONFIRMATION, EventType.WAITING_FOR_CREDENTIAL,
                EventType.DEPARTED);

        /**
         * A failed attempt, or the key stopping to wait for a person; not the key held for its job's review, which
         * sent nothing ({@link #review()}).
         */
        public boolean failure() {
            return failureClass != null || FAILURES.contains(type) && !review();
        }

        /** The key held for its job's review (a wait in NEEDS_CONFIRMATION for the reason REVIEW). */
        public boolean review() {
            return type == EventType.WAITING_FOR_CONFIRMATION && waitReason == WaitReason.REVIEW;
        }

        public boolean operatorAction() {
            return user != null;
        }

        public boolean hasEvidence() {
            return evidence != null;
        }

        /** "publish #2", "publish", or "". */
        public String stepAttempt() {
            if (step == null) {
                return "";
            }
            return attempt > 0 ? step + " #" + attempt : step;
        }

        /** "Step failed", "Waits for login", "Waits for the review", … */
        public String typeLabel() {
            return Words.event(type, waitReason);
        }

        /** "Outcome unknown", "Refused", … or empty. */
        public String failureLabel() {
            return Words.failure(failureClass);
        }

        /** "by alice: checked the site" for operator actions, else "". */
        public String byline() {
            if (user == null) {
                return "";
            }
            return note == null || note.isBlank() ? Text.t("core.timeline.by", user)
                    : Text.t("core.timeline.byWithNote", user, note);
        }

        public String evidenceText() {
            return EvidenceText.format(evidence, words);
        }
    }

    /**
     * A key's timeline.
     *
     * @param record   the key now, or {@code null} when it never ran
     * @param rows     run headers and events, oldest first
     * @param events   number of events
     * @param outcome  what a done key came to, or {@code null}
     */
    public record View(KeyRecord record, List<Row> rows, int events, Outcomes.KeyOutcome outcome) {
        /** The latest event with evidence of a failure in the newest run, or {@code null}. */
        public EventRow latestFailure() {
            for (int i = rows.size() - 1; i >= 0; i--) {
                Row r = rows.get(i);
                if (r instanceof RunHeader) {
                    return null;
                }
                if (r instanceof EventRow e && e.hasEvidence() && e.failure()) {
                    return e;
                }
            }
            return null;
        }

        /** The index of the newest run's header (where the list scrolls to), or -1. */
        public int newestRun() {
            for (int i = rows.size() - 1; i >= 0; i--) {
                if (rows.get(i) instanceof RunHeader) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** Reads a key's record, events and (for a done key) outcome. */
    public static View load(KeyRecords store, KeyEvents history, CredentialProvider credentials,
                            Optional<JobDefinition> job, String name, String key) {
        KeyRecord rec = store.key(name, key).orElse(null);
        List<KeyEvent> events = history.events(name, key);
        Outcomes.KeyOutcome outcome = null;
        if (rec != null && rec.state() == KeyState.DONE && job.isPresent()) {
            outcome = Outcomes.of(job.get(), rec, store.steps(name, key),
                    store.finishingRuns(name, List.of(key)).get(key), ShownHeaders.secretsOf(job.get(), credentials));
        }
        return new View(rec, group(events), events.size(), outcome);
    }

    /** Events that end a step's attempt (its execution time runs from "started" to the first of them). */
    private static final Set<EventType> ATTEMPT_ENDS = EnumSet.of(EventType.STEP_SUCCEEDED, EventType.STEP_RECONCILED,
            EventType.STEP_FAILED, EventType.KEY_FAILED, EventType.RETRY_SCHEDULED,
            EventType.WAITING_FOR_CONFIRMATION, EventType.WAITING_FOR_CREDENTIAL, EventType.YIELDED,
            EventType.DEPARTED);

    /** Groups events (oldest first) into consecutive runs; operator events outside a run form their own group. */
    public static List<Row> group(List<KeyEvent> events) {
        List<Row> out = new ArrayList<>(events.size() + events.size() / 4 + 1);
        int headerAt = -1;
        String run = null;
        boolean open = false;
        Instant start = null;
        Instant previous = null;
        KeyState previousState = null;
        int count = 0;
        int failures = 0;
        KeyState last = null;
        WaitReason lastWhy = null;
        Duration executed = null;
        java.util.Map<String, Instant> started = new java.util.HashMap<>();
        for (KeyEvent e : events) {
            boolean sameGroup = open && Objects.equals(run, e.runId());
            if (!sameGroup) {
                if (open) {
                    out.set(headerAt, new RunHeader(run, start, previous, count, failures, last, lastWhy, executed));
                }
                executed = null;
                started.clear();
                headerAt = out.size();
                out.add(null);
                run = e.runId();
                open = true;
                start = e.ts();
                previous = null;
                count = 0;
                failures = 0;
            }
            Duration since = previous == null || e.ts() == null ? null : Duration.between(previous, e.ts());
            String message = message(e);
            out.add(new EventRow(e.id(), e.runId(), e.ts(), since, e.type(), e.step(), e.attempt(), e.state(),
                    previousState != e.state(), e.failureClass(), message, e.user(),
                    e.note() == null ? null : Printable.line(e.note()), e.evidence(), e.said(), e.waitReason()));
            count++;
            if (e.type() == EventType.STEP_FAILED || e.type() == EventType.KEY_FAILED
                    || e.type() == EventType.RETRY_SCHEDULED && e.evidence() != null) {
                failures++;
            }
            if (e.step() != null && e.ts() != null) {
                if (e.type() == EventType.STEP_STARTED) {
                    started.put(e.step(), e.ts());
                } else if (ATTEMPT_ENDS.contains(e.type())) {
                    Instant from = started.remove(e.step());
                    if (from != null && !e.ts().isBefore(from)) {
                        executed = (executed == null ? Duration.ZERO : executed).plus(Duration.between(from, e.ts()));
                    }
                }
            }
            previous = e.ts();
            previousState = e.state();
            last = e.state();
            lastWhy = e.waitReason();
        }
        if (open) {
            out.set(headerAt, new RunHeader(run, start, previous, count, failures, last, lastWhy, executed));
        }
        return out;
    }

    /**
     * An event's message as the timeline says it: worded from the event itself where the engine's message only
     * restates it (an attempt of a step started, every step done), none where the row's type and its run's header
     * say it all (a run started: the header names the run), else the engine's message in the language in use
     * ({@link Words#eventMessage}): it holds what happened outside (an answer, a reason).
     */
    static String message(KeyEvent e) {
        return switch (e.type()) {
            case CLAIMED -> e.runId() == null ? Words.eventMessage(e) : "";
            case STEP_STARTED -> e.step() == null || e.attempt() <= 0 ? Words.eventMessage(e)
                    : Text.t("core.timeline.message.stepStarted", e.attempt(), e.step());
            // a key done by its steps (not by the job's probe, whose answer the message holds)
            case KEY_DONE -> e.probe() == null ? Text.t("core.timeline.message.allDone") : Words.eventMessage(e);
            default -> Words.eventMessage(e);
        };
    }

    /**
     * The key's details in one line: "step publish · 2 attempts · next attempt … · outcome unknown ·
     * waits for login to site-cookie · updated 3 min ago".
     */
    public static String details(KeyRecord r, Instant now) {
        List<String> parts = new ArrayList<>();
        if (r.step() != null) {
            parts.add(r.attempts() > 0 ? Text.t("core.timeline.stepAttempts", r.step(), r.attempts())
                    : Text.t("core.timeline.step", r.step()));
        }
        if (r.nextAttemptAt() != null) {
            parts.add(Text.t("core.timeline.nextAttempt", EvidenceText.time(r.nextAttemptAt()),
                    relative(r.nextAttemptAt(), now)));
        }
        if (r.failureClass() != null && r.state() != KeyState.DONE) {
            parts.add(Words.failureLower(r.failureClass()));
        }
        if (r.credential() != null) {
            parts.add(Text.t("core.timeline.login", r.credential()));
        }
        parts.add(Text.t("core.timeline.updated", relative(r.updatedAt(), now)));
        return String.join(" · ", parts);
    }

    /** "3 min ago", "in 2 h", "just now". */
    public static String relative(Instant t, Instant now) {
        if (t == null) {
            return "";
        }
        Duration d = Duration.between(t, now);
        boolean past = !d.isNegative();
        d = d.abs();
        String amount;
        if (d.toSeconds() < 45) {
            return Text.t(past ? "core.relative.justNow" : "core.relative.inAMoment");
        } else if (d.toMinutes() < 60) {
            amount = Text.t("core.relative.minutes", Math.max(1, d.toMinutes()));
        } else if (d.toHours() < 48) {
            amount = Text.t("core.relative.hours", d.toHours());
        } else {
            amount = Text.t("core.relative.days", d.toDays());
        }
        return Text.t(past ? "core.relative.ago" : "core.relative.in", amount);
    }
}
