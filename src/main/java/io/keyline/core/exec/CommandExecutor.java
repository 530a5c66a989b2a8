package io.keyline.core.exec;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.domain.Evidence;
import io.keyline.domain.FailureClass;
import io.keyline.domain.FailureOrigin;
import io.keyline.text.Said;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Executes command steps and command probes as child processes ({@link ProcessTree}: a timeout ends
 * the program and everything it started). {@code {key}}, {@code {job}} and {@code {runId}} are
 * substituted in the arguments; outputs of earlier steps and the credential go into the environment,
 * never onto the command line. The last stdout line may be
 * {@code {"outputs":{…},"outcome":"…","message":"…"}}.
 */
public final class CommandExecutor implements StepExecutor {

    static final int TAIL_BYTES = 8 * 1024;
    private static final int STDOUT_KEEP = 64 * 1024;

    private final Clock clock;

    public CommandExecutor(Clock clock) {
        this.clock = clock;
    }

    /** What a finished (or killed) child left behind. */
    /** @param cutLastLine the start of the last stdout line when it is longer than what is kept, else {@code null} */
    private record Finished(int exit, boolean timedOut, String stdout, String stderr, String cutLastLine) {
    }

    @Override
    public StepOutcome execute(StepContext ctx) throws InterruptedException {
        return execute(ctx, ExecutionListener.NONE);
    }

    @Override
    public StepOutcome execute(StepContext ctx, ExecutionListener listener) throws InterruptedException {
        Rendering.RenderedCommand cmd;
        try {
            cmd = Rendering.command(ctx);
        } catch (Rendering.RenderException e) {
            Said why = e.said().map(ctx.redact());
            return StepOutcome.failure(FailureClass.FATAL, why, new Evidence(clock.instant(), ctx.attempt(), null, null,
                    null, null, null, null, null, why.english(), null));
        }
        Said noScript = missingScript(cmd);
        if (noScript != null) {
            return StepOutcome.failure(FailureClass.FATAL, FailureOrigin.ENVIRONMENT, noScript.map(ctx.redact()),
                    evidence(ctx, cmd, null, null, null, noScript.english()));
        }
        Finished f;
        try {
            f = run(ctx, cmd, ctx.step().timeout(), listener);
        } catch (IOException e) {
            Said msg = Said.of("core.exec.cannotStart", cmd.argv().get(0), String.valueOf(e.getMessage()));
            return StepOutcome.failure(FailureClass.FATAL, FailureOrigin.ENVIRONMENT, msg.map(ctx.redact()),
                    evidence(ctx, cmd, null, null, null, msg.english()));
        }
        String stderr = ctx.redact().apply(f.stderr);
        String stdout = ctx.redact().apply(f.stdout);
        Report report = report(f.stdout, f.cutLastLine);
        if (f.timedOut) {
            Said msg = Said.of("core.exec.killedAfterTimeout", human(ctx.step().timeout()));
            return StepOutcome.failure(FailureClass.TRANSIENT_AFTER_SEND, FailureOrigin.NO_ANSWER, msg,
                    evidence(ctx, cmd, null, tail(stdout), tail(stderr), msg.english()));
        }
        Evidence ev = evidence(ctx, cmd, f.exit, tail(stdout), tail(stderr), null);
        FailureClass cls = report.outcome != null ? report.outcome : Classifier.ofExit(f.exit);
        if (cls == null && report.unreadable) {
            // it may have said "ambiguous" or "fatal": a report that cannot be read is not a success
            Said msg = Said.of("core.exec.reportUnreadable", f.exit);
            return StepOutcome.failure(FailureClass.UNKNOWN, FailureOrigin.ANSWER, msg, ev);
        }
        if (cls == null) {
            String msg = report.message != null ? report.message : plainLastLine(f.stdout);
            return StepOutcome.success(ctx.redact().apply(msg), report.outputs, ev);
        }
        String why = report.message != null ? report.message : lastLine(stderr);
        Said msg = why.isEmpty() ? Said.of("core.exec.exit", f.exit) : Said.of("core.exec.exitWhy", f.exit, why);
        // a program that said what went wrong ({"outcome": ...}) answered; 126/127 without it is a shell that
        // could not find or execute the program
        FailureOrigin origin = report.outcome != null ? FailureOrigin.ANSWER : Classifier.originOfExit(f.exit);
        return StepOutcome.failure(cls, origin, msg.map(ctx.redact()), ev);
    }

