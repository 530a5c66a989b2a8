package io.keyline.core.operations;

import io.keyline.core.RunReport;
import io.keyline.domain.EventType;
import io.keyline.domain.FailureClass;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.Printable;
import io.keyline.domain.ProbeAnswer;
import io.keyline.domain.Trigger;
import io.keyline.text.Said;
import io.keyline.text.Text;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Plain words for the operator: the one mapping from key states, failure classes, event types, exit
 * codes, schedules and probe answers to what the command line and the console print. Enum names
 * (FATAL, TRANSIENT_AFTER_SEND, NEEDS_CREDENTIAL) stay in JSON output and the run log, never in
 * sentences for a person.
 */
public final class Words {

    private Words() {
    }

    /** "Done", "Needs confirmation", "Needs login", … (in the language in use) */
    public static String state(KeyState s) {
        return s == null ? "" : io.keyline.text.Text.t("common.state." + s.name());
    }

    /**
     * The state and why it waits: "Needs review" for a key that waits for its job's review (it sent nothing; a
     * confirmation is of an outcome that may have changed the world), else {@link #state(KeyState)}.
     */
    public static String state(KeyState s, io.keyline.domain.WaitReason why) {
        return io.keyline.core.DecisionInputs.waitsForReview(s, why) ? Text.t("common.state.NEEDS_REVIEW") : state(s);
    }

    /** {@link #state} in lower case, for the middle of a sentence ("2 done, 1 needs login"). */
    public static String stateLower(KeyState s) {
        return state(s).toLowerCase(Locale.ROOT);
    }

