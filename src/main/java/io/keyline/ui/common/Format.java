package io.keyline.ui.common;

import io.keyline.core.DecisionInputs;
import io.keyline.core.operations.Words;
import io.keyline.domain.InvalidKeyException;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.WaitReason;
import io.keyline.text.Text;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** How the console writes times, durations and states. */
public final class Format {
    private static final DateTimeFormatter SHORT = DateTimeFormatter.ofPattern("MM-dd HH:mm")
            .withZone(ZoneId.systemDefault());

    private Format() {
    }

    /** Local date and time, as the evidence shows it ({@code EvidenceText.time}). */
    public static String time(Instant t) {
        return io.keyline.core.operations.EvidenceText.time(t);
    }

    /** A failure's message for the console, or its class name when it has none: the core's {@code Words.error}. */
    public static String error(Throwable e) {
        return io.keyline.core.operations.Words.error(e);
    }

    public static String shortTime(Instant t) {
        return t == null ? "" : SHORT.format(t);
    }

    /** "3 min ago", "in 2 h", "just now": the core's words ({@code Timeline.relative}). */
    public static String relative(Instant t, Instant now) {
        return io.keyline.core.operations.Timeline.relative(t, now);
    }

    /** The state in plain words ("Needs confirmation"). */
    public static String state(KeyState s) {
        return s == null ? "" : Text.t("common.state." + s.name());
    }

    /**
     * The state in plain words, and why it waits: "Needs review" for a key that waits for its job's review (it sent
     * nothing; a confirmation is of an outcome that may have changed the world), else {@link #state(KeyState)}.
     */
    public static String state(KeyState s, WaitReason why) {
        return Words.state(s, why);
    }

    /**
     * The state as the console labels it, in a word or two ("Confirm" for "Needs confirmation", "Review" for a key
     * that waits for its job's review): its chips, the heatmap's legend and the key table's filter say this, each
     * with {@link #state(KeyState, WaitReason)} in its tooltip and accessible text. Sentences say the state in full.
     */
    public static String chip(KeyState s, WaitReason why) {
        if (s == null) {
            return "";
        }
        return Text.t(DecisionInputs.waitsForReview(s, why) ? "ui.chip.NEEDS_REVIEW" : "ui.chip." + s.name());
    }

    /** The label of keys that should exist but never ran, as {@link #chip} labels a state ("Missing"). */
    public static String chipMissing() {
        return Text.t("ui.chip.MISSING");
    }

    /** The state in plain words inside a sentence ("needs confirmation"). */
    public static String stateLower(KeyState s) {
        return state(s).toLowerCase(Text.locale());
    }

    /** The label of an operator move as the console offers it: "Confirm…", "Retry", … */
    public static String move(io.keyline.domain.Trigger t) {
        String key = "common.move." + t.name();
        return Text.has(key) ? Text.t(key) : Words.move(t);
    }

    /** The style class of a state: {@code state-failed}, {@code state-needs-confirmation}, … */
    public static String styleClass(KeyState s) {
        return "state-" + s.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The style class of a state and why it waits: {@code state-needs-review} for a wait for the job's review. */
    public static String styleClass(KeyState s, WaitReason why) {
        return DecisionInputs.waitsForReview(s, why) ? "state-needs-review" : styleClass(s);
    }

    private static final java.util.regex.Pattern STEP_LIST =
            java.util.regex.Pattern.compile("\\b([A-Za-z][\\w-]*(?:,[A-Za-z][\\w-]*)+)\\b");

    /** A planned action as the console says it: {@code run write,publish} → {@code run write → publish}. */
    public static String action(String action) {
        if (action == null) {
            return "";
        }
        return localTimes(STEP_LIST.matcher(action).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(
                m.group(1).replace(",", " → "))));
    }

    /**
     * A key's message as the console says it. A key that waits for a login, or for its job's review, is worded from
     * its state (the stored text tells the command line what to type); other messages in plain words
     * ({@code Words.message}).
     */
    public static String keyMessage(KeyRecord r) {
        if (r == null) {
            return "";
        }
        if (r.state() == KeyState.NEEDS_CREDENTIAL && r.credential() != null) {
            return Text.t("ui.format.waitsForLogin", r.credential());
        }
        if (DecisionInputs.waitsForReview(r)) { // what Plan… does, not the command line's commands
            return Text.t("ui.format.waitsForReview", r.job(), r.step() == null ? "" : r.step());
        }
        return Words.keyMessage(r);
    }

    /**
     * A key's message beside a button that renews its login (the key's timeline): a key that waits for a login is
     * told to use that button, named {@code renew}; others as {@link #keyMessage}.
     */
    public static String keyMessageBesideRenew(KeyRecord r, String renew) {
        if (r != null && r.state() == KeyState.NEEDS_CREDENTIAL && r.credential() != null) {
            return Text.t("ui.format.waitsForLoginHere", r.credential(), renew);
        }
        return keyMessage(r);
    }

    /**
     * An event's message as the console says it: a wait for a login that sent nothing (the login was
     * rejected before, or is missing) is worded from its type; others in plain words.
     */
    public static String eventMessage(io.keyline.core.operations.Timeline.EventRow e) {
        if (e.type() == io.keyline.domain.EventType.WAITING_FOR_CREDENTIAL && e.evidence() == null) {
            return Text.t("ui.format.nothingSent");
        }
        return e.message();
    }

    /** What an action on one key came to: "daily 2026-11-08: done", "daily 2026-11-08: failed — …". */
    public static String outcome(io.keyline.core.operations.KeyActions.Outcome o) {
        KeyRecord r = o.after();
        if (r == null) {
            return Text.t("ui.format.nothingRan", o.job(), o.key());
        }
        String message = r.state() == KeyState.DONE ? "" : keyMessage(r);
        return message.isEmpty() ? Text.t("ui.format.outcome", o.job(), o.key(), stateLower(r.state()))
                : Text.t("ui.format.outcomeWhy", o.job(), o.key(), stateLower(r.state()), message);
    }

    /** Why something could not be done, for the console: a key the job does not accept in its own words. */
    public static String problem(Throwable e) {
        return e instanceof InvalidKeyException k ? invalidKey(k) : Words.error(e);
    }

    /** A key (or range) the job does not accept, in the console's words (no field names, no options). */
    public static String invalidKey(InvalidKeyException e) {
        java.util.List<String> v = e.values();
        return switch (e.problem()) {
            case OTHER -> Words.error(e);
            default -> Text.t("ui.format.invalidKey." + e.problem().name(), v.toArray());
        };
    }

    /** Instants in a text of the core ("2026-12-01T09:00:00Z") in the console's local time. */
    static String localTimes(String text) {
        java.util.regex.Matcher m = INSTANT.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String shown;
            try {
                shown = time(Instant.parse(m.group()));
            } catch (java.time.format.DateTimeParseException e) {
                shown = m.group();
            }
            m.appendReplacement(sb, java.util.regex.Matcher.quoteReplacement(shown));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    private static final java.util.regex.Pattern INSTANT =
            java.util.regex.Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d(:\\d\\d(\\.\\d+)?)?Z");
}
