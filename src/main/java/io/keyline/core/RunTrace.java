package io.keyline.core;

import io.keyline.core.json.Json;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.keyline.text.Text.t;

/**
 * The run trace: human-readable lines on the console and JSON lines appended to
 * {@code state/logs/runs.jsonl}. Every JSON line has a {@code type}:
 * <ul>
 *   <li>{@code step} — a step execution ({@code result} ok or failed), or a key parked without a step
 *       running ({@code result} {@code parked}: a missing credential, a {@code confirm: always} step,
 *       …), or a takeover that waits for the child process a dead run left ({@code waiting}, then
 *       {@code waited}), or a command step's child process that could not be recorded ({@code unrecorded});</li>
 *   <li>{@code probe} — a probe's answer ({@code result} {@code probe:present}, …);</li>
 *   <li>{@code run} — the end of a run: start, duration, selection, counts by state, exit code, the
 *       failed keys and why it stopped, if it did;</li>
 *   <li>{@code operator} — an operator action (confirm, mark-done, retry, skip, rearm, pause, resume,
 *       credential renewal), with the OS user and the note;</li>
 *   <li>{@code notify} — a notification hook that failed or gave up (see {@code core.notify}).</li>
 * </ul>
 * The file is rotated by size ({@link RunLog}).
 */
public final class RunTrace implements AutoCloseable {

    /** A trace that writes nowhere. */
    public static final RunTrace NONE = new RunTrace(null, null);

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    /** Trace lines always carry every field, null or not; no raw control character (see {@link Json#terminalSafeEscapes}). */
    private static final com.fasterxml.jackson.databind.ObjectMapper WITH_NULLS = Json.MAPPER.copy()
            .setSerializationInclusion(com.fasterxml.jackson.annotation.JsonInclude.Include.ALWAYS);

    static {
        // a person tails the log: what came from outside is escaped there as on the terminal
        WITH_NULLS.getFactory().setCharacterEscapes(Json.terminalSafeEscapes());
    }

    /** Final states that mean a key stopped in this run and waits (for a person or a retry). */
    private static final Set<KeyState> PARKED = EnumSet.of(KeyState.FAILED, KeyState.NEEDS_CONFIRMATION,
            KeyState.NEEDS_CREDENTIAL, KeyState.RETRY_WAIT);

    private final PrintStream human;
    private final RunLog log;
    /** The last step/probe line of each key in each open run: "runId\njob\nkey" → {step, result}. */
    private final Map<String, String[]> lastLine = new HashMap<>();

    private RunTrace(PrintStream human, RunLog log) {
        this.human = human;
        this.log = log;
    }

    /** A trace to {@code human} (may be {@code null}) and to {@code stateDir/logs/runs.jsonl}, default rotation. */
    public static RunTrace open(Path stateDir, PrintStream human) {
        return open(stateDir, human, Map.of());
    }

    /**
     * A trace to {@code human} (may be {@code null}) and to {@code stateDir/logs/runs.jsonl}, rotated per
     * {@code KEYLINE_LOG_MAX} (default 10 MiB) and {@code KEYLINE_LOG_FILES} (default 5) from {@code env}.
     *
     * @throws IllegalArgumentException when those settings are invalid
     */
    public static RunTrace open(Path stateDir, PrintStream human, Map<String, String> env) {
        RunLog.Limits limits = RunLog.Limits.fromEnv(env);
        try {
            return new RunTrace(human, new RunLog(stateDir.resolve("logs").resolve("runs.jsonl"), limits));
        } catch (IOException e) {
            throw new StateUnavailableException(io.keyline.text.Said.of("core.trace.cannotWrite",
                    stateDir.resolve("logs").toString(), String.valueOf(e.getMessage())), e);
        }
    }

    /**
     * One trace line of a step or (with {@code key == null}) a run; a probe's answer is {@link #probe}.
     * Prefer {@link #run} for the end of a run.
     *
     * @param ts         when
     * @param runId      run
     * @param job        job
     * @param key        key, or {@code null} for a run line
     * @param step       step, or {@code null}
     * @param attempt    attempt, or 0
     * @param result     ok, failed, … or the run's summary word
     * @param cls        failure class, or {@code null}
     * @param durationMs duration
     * @param message    redacted message
     */
    public synchronized void line(Instant ts, String runId, String job, String key, String step, int attempt,
                                  String result, String cls, long durationMs, String message) {
        line("step", ts, runId, job, key, step, attempt, result, cls, durationMs, message);
    }

