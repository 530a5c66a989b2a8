package io.keyline.core.operations;

import io.keyline.core.RunReport;
import io.keyline.domain.EventType;
import io.keyline.domain.FailureClass;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.Printable;
import io.keyline.domain.Trigger;

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
        if (c == null) {
            return "";
        }
        return switch (c) {
            case RETRYABLE -> "Temporary problem";
            case TRANSIENT_AFTER_SEND -> "No complete answer";
            case AMBIGUOUS -> "Outcome unknown";
            case AUTH -> "Login rejected";
            case FATAL -> "Refused";
            case UNKNOWN -> "Unexpected error";
        };
    }

    /** What a failure class means for the operator, as one sentence. */
    public static String failureMeaning(FailureClass c) {
        if (c == null) {
            return "";
        }
        return switch (c) {
            case RETRYABLE -> "The request did not get through (or the site asked to come back later); "
                    + "it is safe to try again.";
            case TRANSIENT_AFTER_SEND -> "No complete answer came back: the request may have arrived.";
            case AMBIGUOUS -> "The site may have received it: nobody can tell whether the effect exists, "
                    + "so Keyline does not send it again by itself.";
            case AUTH -> "The site rejected the login: renew it, and the keys that wait for it resume.";
            case FATAL -> "The site refused the request; trying again will not help until the job or its "
                    + "input changes.";
            case UNKNOWN -> "Something unexpected failed; look at the evidence.";
        };
    }

    /** "Step failed", "Waits for login", "Login renewed", … */
    public static String event(EventType t) {
        if (t == null) {
            return "";
        }
        return switch (t) {
            case CLAIMED -> "Run started";
            case RECOVERED -> "Resumed after an interruption";
            case STEP_STARTED -> "Step started";
            case STEP_SUCCEEDED -> "Step done";
            case STEP_RECONCILED -> "Already there (found by the probe)";
            case STEP_FAILED -> "Step failed";
            case PROBE_ANSWERED -> "Probe answered";
            case RETRY_SCHEDULED -> "Retry scheduled";
            case KEY_DONE -> "Key done";
            case KEY_FAILED -> "Key failed";
            case WAITING_FOR_CONFIRMATION -> "Waits for confirmation";
            case WAITING_FOR_CREDENTIAL -> "Waits for login";
            case YIELDED -> "Stopped for now";
            case DEPARTED -> "Stopped: not as planned";
            case CONFIRMED -> "Confirmed";
            case MARKED_DONE -> "Marked done";
            case RETRIED -> "Retried";
            case SKIPPED -> "Skipped";
            case CREDENTIAL_UPDATED -> "Login renewed";
            case CREDENTIAL_REFRESHED -> "Login refreshed by the site";
            case REARMED -> "Re-armed";
            case CONFIRMATION_EXPIRED -> "Confirmation expired";
            case APPROVED -> "Job reviewed";
        };
    }

    /** What an exit code of run/apply means, as a sentence for a person (no number). */
    public static String outcome(int exit) {
        return switch (exit) {
            case RunReport.OK -> "Every key is done.";
            case RunReport.EXECUTION_FAILURE -> "Nothing ran, or nothing answered.";
            case RunReport.BUSINESS_FAILURE -> "Keys failed and none is done.";
            case RunReport.PARTIAL_SUCCESS -> "Some keys are done and some failed.";
            case RunReport.WAITING_FOR_OPERATOR -> "Keys wait for you.";
            case RunReport.RETRY_PENDING -> "A retry is scheduled.";
            default -> RunReport.meaning(exit);
        };
    }

    /** "8 done, 1 failed" in the order of the states; "no keys" when empty. */
    public static String counts(Map<KeyState, Integer> counts) {
        List<String> parts = new ArrayList<>();
        for (KeyState s : KeyState.values()) {
            Integer n = counts.get(s);
            if (n != null && n > 0) {
                String words = stateLower(s);
                // "3 need login", "1 needs confirmation"
                parts.add(n + " " + (n > 1 && words.startsWith("needs ") ? "need " + words.substring(6) : words));
            }
        }
        return parts.isEmpty() ? "no keys" : String.join(", ", parts);
    }

    /** Counts by state of the final records. */
    public static Map<KeyState, Integer> countsOf(List<KeyRecord> records) {
        Map<KeyState, Integer> m = new EnumMap<>(KeyState.class);
        for (KeyRecord r : records) {
            m.merge(r.state(), 1, Integer::sum);
        }
        return m;
    }

    /** "8 keys ran: 8 done", "1 key ran: 1 needs login". */
    public static String ran(List<KeyRecord> records) {
        int n = records.size();
        return n + (n == 1 ? " key ran: " : " keys ran: ") + counts(countsOf(records));
    }

    /** "1 key" / "3 keys". */
    public static String keys(int n) {
        return n + (n == 1 ? " key" : " keys");
    }

    private static final Pattern PROBE = Pattern.compile("(?s).*?probe:\\s*(.*?)\\s*\\((present|absent|inconclusive)\\)"
            + "\\s*$");

    /**
     * A probe's answer as stored in an event or shown by a plan ({@code absent - probe: /total = 0 (absent)})
     * in plain words: {@code absent: the effect is not there yet (the probe checked /total = 0)}. Other text
     * is returned as one printable line.
     */
    public static String probe(String message) {
        if (message == null || message.isBlank()) {
            return "";
        }
        Matcher m = PROBE.matcher(message.strip());
        if (!m.matches()) {
            return Printable.line(message);
        }
        String why = Printable.line(m.group(1));
        String lead = switch (m.group(2)) {
            case "present" -> "present: the effect is already there";
            case "absent" -> "absent: the effect is not there yet";
            default -> "no clear answer";
        };
        return why.isEmpty() ? lead : lead + " (the probe checked " + why + ")";
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

    /**
     * A key's message for an operator: the engine's {@code outcome of publish unknown (no answer within 1s
     * (timeout; …)); probe: /total = 0 (absent)} becomes {@code Outcome of publish unknown: no answer within
     * 1s (timeout; …). The probe found no effect (it checked /total = 0).} — no nested brackets, no raw
     * probe line. Other text is returned as one printable line.
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
            String checked = why.isEmpty() ? "" : " (it checked " + why + ")";
            probe = switch (p.group(3)) {
                case "present" -> "The probe found the effect already there" + checked + ".";
                case "absent" -> "The probe found no effect" + checked + ".";
                default -> "The probe gave no clear answer" + checked + ".";
            };
        } else if (text.startsWith("probe:")) {
            return probe(text);
        }
        // messages stored before the engine wrote plain words name a failure class: "(TRANSIENT_AFTER_SEND)"
        for (FailureClass c : FailureClass.values()) {
            text = text.replace("(" + c.name() + ")", "(" + failure(c).toLowerCase(Locale.ROOT) + ")");
        }
        Matcher u = UNKNOWN.matcher(text);
        if (u.matches()) {
            text = "Outcome of " + u.group(1) + " unknown: " + u.group(2).strip();
        }
        if (!probe.isEmpty()) {
            text = text.isEmpty() ? probe : text + (text.endsWith(".") ? " " : ". ") + probe;
        }
        return text;
    }

    /**
     * A 5-field cron schedule in words: {@code 0 7 * * *} → "daily at 07:00", {@code 30 7 * * MON} →
     * "Mondays at 07:30", {@code 0 9 1 * *} → "on day 1 of each month at 09:00"; with the zone when
     * given. A schedule it cannot say simply stays as {@code cron …}.
     */
    public static String schedule(String cron, ZoneId zone) {
        if (cron == null || cron.isBlank()) {
            return "no schedule";
        }
        String z = zone == null ? "" : " (" + zone.getId() + ")";
        String[] f = cron.strip().split("\\s+");
        if (f.length != 5 || !f[0].matches("\\d{1,2}") || !f[1].matches("\\d{1,2}")) {
            return "cron " + cron.strip() + z;
        }
        String at = String.format(Locale.ROOT, "%02d:%02d", Integer.parseInt(f[1]), Integer.parseInt(f[0]));
        boolean anyDom = f[2].equals("*");
        boolean anyMonth = f[3].equals("*");
        boolean anyDow = f[4].equals("*") || f[4].equals("?");
        if (anyDom && anyMonth && anyDow) {
            return "daily at " + at + z;
        }
        if (anyDom && anyMonth) {
            String days = days(f[4]);
            if (days != null) {
                return days + " at " + at + z;
            }
        }
        if (anyMonth && anyDow && f[2].matches("\\d{1,2}")) {
            return "on day " + Integer.parseInt(f[2]) + " of each month at " + at + z;
        }
        return "cron " + cron.strip() + z;
    }

    private static final String[] DAY_NAMES = {"Sundays", "Mondays", "Tuesdays", "Wednesdays", "Thursdays",
        "Fridays", "Saturdays", "Sundays"};
    private static final List<String> DAY_ABBR = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");

    private static String days(String field) {
        String f = field.toUpperCase(Locale.ROOT);
        if (f.equals("1-5") || f.equals("MON-FRI")) {
            return "weekdays";
        }
        if (f.equals("0,6") || f.equals("6,0") || f.equals("SAT,SUN") || f.equals("SUN,SAT")) {
            return "weekends";
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
            names.add(DAY_NAMES[d]);
        }
        if (names.size() == 1) {
            return names.get(0);
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
    }

    /** A failure's message as an operator reads it, or its class name when it has none. */
    public static String error(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
