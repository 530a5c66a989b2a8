package io.keyline.core.operations;

import io.keyline.core.exec.AnswerDetail;
import io.keyline.domain.Evidence;
import io.keyline.domain.Printable;
import io.keyline.text.Said;
import io.keyline.text.Text;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * Evidence as text, the one formatter of the command line ({@code keyline timeline}) and the console
 * (monospace blocks), and short durations. Evidence is redacted before it is stored; header values are
 * never recorded, only their names.
 */
public final class EvidenceText {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss")
            .withZone(ZoneId.systemDefault());
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    private EvidenceText() {
    }

    /**
     * The evidence as an aligned, multi-line text block; empty for {@code null}. Control characters
     * that came with it (a server's answer, a command's output) are shown as escapes
     * ({@link Printable}), as the command line prints them.
     */
    public static String format(Evidence ev) {
        return format(ev, null);
    }

    /**
     * A step's evidence and, below it, its probe's (when it is other evidence): a probe's says so on its first
     * line; evidence stored before probes were told apart gets a title.
     */
    public static String withProbe(Evidence ev, Said words, Evidence probe) {
        StringBuilder sb = new StringBuilder(format(ev, words));
        if (probe != null && !probe.equals(ev)) {
            sb.append(sb.isEmpty() ? "" : "\n\n").append(probe.fromProbe() ? "" : Text.t("core.confirm.probeEvidence")
                    + "\n").append(format(probe));
        }
        return sb.toString();
    }