    /**
     * One {@code probe} line: what a step's probe answered ({@code present}, {@code absent},
     * {@code inconclusive}, {@code refused}, {@code auth}), shown as {@code probe:ANSWER}.
     */
    public synchronized void probe(Instant ts, String runId, String job, String key, String step, int attempt,
                                   String answer, long durationMs, String message) {
        line("probe", ts, runId, job, key, step, attempt, "probe:" + answer, null, durationMs, message);
    }

    private void line(String type, Instant ts, String runId, String job, String key, String step, int attempt,
                      String result, String cls, long durationMs, String message) {
        human(ts, job, key, step, attempt, result, cls, durationMs, message);
        if (key == null) {
            // a run line in the old shape (a run refused before it started): the run line's fields
            boolean paused = "paused".equals(result);
            Map<String, Object> m = runLine(ts, runId, job, ts.minusMillis(durationMs), durationMs, null, Map.of(),
                    paused ? RunReport.EXECUTION_FAILURE : null, List.of(), paused ? message : null);
            m.put("result", result);
            m.put("message", message);
            write(m);
            return;
        }
        if (log != null || human != null) {
            if (lastLine.size() > 200_000) {
                lastLine.clear(); // runs that never reported their end (runKey alone): forget, do not grow
            }
            lastLine.put(runId + "\n" + job + "\n" + key, new String[] {step, result});
        }
        write(stepLine(ts, type, runId, job, key, step, attempt, result, cls, durationMs, message));
    }

