package io.keyline.core;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The run trace: one line per step execution (and probe) and one per run, human-readable on the
 * console and as JSON lines appended to {@code state/logs/runs.jsonl}.
 */
public final class RunTrace implements AutoCloseable {

    /** A trace that writes nowhere. */
    public static final RunTrace NONE = new RunTrace(null, null);

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    /** Trace lines always carry every field, null or not. */
    private static final com.fasterxml.jackson.databind.ObjectMapper WITH_NULLS = Json.MAPPER.copy()
            .setSerializationInclusion(com.fasterxml.jackson.annotation.JsonInclude.Include.ALWAYS);

    private final PrintStream human;
    private final Writer jsonl;

    private RunTrace(PrintStream human, Writer jsonl) {
        this.human = human;
        this.jsonl = jsonl;
    }

    /** A trace to {@code human} and to {@code stateDir/logs/runs.jsonl}. */
    public static RunTrace open(Path stateDir, PrintStream human) {
        try {
            Path logs = stateDir.resolve("logs");
            PrivateFiles.createDirectories(logs);
            // the log is the operator's alone (0600), whatever the umask
            Writer w = java.nio.channels.Channels.newWriter(PrivateFiles.open(logs.resolve("runs.jsonl"),
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE),
                    StandardCharsets.UTF_8);
            w = new java.io.BufferedWriter(w);
            return new RunTrace(human, w);
        } catch (IOException e) {
            throw new StateUnavailableException("cannot write the run log in " + stateDir.resolve("logs") + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * One trace line.
     *
     * @param ts         when
     * @param runId      run
     * @param job        job
     * @param key        key, or {@code null} for a run line
     * @param step       step, or {@code null}
     * @param attempt    attempt, or 0
     * @param result     ok, failed, probe:present, … or the run's summary word
     * @param cls        failure class, or {@code null}
     * @param durationMs duration
     * @param message    redacted message
     */
    public synchronized void line(Instant ts, String runId, String job, String key, String step, int attempt,
                                  String result, String cls, long durationMs, String message) {
        if (human != null) {
            StringBuilder sb = new StringBuilder(TIME.format(ts)).append("  ").append(job);
            if (key != null) {
                sb.append(' ').append(key);
            }
            if (step != null) {
                sb.append("  ").append(step).append(" #").append(attempt);
            }
            sb.append("  ").append(result);
            if (cls != null) {
                sb.append(" [").append(cls).append(']');
            }
            sb.append(" (").append(durationMs).append(" ms)");
            if (message != null && !message.isEmpty()) {
                // one line per step: a message from outside cannot start a forged trace line or steer the terminal
                sb.append("  ").append(io.keyline.domain.Printable.line(message));
            }
            human.println(sb);
            human.flush();
        }
        if (jsonl != null) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("ts", ts.toString());
            m.put("runId", runId);
            m.put("job", job);
            m.put("key", key);
            m.put("step", step);
            m.put("attempt", attempt);
            m.put("result", result);
            m.put("class", cls);
            m.put("durationMs", durationMs);
            m.put("message", message);
            try {
                jsonl.write(WITH_NULLS.writeValueAsString(m));
                jsonl.write('\n');
                jsonl.flush();
            } catch (IOException e) {
                throw new StateUnavailableException("cannot append to the run log: " + e.getMessage(), e);
            }
        }
    }

    @Override
    public synchronized void close() {
        if (jsonl != null) {
            try {
                jsonl.close();
            } catch (IOException ignored) {
                // closing a log we only appended to
            }
        }
    }
}
