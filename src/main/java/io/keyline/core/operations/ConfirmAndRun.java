package io.keyline.core.operations;

import io.keyline.core.ConfirmedPayload;
import io.keyline.core.CredentialProvider;
import io.keyline.core.Engine;
import io.keyline.core.OperatorActions;
import io.keyline.core.OperatorException;
import io.keyline.core.Plan;
import io.keyline.core.RunReport;
import io.keyline.core.ShownBody;
import io.keyline.core.ShownHeaders;
import io.keyline.core.KeyEvents;
import io.keyline.core.KeyRecords;
import io.keyline.core.exec.Rendering;
import io.keyline.core.exec.StepContext;
import io.keyline.credentials.Redactor;
import io.keyline.domain.EventType;
import io.keyline.domain.Evidence;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepKind;
import io.keyline.domain.WaitReason;
import io.keyline.text.Said;
import io.keyline.text.Text;

import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Confirm-and-run, as {@code keyline confirm} and the console's Confirm dialog do it: show why a key
 * waits and exactly what its unsafe step will send (secrets masked, the same headers as the plan), then
 * confirm that payload — bound to the hash that was shown — and run the key once.
 */
public record ConfirmAndRun(KeyRecords store, KeyEvents history, CredentialProvider credentials,
                            OperatorActions actions, Clock clock) {

    /** Body preview size. */
    public static final int PREVIEW_BYTES = 4096;

    /** Why the key waits. */
    public enum Reason {
        /** The step has {@code confirm: always}. */
        CONFIRM_ALWAYS,
        /** An earlier attempt may have reached the site; its outcome is unknown. */
        OUTCOME_UNKNOWN,
        /** It was confirmed, but the payload changed before it ran. */
        PAYLOAD_CHANGED,
        /**
         * An unattended run met the job before its unsafe steps were reviewed (a new job) or after they changed: the
         * job is reviewed as a whole (its plan applied, or approved), not one key.
         */
        REVIEW,
        /** Some other reason (see the message). */
        OTHER,
        /** The key does not wait for confirmation (any more). */
        NOT_WAITING;

        /** Why the key waits, in one sentence ("The outcome of the last attempt is unknown: …"). */
        public String headline() {
            return Text.t("core.confirm.reason." + name());
        }
    }

    /**
     * Exactly what the waiting step sends.
     *
     * @param kind        http or command
     * @param method      method (http)
     * @param url         URL (http)
     * @param headers     headers in sending order, credential values masked (http): {@link ShownHeaders}
     * @param bodyBytes   body size (http)
     * @param bodySha256  hex SHA-256 of the body (http)
     * @param bodySource  "file out/x.md", "inline" or "none" (http)
     * @param bodyPreview the first 4 KiB of the body as text (http)
     * @param argv        arguments (command)
     * @param workdir     working directory (command)
     * @param env         extra environment as shown, credential variables masked (command): each value as words, a
     *                    credential's masked value said in the language in use, any other value as it is
     * @param hash        payload hash the confirmation binds, or {@code null} when it cannot be rendered
     * @param problem     why it cannot be rendered, or {@code null}
     * @param fields      the fields of a body given by its fields (form, multipart, JSON strings), secrets masked
     *                    ({@link ShownBody}); empty for other bodies
     * @param runFirst    the read-only steps that run again before it (a renewal of their login discarded their
     *                    outputs): what they fetch is shown as where it comes from; empty when it is sent at once
     */
    public record Payload(StepKind kind, String method, String url, List<ShownHeaders.Header> headers, long bodyBytes,
                          String bodySha256, String bodySource, String bodyPreview, List<String> argv, String workdir,
                          Map<String, Said> env, String hash, String problem, List<ShownBody.Field> fields,
                          List<String> runFirst) {

        public Payload {
            fields = fields == null ? List.of() : List.copyOf(fields);
            runFirst = runFirst == null ? List.of() : List.copyOf(runFirst);
        }

        /** A payload sent at once (no step runs before it). */
        public Payload(StepKind kind, String method, String url, List<ShownHeaders.Header> headers, long bodyBytes,
                       String bodySha256, String bodySource, String bodyPreview, List<String> argv, String workdir,
                       Map<String, Said> env, String hash, String problem, List<ShownBody.Field> fields) {
            this(kind, method, url, headers, bodyBytes, bodySha256, bodySource, bodyPreview, argv, workdir, env, hash,
                    problem, fields, List.of());
        }

        /** A payload without body fields. */
        public Payload(StepKind kind, String method, String url, List<ShownHeaders.Header> headers, long bodyBytes,
                       String bodySha256, String bodySource, String bodyPreview, List<String> argv, String workdir,
                       Map<String, Said> env, String hash, String problem) {
            this(kind, method, url, headers, bodyBytes, bodySha256, bodySource, bodyPreview, argv, workdir, env, hash,
                    problem, List.of());
        }

        /** The payload as the monospace "What will be sent" block. */
        public String text() {
            StringBuilder sb = new StringBuilder();
            if (problem != null) {
                return Text.t("core.confirm.cannotShow", problem);
            }
            if (!runFirst.isEmpty()) {
                sb.append(runFirstText()).append("\n\n");
            }
            if (kind == StepKind.HTTP) {
                sb.append(method).append(' ').append(url).append('\n');
                headers.forEach(h -> sb.append(h.shown()).append('\n'));
                sb.append('\n');
                if (bodyBytes == 0) {
                    sb.append(Text.t("core.confirm.noBody")).append('\n');
                } else {
                    String size = Text.t(bodyBytes == 1 ? "core.confirm.byte" : "core.confirm.bytes",
                            Long.toString(bodyBytes));
                    sb.append(Text.t("core.confirm.bodyLine", bodySource == null
                            || bodySource.equals(Plan.RequestPreview.NO_BODY) ? size
                            : Text.t("core.confirm.bytesFrom", size, PlanText.bodySource(bodySource)))).append('\n');
                    sb.append(bodySha256 == null ? Text.t("core.confirm.shaAtRunTime")
                            : Text.t("core.confirm.shaLine", bodySha256)).append('\n');
                    if (!fields.isEmpty()) {
                        sb.append(Text.t("core.confirm.fields")).append('\n');
                        PlanText.fields(sb, fields, "  ");
                    }
                    sb.append('\n').append(bodyPreview);
                    if (!bodyPreview.endsWith("\n")) {
                        sb.append('\n');
                    }
                    if (bodyBytes > PREVIEW_BYTES) {
                        sb.append(Text.t("core.confirm.moreBytes", bodyBytes - PREVIEW_BYTES)).append('\n');
                    }
                }
            } else {
                sb.append("$ ").append(EvidenceText.argv(argv)).append('\n');
                sb.append(Text.t("core.confirm.workdir", workdir)).append('\n');
                env.forEach((k, v) -> sb.append(Text.t("core.confirm.env", k, v.text())).append('\n'));
            }
            return sb.toString().stripTrailing();
        }

        /**
         * "First nonce runs again with the stored login (read-only): the login was renewed, and what it fetched
         * belonged to the old one. …", or empty when the step is sent at once.
         */
        public String runFirstText() {
            return runFirst.isEmpty() ? "" : Text.t("core.confirm.runFirst", String.join(", ", runFirst),
                    runFirst.size());
        }
    }

    /**
     * Everything shown about the waiting key.
     *
     * @param record        the key's record when it was read
     * @param step          the waiting step, or {@code null}
     * @param reason        why it waits
     * @param evidence      the ambiguous failure's evidence, or {@code null}
     * @param evidenceWords the words of the event that recorded it (they say its detail), or {@code null}
     * @param probeAnswer   the probe's latest answer in plain words, or a sentence saying there is none
     * @param probeAnswered whether {@code probeAnswer} gives an answer (the reason then does not repeat it)
     * @param probeEvidence what the probe saw, or {@code null}
     * @param payload       what will be sent, or {@code null} without a step
     * @param rejectedCredential the step's credential when the site rejected it (the engine's breaker
     *                      then sends nothing: a confirmed key waits for a new login instead), else {@code null}
     */
    public record Preview(KeyRecord record, StepDefinition step, Reason reason, Evidence evidence, Said evidenceWords,
                          String probeAnswer, boolean probeAnswered, Evidence probeEvidence, Payload payload,
                          String rejectedCredential) {

        /**
         * "The site rejected the login sandbox-cookie: …", or empty: confirming now would send nothing (the
         * breaker holds requests with a rejected credential), the key would only wait for a login again.
         */
        public String credentialWarning() {
            return rejectedCredential == null ? "" : Text.t("core.confirm.credentialWarning", rejectedCredential);
        }

        public boolean waiting() {
            return record.state() == KeyState.NEEDS_CONFIRMATION;
        }

        /** Whether the payload can be confirmed: the key waits and what it sends could be rendered. */
        public boolean confirmable() {
            return waiting() && reason != Reason.REVIEW && payload != null && payload.hash() != null;
        }

        /** The key's message, one printable line. */
        public String message() {
            Said said = record.said();
            // the probe's latest answer has a line of its own, with its time: the reason does not say it again
            if (probeAnswered && said != null && "core.event.withProbe".equals(said.key())
                    && said.args().get(0) instanceof Said what) {
                return Words.words(what);
            }
            return Words.keyMessage(record);
        }

        /** "Why it waits" in one sentence. */
        public String headline() {
            return reason == Reason.NOT_WAITING
                    ? Text.t("core.confirm.notWaiting", Words.stateLower(record.state()))
                    : reason.headline();
        }

        /** The ambiguous failure's evidence and the probe's, as text; empty without. */
        public String evidenceText() {
            return EvidenceText.withProbe(evidence, evidenceWords, probeEvidence);
        }
    }

    /**
     * What the confirmed step came to in the run that followed: the probe asked right before it, whether
     * the step was sent, and the answer.
     *
     * @param probe         the probe's answer in that run, before the step ({@code null}: no probe was asked)
     * @param probeAt       when the probe answered, or {@code null}
     * @param probeChecked  what the probe checked, one printable line ("/total = 0"), or empty
     * @param probeEvidence what the probe sent and got back, or {@code null}
     * @param sent          whether the step was executed (its request left, its command ran) in that run
     * @param status        the HTTP status of the step's answer, or {@code null} (no answer, a command)
     * @param exitCode      the exit code of a command step, or {@code null}
     * @param outputs       the step's outputs after it succeeded (secrets masked; the status is in
     *                      {@code status}), else empty
     * @param evidence      what the step sent and got back (its success or its failure), or {@code null}
     */
    public record StepResult(io.keyline.domain.ProbeAnswer probe, java.time.Instant probeAt,
                             String probeChecked, Evidence probeEvidence, boolean sent, Integer status,
                             Integer exitCode, Map<String, String> outputs, Evidence evidence) {
        public StepResult {
            // kept in the order given (the step's record): an immutable Map.copyOf would list them in a random order
            outputs = outputs == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(outputs));
        }

        /** The step's answer from the site (its body, on one line), or empty. */
        public String siteAnswer() {
            return evidence == null || evidence.responseBody() == null || evidence.responseBody().isBlank() ? ""
                    : EvidenceText.oneLine(io.keyline.domain.Printable.line(evidence.responseBody()), 240);
        }
    }

    /**
     * What confirm-and-run did.
     *
     * @param confirmed the key right after the confirmation (PENDING, bound to the payload)
     * @param report    the run of the key
     * @param after     the key when the run ended
     * @param result    what the confirmed step came to in that run, or {@code null} when the run did not reach it
     */
    public record Outcome(KeyRecord confirmed, RunReport report, KeyRecord after, StepResult result) {
    }

    /**
     * Confirms exactly the payload that was shown and runs the key once.
     *
     * @param shownHash the payload hash the operator was shown, or {@code null} to bind the current one
     *                  (the command line without {@code --payload})
     * @param confirmed called after the confirmation is recorded, before the run
     * @throws OperatorException when the key cannot be confirmed or the payload changed since it was shown
     */
    public Outcome confirmAndRun(JobDefinition job, String key, String note, String shownHash, Engine engine,
                                 Consumer<KeyRecord> confirmed) {
        KeyRecord c = actions.confirm(job, key, blankToNull(note), shownHash);
        confirmed.accept(c);
        RunReport report = engine.run(job, List.of(key));
        KeyRecord after = store.key(job.name(), key).orElse(c);
        return new Outcome(c, report, after, result(job, key, c.step(), report.runId()));
    }

    /**
     * What {@code stepId} of a key came to in run {@code runId}: the probe answered before it, whether it was
     * sent, its answer (status, outputs, evidence). {@code null} when the run has no event of that step.
     */
    public StepResult result(JobDefinition job, String key, String stepId, String runId) {
        if (stepId == null || runId == null) {
            return null;
        }
        io.keyline.domain.ProbeAnswer probe = null;
        java.time.Instant probeAt = null;
        String checked = "";
        Evidence probeEvidence = null;
        boolean sent = false;
        boolean seen = false;
        Evidence evidence = null;
        for (KeyEvent e : history.events(job.name(), key)) {
            if (!runId.equals(e.runId()) || !stepId.equals(e.step())) {
                continue;
            }
            seen = true;
            if (e.probe() != null && e.probe() != io.keyline.domain.ProbeAnswer.NOT_ASKED && !sent) {
                probe = e.probe();
                probeAt = e.ts();
                checked = Words.probeChecked(e);
                probeEvidence = e.evidence();
            }
            if (e.type() == EventType.STEP_STARTED) {
                sent = true;
            } else if (sent && e.evidence() != null && e.probe() == null) {
                // the step's own answer (a probe asked again after it carries the probe's evidence, not the step's)
                evidence = e.evidence();
            }
        }
        if (!seen) {
            return null;
        }
        Map<String, String> outputs = new LinkedHashMap<>();
        Map<String, io.keyline.domain.StepRecord> records = store.steps(job.name(), key);
        io.keyline.domain.StepRecord sr = records.get(stepId);
        if (sent && sr != null && sr.status() == io.keyline.domain.StepStatus.SUCCEEDED) {
            // the job's credentials and the outputs its job file marks secret (this step's own among them), as
            // every other place that shows a key's outputs masks them
            Map<String, Map<String, String>> byStep = new LinkedHashMap<>();
            records.forEach((id, s) -> byStep.put(id, s.outputs()));
            Redactor mask = ShownHeaders.secretsOf(job, credentials).plus(job.secretValues(byStep));
            // the created id first, then the others by name: the same order on every screen and every run
            sr.outputs().entrySet().stream().filter(o -> !o.getKey().equals("status"))
                    .sorted(java.util.Comparator.comparing((Map.Entry<String, String> o) -> !o.getKey().equals("id"))
                            .thenComparing(Map.Entry::getKey))
                    .forEach(o -> outputs.put(o.getKey(), mask.redact(io.keyline.domain.Printable.line(o.getValue()))));
        }
        return new StepResult(probe, probeAt, checked, probeEvidence, sent,
                evidence == null ? null : evidence.status(), evidence == null ? null : evidence.exitCode(), outputs,
                evidence);
    }

    /** Why the key waits and exactly what its step will send (read-only). */
    public Preview preview(JobDefinition def, String key) {
        KeyRecord rec = store.key(def.name(), key).orElseThrow(() -> new OperatorException(
                Text.t("core.confirm.neverRan", key, def.name())));
        StepDefinition step = rec.step() == null ? null : def.step(rec.step());
        List<KeyEvent> events = history.events(def.name(), key);
        Reason why = reason(rec);
        Evidence failure = null;
        Said failureWords = null;
        Evidence probeEvidence = null;
        String probe;
        boolean answered = false;
        if (step != null && why == Reason.OUTCOME_UNKNOWN) {
            for (int n = events.size() - 1; n >= 0 && failure == null; n--) {
                KeyEvent e = events.get(n);
                if (e.type() == EventType.STEP_FAILED && step.id().equals(e.step()) && e.evidence() != null) {
                    failure = e.evidence();
                    failureWords = e.said();
                }
            }
        }
        if (why == Reason.REVIEW) {
            // nothing was sent and nothing is asked before the review: an earlier probe's answer says nothing of it
            probe = "";
        } else if (step == null || step.probe() == null) {
            probe = step == null ? "" : Text.t("core.confirm.noProbe");
        } else {
            KeyEvent last = null;
            for (int n = events.size() - 1; n >= 0 && last == null; n--) {
                KeyEvent e = events.get(n);
                if (e.probe() != null && step.id().equals(e.step())) {
                    last = e;
                }
            }
            if (last == null) {
                probe = Text.t("core.confirm.probeNotYet");
            } else {
                probe = Text.t("core.confirm.probeLatest", Words.probe(last), EvidenceText.time(last.ts()));
                answered = true;
                String method = step.probe().method() == null ? "GET" : step.probe().method();
                if (last.evidence() != null && last.evidence().request() != null
                        && last.evidence().request().method().equals(method)) {
                    probeEvidence = last.evidence();
                }
            }
        }
        Payload payload = step == null ? null : payload(def, rec, step);
        String rejected = null;
        if (step != null && step.credential() != null) {
            CredentialProvider.Lookup cred = credentials.lookup(step.credential());
            rejected = cred.present() && cred.rejected() != null ? step.credential() : null;
        }
        return new Preview(rec, step, why, failure, failureWords, probe, answered, probeEvidence, payload, rejected);
    }

    static Reason reason(KeyRecord rec) {
        if (rec.state() != KeyState.NEEDS_CONFIRMATION) {
            return Reason.NOT_WAITING;
        }
        WaitReason why = rec.waitReason();
        if (why == null) {
            return Reason.OTHER;
        }
        return switch (why) {
            case OUTCOME_UNKNOWN -> Reason.OUTCOME_UNKNOWN;
            case PAYLOAD_CHANGED -> Reason.PAYLOAD_CHANGED;
            case CONFIRM_ALWAYS -> Reason.CONFIRM_ALWAYS;
            case REVIEW -> Reason.REVIEW;
        };
    }

    /**
     * What {@code step} of a key would send now (rendered as the engine will, with the outputs of the
     * finished steps), with its hash; rendered again while its files change under it.
     */
    Payload payloadOf(JobDefinition def, KeyRecord rec, StepDefinition step) {
        Payload p = null;
        for (int tries = 0; tries < 3; tries++) {
            StepContext ctx = context(def, rec, step);
            p = render(ctx, List.of());
            if (p.hash() == null || Objects.equals(io.keyline.core.Engine.payloadHash(context(def, rec, step)),
                    p.hash())) {
                return p;
            }
        }
        return unstable(p);
    }

    private StepContext context(JobDefinition def, KeyRecord rec, StepDefinition step) {
        Map<String, Map<String, String>> outputs = new HashMap<>();
        store.steps(def.name(), rec.key()).values().stream().filter(s -> s.status().finished())
                .forEach(s -> outputs.put(s.step(), s.outputs()));
        return new StepContext(def, step, rec.key(), "{runId}", rec.attempts() + 1, outputs, null,
                UnaryOperator.identity(), actions.redo(def, rec.key(), step));
    }

    private static Payload unstable(Payload p) {
        return new Payload(p.kind(), p.method(), p.url(), p.headers(), p.bodyBytes(), p.bodySha256(), p.bodySource(),
                p.bodyPreview(), p.argv(), p.workdir(), p.env(), null, Text.t("core.confirm.unstable"), p.fields(),
                p.runFirst());
    }

    /**
     * Renders the step as the engine will, with the outputs of the finished steps (those of the steps that run again
     * before it as where they come from), and binds it to the core's payload hash ({@link OperatorActions#payloadHash},
     * rendered again if the files changed in between).
     */
    private Payload payload(JobDefinition def, KeyRecord rec, StepDefinition step) {
        Payload p = null;
        for (int tries = 0; tries < 3; tries++) {
            Map<String, io.keyline.domain.StepRecord> records = store.steps(def.name(), rec.key());
            Map<String, Map<String, String>> outputs = new HashMap<>();
            records.values().stream().filter(s -> s.status().finished())
                    .forEach(s -> outputs.put(s.step(), s.outputs()));
            StepContext ctx = new StepContext(def, step, rec.key(), "{runId}", rec.attempts() + 1, outputs, null,
                    UnaryOperator.identity(), actions.redo(def, rec.key(), step));
            p = render(ctx, ConfirmedPayload.runFirst(def, step.id(), records));
            if (Objects.equals(actions.payloadHash(def, rec), p.hash())) {
                return p;
            }
        }
        return unstable(p);
    }

    /**
     * The payload as it is shown: outputs of earlier steps are data and reach it unmasked, so every
     * secret of the job's credentials is masked in what the operator sees (the hash is of the real payload).
     */
    private Payload render(StepContext ctx, List<String> runFirst) {
        StepDefinition step = ctx.step();
        // and the outputs the job file marks secret (a session's token in a header, a field, the URL)
        Redactor mask = ShownHeaders.secretsOf(ctx.job(), credentials).plus(ctx.job().secretValues(ctx.outputs()));
        CredentialProvider.Lookup cred = step.credential() == null ? null : credentials.lookup(step.credential());
        StepContext bound = ShownBody.bound(ctx, runFirst);
        try {
            if (step.kind() == StepKind.HTTP) {
                Rendering.RenderedRequest req = Rendering.request(bound);
                byte[] body = req.body();
                // a body that takes a value fetched at run time: its hash is known only then
                boolean runTimeBody = ShownBody.bodyUsesRunTime(step, runFirst);
                return new Payload(StepKind.HTTP, req.method(), ShownBody.unmarked(mask.redact(req.uri().toString())),
                        ShownHeaders.withRunTime(ShownHeaders.of(step, req, cred, mask, clock.instant()), ctx,
                                runFirst, mask), body.length,
                        body.length == 0 || runTimeBody ? null : req.bodySha256(), req.bodySource(),
                        mask.redact(preview(body)), List.of(), null, Map.of(), req.payloadHash(), null,
                        ShownBody.fields(ctx, runFirst, mask::redact), runFirst);
            }
            Rendering.RenderedCommand cmd = Rendering.command(bound);
            Map<String, Said> env = new LinkedHashMap<>();
            cmd.env().forEach((k, v) -> env.put(k, Said.plain(mask.redact(v))));
            if (cred != null) {
                if (cred.present()) {
                    cred.material().environment(clock.instant()).keySet().forEach(n -> env.put(n, ShownHeaders.masked(
                            step.credential(), cred.material().fingerprint(), cred.rejected() != null)));
                } else {
                    env.put(Text.t("core.confirm.credentialEnv", step.credential()),
                            Said.of("core.confirm.credentialMissing", cred.problem()));
                }
            }
            return new Payload(StepKind.COMMAND, null, null, List.of(), 0, null, null, null,
                    cmd.argv().stream().map(mask::redact).toList(), cmd.workdir().toString(), env, cmd.payloadHash(),
                    null, List.of(), runFirst);
        } catch (Rendering.RenderException e) {
            return new Payload(step.kind(), null, null, List.of(), 0, null, null, null, List.of(), null, Map.of(), null,
                    e.said().map(mask::redact).text());
        }
    }

    /** The first 4 KiB of a body as text (binary bodies are not shown). */
    static String preview(byte[] body) {
        int n = Math.min(body.length, PREVIEW_BYTES);
        for (int i = 0; i < n; i++) {
            if (body[i] == 0) {
                return Text.t("core.confirm.binaryBody");
            }
        }
        try {
            var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE);
            String text = decoder.decode(ByteBuffer.wrap(body, 0, n)).toString();
            // a cut in the middle of a multi-byte character shows as one replacement character at the end
            return n < body.length && text.endsWith("\uFFFD") ? text.substring(0, text.length() - 1) : text;
        } catch (java.nio.charset.CharacterCodingException e) {
            return Text.t("core.confirm.notText");
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