    /**
     * The end of a run: one {@code step} line with {@code result: "parked"} for every key that this run
     * parked without a step or probe line explaining it (a missing credential, a step that always needs
     * confirmation, …), then the structured {@code run} line.
     *
     * @param ts        when the run ended
     * @param report    the run's report
     * @param startedAt when it started
     * @param chosenBy  how the keys were chosen ({@code --key …}, {@code --due}, {@code apply PLAN}), or
     *                  {@code null} when the caller did not say
     */
    public synchronized void run(Instant ts, RunReport report, Instant startedAt, String chosenBy) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        List<String> failed = new ArrayList<>();
        for (KeyState s : KeyState.values()) {
            long n = report.count(s);
            if (n > 0) {
                counts.put(s.name(), (int) n);
            }
        }
        for (KeyRecord k : report.keys()) {
            if (k.state() == KeyState.FAILED) {
                failed.add(k.key());
            }
            String id = report.runId() + "\n" + report.job() + "\n" + k.key();
            String[] last = lastLine.remove(id);
            // the job's own probe line (no step) explains a key it parked before any step
            boolean explained = last != null && !"ok".equals(last[1])
                    && (java.util.Objects.equals(last[0], k.step()) || last[0] == null && last[1].startsWith("probe:"));
            if (report.runId().equals(k.runId()) && PARKED.contains(k.state()) && !explained) {
                String result = "parked";
                String cls = k.failureClass() == null ? null : k.failureClass().name();
                String msg = k.state() + (k.message() == null ? "" : ": " + k.message());
                human(ts, report.job(), k.key(), k.step(), k.attempts(), result, cls, 0, k.message() == null
                        ? state(k.state()) : t("core.trace.parkedBecause", state(k.state()),
                        k.said() == null ? k.message() : k.said().text()));
                write(stepLine(ts, "step", report.runId(), report.job(), k.key(), k.step(), k.attempts(), result, cls, 0,
                        msg));
            }
        }
        String prefix = report.runId() + "\n";
        lastLine.keySet().removeIf(k -> k.startsWith(prefix));
        long ms = Math.max(0, Duration.between(startedAt, ts).toMillis());
        int exit = report.exitCode();
        human(ts, report.job(), null, null, 0, "run", null, ms, summary(report, exit));
        Map<String, Object> line = runLine(ts, report.runId(), report.job(), startedAt, ms,
                chosenBy == null ? selection(report.keys()) : chosenBy + " (" + selection(report.keys()) + ")", counts,
                exit, failed,
                report.stopped());
        if (!report.departed().isEmpty()) {
            line.put("departed", report.departed());
        }
        if (!report.notYetDue().isEmpty()) {
            line.put("notYetDue", report.notYetDue());
        }
        write(line);
    }

    /**
     * One operator action: {@code {"ts","type":"operator","action","job","key","user","note"}} and,
     * where it applies, more fields in {@code extra} (e.g. {@code credential}, {@code until}, {@code keys}).
     */
    public synchronized void operator(Instant ts, String action, String job, String key, String user, String note,
                                      Map<String, Object> extra) {
        Map<String, Object> m = head(ts, "operator", "action", action, "job", job, "key", key, "user", user, "note",
                note);
        if (extra != null) {
            extra.forEach(m::putIfAbsent);
        }
        write(m);
    }

    /** A line of another type (e.g. {@code notify}); {@code ts} and {@code type} come first. */
    public synchronized void other(Instant ts, String type, Map<String, Object> fields) {
        Map<String, Object> m = head(ts, type);
        fields.forEach(m::putIfAbsent);
        write(m);
    }

    /**
     * The fields every JSON line starts with, {@code ts} and {@code type}, then {@code namesAndValues} (a name, its
     * value, the next name, …) in order; the caller may add more.
     */
    private static Map<String, Object> head(Instant ts, String type, Object... namesAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ts", ts.toString());
        m.put("type", type);
        for (int i = 0; i < namesAndValues.length; i += 2) {
            m.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return m;
    }

    private static Map<String, Object> stepLine(Instant ts, String type, String runId, String job, String key,
                                                String step, int attempt, String result, String cls, long durationMs,
                                                String message) {
        return head(ts, type, "runId", runId, "job", job, "key", key, "step", step, "attempt", attempt,
                "result", result, "class", cls, "durationMs", durationMs, "message", message);
    }

    private static Map<String, Object> runLine(Instant ts, String runId, String job, Instant startedAt, long durationMs,
                                               String selection, Map<String, Integer> counts, Integer exit,
                                               List<String> failedKeys, String stopped) {
        return head(ts, "run", "runId", runId, "job", job, "startedAt", startedAt.toString(), "durationMs", durationMs,
                "selection", selection, "counts", counts, "exit", exit, "failedKeys", failedKeys, "stopped", stopped);
    }

    /** The targeted keys in short: one key, a few keys, or "first … last (n keys)". */
    static String selection(List<KeyRecord> keys) {
        if (keys.isEmpty()) {
            return "no keys";
        }
        if (keys.size() <= 3) {
            return String.join(", ", keys.stream().map(KeyRecord::key).toList());
        }
        return keys.get(0).key() + " … " + keys.get(keys.size() - 1).key() + " (" + keys.size() + " keys)";
    }

    /** The run line's words: the keys by state, the exit code, and why the run stopped, if it did. */
    static String summary(RunReport r, int exit) {
        List<String> counts = new ArrayList<>();
        for (KeyState s : KeyState.values()) {
            long n = r.count(s);
            if (n > 0) {
                counts.add(t("core.trace.count", n, state(s)));
            }
        }
        String keys = counts.isEmpty() ? t("core.trace.noKeys") : String.join(t("common.listSeparator"), counts);
        return r.stopped() == null ? t("core.trace.summary", keys, exit) : t("core.trace.summaryStopped", keys, exit,
                r.stopped());
    }

    /** A state in the trace's words ({@code failed}). */
    private static String state(KeyState s) {
        return t("core.trace.state." + s.name());
    }

    /** A line's result in the trace's words: {@code ok}, {@code failed}, {@code probe:present}, … */
    private static String result(String result) {
        String key = "core.trace.result." + result.replace(':', '.');
        return io.keyline.text.Text.has(key) ? t(key) : result;
    }

    private void human(Instant ts, String job, String key, String step, int attempt, String result, String cls,
                       long durationMs, String message) {
        if (human == null) {
            return;
        }
        StringBuilder sb = new StringBuilder(TIME.format(ts)).append("  ").append(job);
        if (key != null) {
            sb.append(' ').append(key);
        }
        if (step != null) {
            sb.append("  ").append(step).append(" #").append(attempt);
        }
        sb.append("  ").append(result(result));
        if (cls != null) {
            sb.append(" [").append(cls).append(']');
        }
        sb.append(' ').append(t("core.trace.duration", durationMs));
        if (message != null && !message.isEmpty()) {
            // text from outside (a server's answer, a command's output) never reaches a terminal raw
            sb.append("  ").append(io.keyline.domain.Printable.line(message));
        }
        human.println(sb);
        human.flush();
    }

    private void write(Map<String, Object> m) {
        if (log == null) {
            return;
        }
        try {
            log.append(WITH_NULLS.writeValueAsString(m));
        } catch (IOException e) {
            throw new StateUnavailableException(io.keyline.text.Said.of("core.trace.cannotAppend",
                    String.valueOf(log.file()), String.valueOf(e.getMessage())), e);
        }
    }

    @Override
    public synchronized void close() {
        if (log != null) {
            log.close();
        }
    }
}