    /**
     * As {@link #format(Evidence)}; {@code words}: the words of the event that recorded the evidence, which say its
     * detail in the language in use when the detail is their English ({@link #detail}).
     */
    public static String format(Evidence ev, Said words) {
        if (ev == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        if (ev.fromProbe()) {
            // a probe is asked before attempt N: after attempt N - 1, or before any
            int after = ev.attempt() - 1;
            String asked = after < 1 ? Text.t("core.evidence.probeFirst") : Text.t("core.evidence.probeAfter", after);
            line(sb, "core.evidence.probe", ev.time() == null ? asked
                    : Text.t("core.evidence.probeAt", asked, time(ev.time())));
        } else {
            line(sb, "core.evidence.attempt", ev.time() == null ? Text.t("core.evidence.attemptNumber", ev.attempt())
                    : Text.t("core.evidence.attemptEnded", ev.attempt(), time(ev.time())));
        }
        Evidence.RequestSummary r = ev.request();
        if (r != null) {
            line(sb, "core.evidence.request", r.method() + " " + r.url());
            line(sb, "core.evidence.headers", r.headerNames() == null || r.headerNames().isEmpty()
                    ? Text.t("core.evidence.none")
                    : Text.t("core.evidence.headerNames", String.join(", ", r.headerNames())));
            line(sb, "core.evidence.body", r.bodyBytes() == 0 && r.bodySha256() == null ? Text.t("core.evidence.none")
                    : r.bodySha256() == null ? bytes(r.bodyBytes())
                    : Text.t("core.evidence.bodySha", bytes(r.bodyBytes()), r.bodySha256()));
        }
        if (ev.status() != null) {
            line(sb, "core.evidence.response", Text.t("core.evidence.http", Integer.toString(ev.status())));
        }
        if (ev.responseBody() != null && !ev.responseBody().isBlank()) {
            block(sb, "core.evidence.responseBody", ev.responseBody());
        }
        if (ev.command() != null && !ev.command().isEmpty()) {
            line(sb, "core.evidence.command", argv(ev.command()));
        }
        if (ev.exitCode() != null) {
            line(sb, "core.evidence.exitCode", Integer.toString(ev.exitCode()));
        }
        if (ev.stderr() != null && !ev.stderr().isBlank()) {
            block(sb, "core.evidence.stderr", ev.stderr());
        }
        if (ev.stdout() != null && !ev.stdout().isBlank()) {
            block(sb, "core.evidence.stdout", ev.stdout());
        }
        if (ev.detail() != null && !ev.detail().isBlank()) {
            line(sb, "core.evidence.detail", detail(ev, words).strip());
        }
        return sb.toString().stripTrailing();
    }

    /** One line: {@code POST http://… → HTTP 404} or {@code sh -c … → exit 1}; control characters escaped. */
    public static String summary(Evidence ev) {
        return Printable.line(rawSummary(ev));
    }

    private static String rawSummary(Evidence ev) {
        if (ev == null) {
            return "";
        }
        if (ev.request() != null) {
            String request = ev.request().method() + " " + ev.request().url();
            return ev.status() == null ? request : Text.t("core.evidence.answered", request, http(ev.status()));
        }
        if (ev.command() != null && !ev.command().isEmpty()) {
            return ev.exitCode() == null ? argv(ev.command())
                    : Text.t("core.evidence.answered", argv(ev.command()), exit(ev.exitCode()));
        }
        return ev.detail() == null ? "" : ev.detail().strip().replaceAll("\\s+", " ");
    }

    /**
     * One line about what a failed attempt sent and got back, with the start of the answer:
     * {@code POST http://… → HTTP 422  {"error": …}} or {@code sh -c … → exit 1  last stderr line};
     * with the recording event's words ({@link #format(Evidence, Said)}).
     */
    public static String brief(Evidence ev, Said words) {
        if (ev == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        if (ev.request() != null) {
            String request = ev.request().method() + " " + ev.request().url();
            if (ev.status() != null) {
                sb.append(Text.t("core.evidence.answered", request, http(ev.status())));
            } else if (ev.detail() != null && (ev.responseBody() == null || ev.responseBody().isBlank())) {
                sb.append(Text.t("core.evidence.answered", request, oneLine(detail(ev, words), 100)));
            } else {
                sb.append(request);
            }
            if (ev.responseBody() != null && !ev.responseBody().isBlank()) {
                sb.append("  ").append(oneLine(ev.responseBody(), 100));
            }
        } else if (ev.command() != null && !ev.command().isEmpty()) {
            sb.append(ev.exitCode() == null ? argv(ev.command())
                    : Text.t("core.evidence.answered", argv(ev.command()), exit(ev.exitCode())));
            if (ev.stderr() != null && !ev.stderr().isBlank()) {
                String[] lines = ev.stderr().strip().split("\n");
                sb.append("  ").append(oneLine(lines[lines.length - 1], 100));
            }
        }
        if (ev.detail() != null && sb.isEmpty()) {
            sb.append(oneLine(detail(ev, words), 160));
        }
        return Printable.line(sb.toString());
    }

    /**
     * The evidence's detail as shown. An executor records a failure it put into words (no answer within the
     * timeout, a refused connection) as their English; the event that recorded the evidence keeps the words
     * themselves, whole or inside its own sentence: those are said in the language in use, the whole detail or one
     * of its lines (the cookies the site set that could not be kept, above a redirect's {@code Location}). A
     * redirect's hops and {@code Location} and a credential the site refreshed are said again from their recorded
     * English ({@link AnswerDetail#words}); any other line (a site's own text) is shown as recorded.
     */
    static String detail(Evidence ev, Said words) {
        String d = ev.detail();
        Said same = d == null || words == null ? null : sameWords(words, d.strip());
        if (same != null) {
            return same.text();
        }
        if (d == null || d.isEmpty()) {
            return d;
        }
        List<String> out = new java.util.ArrayList<>();
        for (String line : d.split("\n", -1)) {
            Said said = words == null || line.isBlank() ? null : sameWords(words, line.strip());
            said = said != null ? said : AnswerDetail.words(line);
            out.add(said == null ? line : said.text());
        }
        return String.join("\n", out);
    }

    private static Said sameWords(Said words, String english) {
        if (words.key() != null && words.english().strip().equals(english)) {
            return words;
        }
        for (Object a : words.args()) {
            Said found = a instanceof Said w ? sameWords(w, english) : null;
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** "HTTP 404": a status as the evidence says it. */
    private static String http(int status) {
        return Text.t("core.evidence.http", Integer.toString(status));
    }

    /** "exit 1": a command's exit code as the evidence says it. */
    private static String exit(int code) {
        return Text.t("core.evidence.exit", Integer.toString(code));
    }

    /** The text on one line (runs of white space become one space), cut at {@code max} with an ellipsis. */
    public static String oneLine(String s, int max) {
        String t = s.strip().replaceAll("\\s+", " ");
        return t.length() <= max ? t : t.substring(0, max - 1) + "…";
    }

    /** A command line as a shell would need it typed (arguments with spaces quoted). */
    public static String argv(List<String> argv) {
        StringBuilder sb = new StringBuilder();
        for (String a : argv) {
            if (!sb.isEmpty()) {
                sb.append(' ');
            }
            boolean plain = !a.isEmpty() && a.chars().allMatch(c -> Character.isLetterOrDigit(c) || "-_./=:,@+%{}".indexOf(c) >= 0);
            sb.append(plain ? a : "'" + a.replace("'", "'\\''") + "'");
        }
        return sb.toString();
    }

    /** "0 B", "17 B", "4.0 KiB", "1.2 MiB". */
    public static String bytes(long n) {
        if (n < 1024) {
            return Text.t("core.size.bytes", Long.toString(n));
        }
        if (n < 1024 * 1024) {
            return Text.t("core.size.kib", String.format(Locale.ROOT, "%.1f", n / 1024.0));
        }
        return Text.t("core.size.mib", String.format(Locale.ROOT, "%.1f", n / (1024.0 * 1024.0)));
    }

    /** "0 ms", "850 ms", "4.2 s", "30 s", "3 min 12 s", "3 min", "2 h 5 min", "2 h", "3 d 4 h", "7 d". */
    public static String duration(Duration d) {
        if (d == null) {
            return "";
        }
        long ms = Math.max(0, d.toMillis());
        if (ms < 1000) {
            return Text.t("core.duration.millis", Long.toString(ms));
        }
        if (ms < 60_000) {
            return Text.t("core.duration.seconds", ms % 1000 == 0 ? Long.toString(ms / 1000)
                    : String.format(Locale.ROOT, "%.1f", ms / 1000.0));
        }
        long s = ms / 1000;
        if (s < 3600) {
            return two("core.duration.minutes", s / 60, "core.duration.minutesSeconds", s % 60);
        }
        if (s < 86_400) {
            return two("core.duration.hours", s / 3600, "core.duration.hoursMinutes", s % 3600 / 60);
        }
        return two("core.duration.days", s / 86_400, "core.duration.daysHours", s % 86_400 / 3600);
    }

    /** "3 min" when the smaller unit is 0, else "3 min 12 s". */
    private static String two(String whole, long big, String both, long small) {
        return small == 0 ? Text.t(whole, Long.toString(big)) : Text.t(both, Long.toString(big), Long.toString(small));
    }

    /** Local date and time ({@code yyyy-MM-dd HH:mm:ss}), or empty. */
    public static String time(Instant t) {
        return t == null ? "" : TIME.format(t);
    }

    /**
     * The evidence block indented by {@code indent} spaces on every line (the command line prints it
     * under the event it belongs to), with the recording event's words ({@link #format(Evidence, Said)}).
     */
    public static String indented(Evidence ev, int indent, Said words) {
        String pad = " ".repeat(indent);
        String text = format(ev, words);
        if (text.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (String l : text.split("\n", -1)) {
            sb.append(pad).append(l).append('\n');
        }
        return sb.toString().stripTrailing();
    }

    /** Time of day ({@code HH:mm:ss}, local). */
    public static String clock(Instant t) {
        return t == null ? "" : CLOCK.format(t);
    }

    /** The width of the labels' column, in terminal columns (a Chinese character takes two). */
    private static final int LABEL_COLUMNS = 11;

    /** One line of the block: its label (a bundle key), padded, then {@code value}. */
    private static void line(StringBuilder sb, String label, String value) {
        // "detail:    …": the label keeps its colon (scripts and people grep the command line's "detail:")
        String said = Text.t("core.evidence.label", Text.t(label));
        sb.append(said).append(" ".repeat(Math.max(0, LABEL_COLUMNS - columns(said)))).append(' ')
                .append(Printable.line(value)).append('\n');
    }

    /** How many terminal columns {@code s} takes: two for a wide (East Asian) character, one for others. */
    private static int columns(String s) {
        return s.codePoints().map(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN
                || c >= 0xFF00 && c <= 0xFF60 || c >= 0x3000 && c <= 0x303F ? 2 : 1).sum();
    }

    /** A label (a bundle key) on its own line, then {@code text} indented. */
    private static void block(StringBuilder sb, String label, String text) {
        sb.append(Text.t("core.evidence.label", Text.t(label))).append('\n');
        for (String l : Printable.text(text.stripTrailing()).split("\n", -1)) {
            sb.append("  ").append(l).append('\n');
        }
    }
}