    @Override
    public ProbeOutcome probe(StepContext ctx) throws InterruptedException {
        Rendering.RenderedCommand cmd;
        try {
            cmd = Rendering.probeCommand(ctx);
        } catch (Rendering.RenderException e) {
            return new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, e.said().map(ctx.redact()), null);
        }
        Said noScript = missingScript(cmd);
        if (noScript != null) {
            return ProbeOutcome.unreachable(noScript.map(ctx.redact()), null);
        }
        Finished f;
        try {
            f = run(ctx, cmd, ctx.step().probe().timeout(), ExecutionListener.NONE);
        } catch (IOException e) {
            return ProbeOutcome.unreachable(Said.of("core.exec.cannotStartProbe", cmd.argv().get(0),
                    String.valueOf(e.getMessage())).map(ctx.redact()), null);
        }
        Evidence ev = evidence(ctx, cmd, f.timedOut ? null : f.exit, tail(ctx.redact().apply(f.stdout)),
                tail(ctx.redact().apply(f.stderr)), f.timedOut ? "probe timed out" : null);
        if (f.timedOut) {
            return new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, Said.of("core.exec.probeTimedOut"), ev);
        }
        return probeAnswer(f.exit, f.stdout, ev, ctx);
    }

    /**
     * A command probe answers with its last stdout line {@code {"present": true}} or
     * {@code {"present": false}} and exit 0; exit 77 or {@code {"outcome": "auth"}} is a rejected
     * credential; anything else (exit 1, a crash, no answer line, garbage) cannot answer.
     */
    private static ProbeOutcome probeAnswer(int exit, String stdout, Evidence ev, StepContext ctx) {
        String last = lastLine(stdout);
        JsonNode line = null;
        if (last.startsWith("{")) {
            try {
                line = Json.MAPPER.readTree(last);
            } catch (IOException notJson) {
                line = null;
            }
        }
        JsonNode outcome = line == null ? null : line.get("outcome");
        if (exit == Classifier.EXIT_AUTH || outcome != null && "auth".equals(outcome.asText())) {
            return new ProbeOutcome(ProbeOutcome.Answer.AUTH, Said.of("core.exec.probeRejected",
                    exit == Classifier.EXIT_AUTH ? "exit " + exit : "exit " + exit + " with outcome auth"), ev);
        }
        JsonNode present = line == null || !line.isObject() ? null : line.get("present");
        if (exit == 0 && present != null && present.isBoolean()) {
            boolean there = present.booleanValue();
            return new ProbeOutcome(there ? ProbeOutcome.Answer.PRESENT : ProbeOutcome.Answer.ABSENT,
                    Said.of(there ? "core.exec.probePresent" : "core.exec.probeAbsent", "{\"present\": " + there + "}"),
                    ev);
        }
        Said why = exit != 0 ? Said.of("core.exec.exit", exit)
                : Said.of("core.exec.probeNoLine", ANSWER_LINE, last.isEmpty() ? Said.of("core.exec.probeNoOutput")
                : Said.of("core.exec.probeGot", HttpExecutor.clip(last, 80)));
        return new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE,
                Said.of("core.exec.probeNoAnswer", Said.of("core.exec.isNoAnswer", why)).map(ctx.redact()), ev);
    }

    /** Shells whose first operand is the script they run. */
    private static final java.util.Set<String> SHELLS = java.util.Set.of("sh", "bash", "dash", "zsh", "ksh");

    /**
     * Why a shell cannot start its script, or {@code null}: {@code ["sh", "scripts/x.sh"]} whose script is not
     * there is a program that is not there (the environment's failure), not a program that said no, although
     * dash exits 2 for it. Only a script given by its path: a bare name may be found on PATH (bash looks there),
     * and a shell told what to run by an option ({@code -c}) is left to say so itself.
     */
    static Said missingScript(Rendering.RenderedCommand cmd) {
        List<String> argv = cmd.argv();
        if (argv.size() < 2 || argv.get(1).startsWith("-") || !argv.get(1).contains("/")) {
            return null;
        }
        Path program;
        Path script;
        try {
            program = Path.of(argv.get(0)).getFileName();
            Path dir = cmd.workdir() != null ? cmd.workdir() : Path.of("").toAbsolutePath();
            script = dir.resolve(argv.get(1));
            if (program == null || !SHELLS.contains(program.toString()) || Files.exists(script)) {
                return null;
            }
            return Said.of("core.exec.noScript", argv.get(0), argv.get(1), dir.toString());
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
    }

    /** The last line a command probe prints to answer. */
    private static final String ANSWER_LINE = "{\"present\": true|false}";

    private Finished run(StepContext ctx, Rendering.RenderedCommand cmd, Duration timeout, ExecutionListener listener)
            throws IOException, InterruptedException {
        Map<String, String> env = new LinkedHashMap<>(cmd.env());
        // the job, key, step and run also tell a run that takes over after a crash that this process is the step's
        env.putAll(ChildProcesses.identity(ctx.job().name(), ctx.key(), ctx.step().id(), ctx.runId()));
        env.put("KEYLINE_ATTEMPT", Integer.toString(ctx.attempt()));
        if (ctx.credential() != null) {
            env.putAll(ctx.credential().environment(clock.instant()));
        }
        try (ProcessTree child = ProcessTree.start(cmd.argv(), cmd.workdir(), env, ProcessTree.Stdin.NONE)) {
            try {
                listener.childStarted(child.pid(), child.startedAt());
            } catch (RuntimeException e) {
                // the step runs anyway; only a takeover after a crash could not wait for it (the engine's
                // listener says so in the run log)
            }
            // the child is recorded (committed): now its program may start
            child.open();
            TailBuffer out = new TailBuffer(child.stdout(), STDOUT_KEEP, "keyline-stdout-" + ctx.step().id());
            TailBuffer err = new TailBuffer(child.stderr(), TAIL_BYTES, "keyline-stderr-" + ctx.step().id());
            boolean exited;
            try {
                exited = child.waitFor(timeout);
            } catch (InterruptedException e) {
                child.end(Duration.ZERO);
                throw e;
            }
            if (!exited) {
                child.end(Duration.ZERO);
            }
            out.finish(2_000);
            err.finish(2_000);
            return new Finished(exited ? child.exitValue() : -1, !exited, out.text(), err.text(),
                    out.cutLastLineHead());
        }
    }

    /** The optional JSON report on the last stdout line. */
    private record Report(Map<String, String> outputs, FailureClass outcome, String message, boolean unreadable) {
        Report(Map<String, String> outputs, FailureClass outcome, String message) {
            this(outputs, outcome, message, false);
        }
    }

    /**
     * @param cutLastLine the start of the last line when only its end was kept: a JSON object with an
     *                    {@code "outcome"} in its start or its kept end is a report Keyline cannot read, not output
     */
    private static Report report(String stdout, String cutLastLine) {
        if (cutLastLine != null) {
            String kept = stdout.stripTrailing();
            String end = kept.substring(kept.lastIndexOf('\n') + 1);
            boolean looksLikeReport = cutLastLine.stripLeading().startsWith("{")
                    && (cutLastLine.contains("\"outcome\"") || end.contains("\"outcome\""));
            return new Report(Map.of(), null, null, looksLikeReport);
        }
        String last = lastLine(stdout);
        if (!last.startsWith("{")) {
            return new Report(Map.of(), null, null);
        }
        try {
            JsonNode root = Json.MAPPER.readTree(last);
            Map<String, String> outputs = new LinkedHashMap<>();
            JsonNode o = root.get("outputs");
            if (o != null && o.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> f = it.next();
                    outputs.put(f.getKey(), f.getValue().isValueNode() ? f.getValue().asText() : f.getValue().toString());
                }
            }
            JsonNode outcome = root.get("outcome");
            JsonNode message = root.get("message");
            return new Report(outputs, outcome == null ? null : Classifier.ofOutcome(outcome.asText()),
                    message == null || message.isNull() ? null : message.asText());
        } catch (StreamConstraintsException tooMuch) {
            // JSON, but nested deeper or with a longer number or text than the reader takes
            return new Report(Map.of(), null, null, true);
        } catch (IOException notJson) {
            return new Report(Map.of(), null, null);
        }
    }

    private Evidence evidence(StepContext ctx, Rendering.RenderedCommand cmd, Integer exit, String stdout,
                              String stderr, String detail) {
        List<String> argv = cmd.argv().stream().map(ctx.redact()).toList();
        return new Evidence(clock.instant(), ctx.attempt(), null, null, null, exit, stderr, stdout, argv,
                detail == null ? null : ctx.redact().apply(detail), null);
    }

    private static String tail(String s) {
        if (s == null || s.isEmpty()) {
            return null;
        }
        return s.length() <= TAIL_BYTES ? s : "…" + s.substring(s.length() - TAIL_BYTES);
    }

    static String lastLine(String s) {
        if (s == null) {
            return "";
        }
        String t = s.stripTrailing();
        int nl = t.lastIndexOf('\n');
        String line = nl < 0 ? t : t.substring(nl + 1);
        return line.length() > 300 && !line.startsWith("{") ? line.substring(0, 300) + "…" : line.strip();
    }

    /** The last stdout line that is not the JSON report, or "exit 0". */
    private static String plainLastLine(String stdout) {
        String[] lines = stdout == null ? new String[0] : stdout.strip().split("\n");
        for (int i = lines.length - 1; i >= 0; i--) {
            String l = lines[i].strip();
            if (!l.isEmpty() && !l.startsWith("{")) {
                return l.length() > 200 ? l.substring(0, 200) + "…" : l;
            }
        }
        return "exit 0";
    }

    static String human(Duration d) {
        return d.toString().substring(2).toLowerCase(java.util.Locale.ROOT);
    }
}