    /** The label of an operator move as the console offers it: "Confirm…", "Renew login…", "Retry", … */
    public static String move(Trigger t) {
        String key = "common.move." + t.name();
        return io.keyline.text.Text.has(key) ? io.keyline.text.Text.t(key)
                : t.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /** A short label of a failure class: "Outcome unknown", "Login rejected", … */
    public static String failure(FailureClass c) {
        return c == null ? "" : Text.t("core.failure." + c.name());
    }

    /** A failure class's label inside a sentence: "outcome unknown" ({@link #failure} in lower case). */
    public static String failureLower(FailureClass c) {
        return failure(c).toLowerCase(Text.locale());
    }

    /** "Step failed", "Waits for login", "Login renewed", … */
    public static String event(EventType t) {
        return t == null ? "" : Text.t("core.event." + t.name());
    }

    /**
     * An event's type and why it left the key waiting: "Waits for the review" for the event that held a key for its
     * job's review (nothing was sent), else {@link #event(EventType)}.
     */
    public static String event(EventType t, io.keyline.domain.WaitReason why) {
        return t == EventType.WAITING_FOR_CONFIRMATION && why == io.keyline.domain.WaitReason.REVIEW
                ? Text.t("core.event.WAITING_FOR_REVIEW") : event(t);
    }

    /** What an exit code of run/apply means, as a sentence for a person (no number). */
    public static String outcome(int exit) {
        return exit >= RunReport.OK && exit <= RunReport.RETRY_PENDING ? Text.t("core.outcome." + exit)
                : RunReport.meaning(exit);
    }

    /** "8 done, 1 failed" in the order of the states; "no keys" when empty. */
    public static String counts(Map<KeyState, Integer> counts) {
        List<String> parts = new ArrayList<>();
        for (KeyState s : KeyState.values()) {
            Integer n = counts.get(s);
            if (n != null && n > 0) {
                // "3 need login", "1 needs confirmation"
                parts.add(Text.t("core.count." + s.name(), n));
            }
        }
        return parts.isEmpty() ? Text.t("core.count.none") : String.join(Text.t("common.listSeparator"), parts);
    }

    /** Counts by state of the final records. */
    public static Map<KeyState, Integer> countsOf(List<KeyRecord> records) {
        Map<KeyState, Integer> m = new EnumMap<>(KeyState.class);
        for (KeyRecord r : records) {
            m.merge(r.state(), 1, Integer::sum);
        }
        return m;
    }

    /** "1 key" / "3 keys". */
    public static String keys(int n) {
        return Text.t("core.keys", n);
    }

    private static final Pattern PROBE = Pattern.compile("(?s).*?probe:\\s*(.*?)\\s*\\((present|absent|inconclusive)\\)"
            + "\\s*$");

    /**
     * A probe's answer as stored in an event or shown by a plan ({@code absent - probe: /total = 0 (absent)})
     * in plain words: {@code absent: the effect is not there yet (the probe checked /total = 0)}. Other text
     * is returned as one printable line. Only a text stored before answers kept their words is read this way.
     */
    public static String probe(String message) {
        return probe(message, null);
    }

    /** {@link #probe(String)}, said as {@code known} when the answer was kept as a value beside the text. */
    private static String probe(String message, ProbeAnswer known) {
        if (message == null || message.isBlank()) {
            return "";
        }
        Matcher m = PROBE.matcher(message.strip());
        if (!m.matches()) {
            return Printable.line(message);
        }
        String why = Printable.line(m.group(1));
        String lead = lead(known != null ? known : ProbeAnswer.valueOf(m.group(2).toUpperCase(Locale.ROOT))).text();
        return why.isEmpty() ? lead : Text.t("core.probe.checked", lead, why);
    }

    /**
     * The answer of the probe an event records, in plain words ({@link #probe(String)}): the answer the event keeps
     * ({@link KeyEvent#probe}), with what the probe checked from the words the event kept, whole or inside its own
     * sentence; from its stored text when it kept none (an older state).
     */
    public static String probe(KeyEvent e) {
        Said answer = e.said() == null ? null : probeAnswer(e.said());
        return answer == null ? probe(e.message(), answered(e.probe()))
                : Printable.line(plain(answer, answered(e.probe())).text());
    }

    /** A probe's answer kept as words ({@code Plan}'s probes), in plain words ({@link #probe(String)}). */
    public static String probe(Said said) {
        if (said == null) {
            return "";
        }
        Said answer = probeAnswer(said);
        return answer == null ? Printable.line(said.text()) : Printable.line(plain(answer, null).text());
    }

    /**
     * What the probe an event records checked ({@code /total = 0}), in the language in use, one printable line;
     * empty when the answer does not say.
     */
    public static String probeChecked(KeyEvent e) {
        Said answer = e.said() == null ? null : probeAnswer(e.said());
        if (answer == null || answer.key() == null) {
            return probeChecked(answer == null ? e.message() : answer.text());
        }
        Object why = answer.args().isEmpty() ? "" : answer.args().get(0);
        return Printable.line(why instanceof Said w ? w.text() : String.valueOf(why)).strip();
    }

    /**
     * What a probe checked, from its answer as stored ({@code probe: /total = 0 (absent)} → {@code /total = 0}),
     * one printable line; empty when the answer does not say.
     */
    public static String probeChecked(String message) {
        if (message == null || message.isBlank()) {
            return "";
        }
        Matcher m = PROBE.matcher(message.strip());
        return m.matches() ? Printable.line(m.group(1)).strip() : "";
    }

    private static final Pattern WITH_PROBE = Pattern.compile(
            "(?s)(.*?)\\s*;\\s*probe:\\s*(.*?)\\s*\\((present|absent|inconclusive)\\)\\s*$");
    private static final Pattern UNKNOWN = Pattern.compile("(?s)outcome of (\\S+) unknown \\((.*)\\)");
    /** A probe's answer on its own, as the engine stores it ({@code probe: /total = 0 (absent)}). */
    private static final Pattern PROBE_ONLY = Pattern.compile("probe:");

    /**
     * A key's message kept as English words only (stored before messages kept their words), for an operator:
     * {@code outcome of publish unknown (no answer within 1s (timeout; …)); probe: /total = 0 (absent)} becomes
     * {@code Outcome of publish unknown: no answer within 1s (timeout; …). The probe found no effect (it checked
     * /total = 0).} — no nested brackets, no raw probe line. Other text is returned as one printable line.
     */
    public static String message(String message) {
        if (message == null || message.isBlank()) {
            return "";
        }
        String text = Printable.line(message).strip();
        String probe = "";
        Matcher p = WITH_PROBE.matcher(text);
        if (p.matches()) {
            text = p.group(1).strip();
            String why = p.group(2).strip();
            String found = "core.message.probe." + p.group(3);
            probe = why.isEmpty() ? Text.t(found) : Text.t(found + "Checked", why);
        } else if (PROBE_ONLY.matcher(text).lookingAt()) {
            return probe(text);
        }
        // messages stored before the engine wrote plain words name a failure class: "(TRANSIENT_AFTER_SEND)"
        for (FailureClass c : FailureClass.values()) {
            text = text.replace("(" + c.name() + ")", "(" + failureLower(c) + ")");
        }
        Matcher u = UNKNOWN.matcher(text);
        if (u.matches()) {
            text = Text.t("core.message.unknown", u.group(1), u.group(2).strip());
        }
        if (!probe.isEmpty()) {
            text = text.isEmpty() ? probe : Text.t(text.endsWith(".") || text.endsWith("。")
                    ? "core.message.withProbe" : "core.message.withProbeStop", text, probe);
        }
        return text;
    }

    /**
     * An event's message in the language in use, one printable line: the words the event kept ({@link KeyEvent#said}),
     * with a probe's answer among their arguments in plain words ({@link #probe}); a text from outside that the event
     * holds as it is, and an event stored before events kept their words, in plain words ({@link #message(String)}).
     */
    public static String eventMessage(KeyEvent e) {
        return message(e.message(), e.said(), answered(e.probe()));
    }

    /** A key's message in the language in use, one printable line, as {@link #eventMessage} says an event's. */
    public static String keyMessage(KeyRecord r) {
        return message(r.message(), r.said(), null);
    }

    /**
     * Words a request or a probe kept, in the language in use, one printable line, as {@link #eventMessage} says an
     * event's: a probe's answer as the probe gave it ({@code probe: /total = 0 (absent)}) in plain words; empty for
     * none.
     */
    public static String words(Said said) {
        return said == null ? "" : message(said.english(), said, null);
    }

    /** Whether {@code said} is a probe's answer as the probe gave it ({@code probe: /total = 0 (absent)}). */
    public static boolean isProbeAnswer(Said said) {
        return said != null && (said.key() == null ? PROBE.matcher(said.text().strip()).matches()
                : PROBE_ANSWERS.containsKey(said.key()));
    }

    /** The words of a probe's answer as the probe gives it ("probe: … (absent)"), by the answer they name. */
    private static final Map<String, ProbeAnswer> PROBE_ANSWERS = Map.of("core.exec.probePresent", ProbeAnswer.PRESENT,
            "core.exec.probeAbsent", ProbeAnswer.ABSENT, "core.exec.probeNoAnswer", ProbeAnswer.INCONCLUSIVE,
            "core.exec.probeRefused", ProbeAnswer.REFUSED);

    /**
     * The answer the words of a probe's answer name. A question the site refused, kept before it had words of its
     * own, is "no answer" whose reason is the refused question.
     */
    private static ProbeAnswer answerOf(Said answer) {
        ProbeAnswer a = PROBE_ANSWERS.get(answer.key());
        return a == ProbeAnswer.INCONCLUSIVE && !answer.args().isEmpty() && answer.args().get(0) instanceof Said why
                && "core.exec.refusedQuestion".equals(why.key()) ? ProbeAnswer.REFUSED : a;
    }

    /** {@code a} when it is an answer a probe gives (present, absent, inconclusive, refused), else {@code null}. */
    private static ProbeAnswer answered(ProbeAnswer a) {
        return a == ProbeAnswer.PRESENT || a == ProbeAnswer.ABSENT || a == ProbeAnswer.INCONCLUSIVE
                || a == ProbeAnswer.REFUSED ? a : null;
    }

    /** The plain words that lead an answer: "absent: the effect is not there yet", "refused: …". */
    private static Said lead(ProbeAnswer a) {
        return Said.of("core.probe." + a.name().toLowerCase(Locale.ROOT));
    }

    /**
     * The probe's answer {@code said} is or holds (as an argument, at any depth), as the probe gave it: its words,
     * or a text shown as it is; {@code null} when there is none.
     */
    private static Said probeAnswer(Said said) {
        if (isProbeAnswer(said)) {
            return said;
        }
        for (Object a : said.args()) {
            Said found = a instanceof Said w ? probeAnswer(w)
                    : a instanceof String t && PROBE.matcher(t.strip()).matches() ? Said.plain(t) : null;
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /**
     * A probe's answer as the probe gave it ({@link #isProbeAnswer}) in plain words: "absent: the effect is not
     * there yet (the probe checked …)", what it checked said in the language in use; the answer is {@code known}
     * when it was kept as a value, else the one its words name.
     */
    private static Said plain(Said answer, ProbeAnswer known) {
        if (answer.key() == null) {
            return Said.plain(probe(answer.text(), known));
        }
        Said lead = lead(known != null ? known : answerOf(answer));
        Object why = answer.args().isEmpty() ? "" : answer.args().get(0);
        return why.equals("") ? lead : Said.of("core.probe.checked", lead, why instanceof Said w
                ? w.map(Printable::line) : Printable.line(String.valueOf(why)));
    }

    private static String message(String english, Said said, ProbeAnswer known) {
        if (said == null || said.key() == null) {
            // no words, or a text from outside shown as it is (a probe's answer)
            return message(said == null ? english : said.text());
        }
        return Printable.line(worded(said, known).text()).strip();
    }

    /**
     * An event's message in the language in use as the engine said it (a probe's answer as the probe gave it), or
     * its stored text when it kept no words; for a listing that shows every event as recorded.
     */
    public static String said(KeyEvent e) {
        return e.said() == null ? e.message() : e.said().text();
    }

    /** A key's message in the language in use as the engine said it, or its stored text ({@link #said(KeyEvent)}). */
    public static String said(KeyRecord r) {
        return r.said() == null ? r.message() : r.said().text();
    }

    /**
     * {@code said} with every argument that is a probe's answer as the probe gave it put in plain words, said as
     * {@code known} when the answer was kept as a value.
     */
    private static Said worded(Said said, ProbeAnswer known) {
        if (said.key() == null) {
            return said;
        }
        if (isProbeAnswer(said)) {
            return plain(said, known);
        }
        List<Object> args = new ArrayList<>();
        for (Object a : said.args()) {
            if (a instanceof Said s && s.key() == null) {
                // a probe's answer kept as words shown as they are
                a = s.args().get(0);
            }
            if (a instanceof Said s && isProbeAnswer(s)) {
                args.add(plain(s, known));
            } else if (a instanceof Said s) {
                args.add(worded(s, known));
            } else if (a instanceof String t && PROBE.matcher(t.strip()).matches()) {
                args.add(Said.plain(probe(t, known)));
            } else {
                args.add(a);
            }
        }
        return new Said(said.key(), args);
    }

    /**
     * A 5-field cron schedule in words: {@code 0 7 * * *} → "daily at 07:00", {@code 30 7 * * MON} →
     * "Mondays at 07:30", {@code 0 9 1 * *} → "on day 1 of each month at 09:00"; with the zone when
     * given. A schedule it cannot say simply stays as {@code cron …}.
     */
    public static String schedule(String cron, ZoneId zone) {
        if (cron == null || cron.isBlank()) {
            return Text.t("core.schedule.none");
        }
        String said = scheduleWords(cron.strip());
        return zone == null ? said : Text.t("core.schedule.zoned", said, zone.getId());
    }

    private static String scheduleWords(String cron) {
        String[] f = WHITE_SPACE.split(cron);
        if (f.length != 5 || !f[0].matches("\\d{1,2}") || !f[1].matches("\\d{1,2}")) {
            return Text.t("core.schedule.cron", cron);
        }
        String at = String.format(Locale.ROOT, "%02d:%02d", Integer.parseInt(f[1]), Integer.parseInt(f[0]));
        boolean anyDom = f[2].equals("*");
        boolean anyMonth = f[3].equals("*");
        boolean anyDow = f[4].equals("*") || f[4].equals("?");
        if (anyDom && anyMonth && anyDow) {
            return Text.t("core.schedule.daily", at);
        }
        if (anyDom && anyMonth) {
            String days = days(f[4]);
            if (days != null) {
                return Text.t("core.schedule.days", days, at);
            }
        }
        if (anyMonth && anyDow && f[2].matches("\\d{1,2}")) {
            return Text.t("core.schedule.monthly", Integer.parseInt(f[2]), at);
        }
        return Text.t("core.schedule.cron", cron);
    }

    private static final Pattern WHITE_SPACE = Pattern.compile("\\s+");
    private static final List<String> DAY_ABBR = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");

    private static String days(String field) {
        String f = field.toUpperCase(Locale.ROOT);
        if (f.equals("1-5") || f.equals("MON-FRI")) {
            return Text.t("core.schedule.weekdays");
        }
        if (f.equals("0,6") || f.equals("6,0") || f.equals("SAT,SUN") || f.equals("SUN,SAT")) {
            return Text.t("core.schedule.weekends");
        }
        List<String> names = new ArrayList<>();
        for (String part : f.split(",")) {
            int d;
            if (part.matches("\\d")) {
                d = Integer.parseInt(part);
            } else if (DAY_ABBR.contains(part)) {
                d = DAY_ABBR.indexOf(part);
            } else {
                return null;
            }
            if (d > 7) {
                return null;
            }
            // 0 and 7 are both Sunday
            names.add(Text.t("core.schedule.day." + d % 7));
        }
        if (names.size() == 1) {
            return names.get(0);
        }
        return Text.t("core.schedule.andLast", String.join(Text.t("common.listSeparator"),
                names.subList(0, names.size() - 1)), names.get(names.size() - 1));
    }

    /** A failure's message as an operator reads it, or its class name when it has none. */
    public static String error(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
