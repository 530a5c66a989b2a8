package io.keyline.ui.confirm;

import io.keyline.core.CredentialProvider;
import io.keyline.core.OperatorException;
import io.keyline.core.exec.Rendering;
import io.keyline.core.exec.StepContext;
import io.keyline.domain.ConfirmPolicy;
import io.keyline.domain.EventType;
import io.keyline.domain.Evidence;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepKind;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Threads;
import io.keyline.core.operations.EvidenceText;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;

/**
 * The confirm dialog's state: why a key waits, exactly what its unsafe step will send (secrets
 * masked) and the payload hash the confirmation is bound to. {@link #confirmAndRun} confirms that
 * payload and runs the key once; it never executes twice.
 */
public final class ConfirmViewModel {

    /** Body preview size. */
    static final int PREVIEW_BYTES = 4096;

    /** Why the key waits. */
    public enum Reason {
        /** The step has {@code confirm: always}. */
        CONFIRM_ALWAYS("This step is set to confirm: always — a person confirms every execution."),
        /** An earlier attempt may have reached the site; its outcome is unknown. */
        AMBIGUOUS("The outcome of the last attempt is unknown: the request may have reached the site."),
        /** It was confirmed, but the payload changed before it ran. */
        PAYLOAD_CHANGED("The payload changed after it was confirmed: review it and confirm again."),
        /** Some other reason (see the message). */
        OTHER("The step waits for a person."),
        /** The key does not wait for confirmation (any more). */
        NOT_WAITING("The key does not wait for a confirmation.");

        private final String headline;

        Reason(String headline) {
            this.headline = headline;
        }

        public String headline() {
            return headline;
        }
    }

    /**
     * A header as it will be sent, or masked.
     *
     * @param name   header name
     * @param value  value, or the mask of a credential header
     * @param masked whether the value is a credential (never shown)
     */
    public record Header(String name, String value, boolean masked) {
    }

    /**
     * Exactly what the waiting step sends.
     *
     * @param kind         http or command
     * @param method       method (http)
     * @param url          URL (http)
     * @param headers      headers in sending order, credential values masked (http)
     * @param bodyBytes    body size (http)
     * @param bodySha256   hex SHA-256 of the body (http)
     * @param bodySource   "file out/x.md", "inline" or "none" (http)
     * @param bodyPreview  the first 4 KiB of the body as text (http)
     * @param argv         arguments (command)
     * @param workdir      working directory (command)
     * @param env          extra environment, credential variables masked (command)
     * @param hash         payload hash the confirmation binds, or {@code null} when it cannot be rendered
     * @param problem      why it cannot be rendered, or {@code null}
     */
    public record Payload(StepKind kind, String method, String url, List<Header> headers, long bodyBytes,
                          String bodySha256, String bodySource, String bodyPreview, List<String> argv, String workdir,
                          Map<String, String> env, String hash, String problem) {

        /** The payload as the monospace "What will be sent" block. */
        public String text() {
            StringBuilder sb = new StringBuilder();
            if (problem != null) {
                return "Cannot show what will be sent: " + problem;
            }
            if (kind == StepKind.HTTP) {
                sb.append(method).append(' ').append(url).append('\n');
                headers.forEach(h -> sb.append(h.name()).append(": ").append(h.value()).append('\n'));
                sb.append('\n');
                if (bodyBytes == 0) {
                    sb.append("(no body)\n");
                } else {
                    sb.append("body     ").append(bodyBytes).append(bodyBytes == 1 ? " byte" : " bytes")
                            .append(bodySource == null || bodySource.equals("none") ? "" : " from " + bodySource)
                            .append('\n');
                    sb.append("sha256   ").append(bodySha256).append('\n');
                    sb.append('\n').append(bodyPreview);
                    if (!bodyPreview.endsWith("\n")) {
                        sb.append('\n');
                    }
                    if (bodyBytes > PREVIEW_BYTES) {
                        sb.append("… (").append(bodyBytes - PREVIEW_BYTES).append(" more bytes not shown)\n");
                    }
                }
            } else {
                sb.append("$ ").append(EvidenceText.argv(argv)).append('\n');
                sb.append("in  ").append(workdir).append('\n');
                env.forEach((k, v) -> sb.append("env ").append(k).append('=').append(v).append('\n'));
            }
            return sb.toString().stripTrailing();
        }
    }

    /**
     * Everything the dialog shows about the waiting key.
     *
     * @param record        the key's record when it was loaded
     * @param step          the waiting step, or {@code null}
     * @param reason        why it waits
     * @param evidence      the ambiguous failure's evidence, or {@code null}
     * @param probeAnswer   the probe's latest answer, or a sentence saying there is none
     * @param probeEvidence what the probe saw, or {@code null}
     * @param payload       what will be sent, or {@code null} without a step
     */
    public record Info(KeyRecord record, StepDefinition step, Reason reason, Evidence evidence, String probeAnswer,
                       Evidence probeEvidence, Payload payload) {
        public boolean waiting() {
            return record.state() == KeyState.NEEDS_CONFIRMATION;
        }
    }

    private static final Set<EventType> PROBE_EVENTS = EnumSet.of(EventType.PROBE_ANSWERED, EventType.STEP_RECONCILED,
            EventType.WAITING_FOR_CONFIRMATION);

    private final ConsoleServices services;
    private final Threads threads;
    private final ReadOnlyStringWrapper job = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper key = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<Info> info = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper reasonHeadline = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper reason = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper evidenceText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper probeAnswer = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper payloadText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper payloadHash = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper finished = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper canConfirm = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper canMarkDone = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper progress = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<KeyRecord> outcome = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper outcomeText = new ReadOnlyStringWrapper("");
    private Runnable onChanged = () -> { };
    private long generation;

    public ConfirmViewModel(ConsoleServices services, Threads threads) {
        this.services = services;
        this.threads = threads;
    }

    /** Called on the UI thread after this dialog changed the key (confirmed and ran it, or marked it done). */
    public void setOnChanged(Runnable listener) {
        this.onChanged = listener == null ? () -> { } : listener;
    }

    /** Loads why the key waits and what its step will send, in the background. */
    public void load(String jobName, String keyName) {
        job.set(Objects.requireNonNull(jobName, "job"));
        key.set(Objects.requireNonNull(keyName, "key"));
        title.set(jobName + " · " + keyName);
        finished.set(false);
        outcome.set(null);
        outcomeText.set("");
        problem.set("");
        progress.set("");
        reload();
    }

    private void reload() {
        String j = job.get();
        String k = key.get();
        long gen = ++generation;
        loading.set(true);
        update();
        threads.submit(() -> read(j, k), i -> {
            if (gen == generation) {
                apply(i);
            }
        }, e -> {
            if (gen == generation) {
                loading.set(false);
                info.set(null);
                problem.set(message(e));
                update();
            }
        });
    }

    /**
     * Confirms exactly the payload that was shown and runs the key once in the background.
     * Ignored while loading or busy, after success, or when the key cannot be confirmed.
     *
     * @return whether the confirmation was started
     */
    public boolean confirmAndRun(String note) {
        Info i = info.get();
        if (!canConfirm.get() || i == null) {
            return false;
        }
        String j = job.get();
        String k = key.get();
        String hash = i.payload().hash();
        String step = i.step().id();
        busy.set(true);
        problem.set("");
        progress.set("Confirming " + step + "…");
        update();
        AtomicBoolean confirmed = new AtomicBoolean();
        threads.submit(() -> {
            JobDefinition def = jobDefinition(j);
            services.actions().confirm(def, k, blankToNull(note), hash);
            confirmed.set(true);
            threads.ui(() -> progress.set("Running " + step + "…"));
            services.engine().run(def, List.of(k));
            return services.store().key(j, k).orElseThrow();
        }, rec -> {
            busy.set(false);
            finished(rec);
        }, e -> {
            busy.set(false);
            progress.set("");
            if (confirmed.get()) {
                finished.set(true);
                problem.set("Confirmed, but the run did not complete: " + message(e));
                update();
                onChanged.run();
            } else {
                problem.set("Not confirmed: " + message(e));
                update();
                reload();
            }
        });
        return true;
    }

    /**
     * Records that the effect already happened (the key becomes DONE without running the step).
     * Refused with a validation message when the note is blank.
     *
     * @return whether the action was started
     */
    public boolean markDone(String note) {
        if (!canMarkDone.get()) {
            return false;
        }
        if (note == null || note.isBlank()) {
            problem.set("Mark done needs a note: say what you checked (for example \"the article is live\").");
            return false;
        }
        String j = job.get();
        String k = key.get();
        busy.set(true);
        problem.set("");
        progress.set("Marking " + k + " done…");
        update();
        threads.submit(() -> services.actions().markDone(jobDefinition(j), k, note.strip()), rec -> {
            busy.set(false);
            finished(rec);
        }, e -> {
            busy.set(false);
            progress.set("");
            problem.set("Not marked done: " + message(e));
            update();
            reload();
        });
        return true;
    }

    private void finished(KeyRecord rec) {
        progress.set("");
        finished.set(true);
        outcome.set(rec);
        outcomeText.set(outcomeText(rec));
        update();
        onChanged.run();
    }

    static String outcomeText(KeyRecord rec) {
        if (rec.state() == KeyState.DONE) {
            return "DONE";
        }
        return rec.state().name() + (rec.message() == null || rec.message().isBlank() ? "" : ": " + rec.message());
    }

    private void apply(Info i) {
        loading.set(false);
        info.set(i);
        KeyRecord rec = i.record();
        String step = i.step() == null ? "" : i.step().id();
        title.set(job.get() + " · " + key.get() + (step.isEmpty() ? "" : " · " + step));
        reasonHeadline.set(i.reason() == Reason.NOT_WAITING
                ? "The key is " + Format.state(rec.state()).toLowerCase(java.util.Locale.ROOT) + ": there is nothing to confirm."
                : i.reason().headline());
        reason.set(rec.message() == null ? "" : io.keyline.domain.Printable.line(rec.message()));
        StringBuilder ev = new StringBuilder(EvidenceText.format(i.evidence()));
        if (i.probeEvidence() != null && !i.probeEvidence().equals(i.evidence())) {
            ev.append(ev.isEmpty() ? "" : "\n\n").append("probe\n").append(EvidenceText.format(i.probeEvidence()));
        }
        evidenceText.set(ev.toString());
        probeAnswer.set(i.probeAnswer());
        payloadText.set(i.payload() == null ? "" : i.payload().text());
        payloadHash.set(i.payload() == null || i.payload().hash() == null ? "" : i.payload().hash());
        update();
    }

    private void update() {
        Info i = info.get();
        boolean idle = !loading.get() && !busy.get() && !finished.get() && i != null;
        canConfirm.set(idle && i.waiting() && i.payload() != null && i.payload().hash() != null);
        canMarkDone.set(idle && i.record().state() != KeyState.DONE && i.record().state() != KeyState.SKIPPED
                && i.record().state() != KeyState.RUNNING);
    }

    private JobDefinition jobDefinition(String name) {
        return services.catalog().get().job(name).orElseThrow(() -> new OperatorException(
                "job " + name + " is not loaded (its file is missing or invalid)"));
    }

    private Info read(String j, String k) {
        JobDefinition def = jobDefinition(j);
        KeyRecord rec = services.store().key(j, k).orElseThrow(() -> new OperatorException(
                "key " + k + " of job " + j + " has never run: nothing to confirm"));
        StepDefinition step = rec.step() == null ? null : def.step(rec.step());
        List<KeyEvent> events = services.store().events(j, k);
        Reason why = reason(rec, step);
        Evidence failure = null;
        Evidence probeEvidence = null;
        String probe;
        if (step != null) {
            for (int n = events.size() - 1; n >= 0 && failure == null; n--) {
                KeyEvent e = events.get(n);
                if (e.type() == EventType.STEP_FAILED && step.id().equals(e.step()) && e.evidence() != null) {
                    failure = e.evidence();
                }
            }
            if (why != Reason.AMBIGUOUS) {
                failure = null;
            }
        }
        if (step == null || step.probe() == null) {
            probe = step == null ? "" : "No probe: this step has none, so check the site yourself, then confirm or mark done.";
        } else {
            KeyEvent last = null;
            for (int n = events.size() - 1; n >= 0 && last == null; n--) {
                KeyEvent e = events.get(n);
                if (PROBE_EVENTS.contains(e.type()) && step.id().equals(e.step()) && e.message() != null
                        && e.message().contains("probe")) {
                    last = e;
                }
            }
            if (last == null) {
                probe = "The probe has not answered yet: it runs right before the step, and if the effect already "
                        + "exists the step is recorded done without sending anything.";
            } else {
                String m = last.message();
                int at = m.lastIndexOf("probe:");
                probe = "Latest probe answer: " + (at >= 0 ? m.substring(at + "probe:".length()).strip() : m)
                        + " (at " + Format.time(last.ts()) + ")";
                if (last.evidence() != null && last.evidence().request() != null
                        && last.evidence().request().method().equals(methodOf(step.probe().method()))) {
                    probeEvidence = last.evidence();
                }
            }
        }
        Payload payload = step == null ? null : payload(def, rec, step);
        return new Info(rec, step, why, failure, probe, probeEvidence, payload);
    }

    private static String methodOf(String m) {
        return m == null ? "GET" : m;
    }

    static Reason reason(KeyRecord rec, StepDefinition step) {
        if (rec.state() != KeyState.NEEDS_CONFIRMATION) {
            return Reason.NOT_WAITING;
        }
        io.keyline.core.KeyDecision.WaitReason why = io.keyline.core.KeyDecision.waitReasonOf(rec, step);
        if (why == null) {
            return Reason.OTHER;
        }
        return switch (why) {
            case OUTCOME_UNKNOWN -> Reason.AMBIGUOUS;
            case PAYLOAD_CHANGED -> Reason.PAYLOAD_CHANGED;
            case CONFIRM_ALWAYS -> Reason.CONFIRM_ALWAYS;
        };
    }

    /**
     * Renders the step as the engine will, with the outputs of the finished steps, and binds it to
     * the core's payload hash (rendered again if the files changed in between).
     */
    private Payload payload(JobDefinition def, KeyRecord rec, StepDefinition step) {
        Payload p = null;
        for (int tries = 0; tries < 3; tries++) {
            Map<String, Map<String, String>> outputs = new HashMap<>();
            services.store().steps(def.name(), rec.key()).values().stream().filter(s -> s.status().finished())
                    .forEach(s -> outputs.put(s.step(), s.outputs()));
            StepContext ctx = new StepContext(def, step, rec.key(), "{runId}", rec.attempts() + 1, outputs, null,
                    UnaryOperator.identity());
            p = render(ctx);
            String core = services.actions().payloadHash(def, rec);
            if (Objects.equals(core, p.hash())) {
                return p;
            }
        }
        return new Payload(p.kind(), p.method(), p.url(), p.headers(), p.bodyBytes(), p.bodySha256(), p.bodySource(),
                p.bodyPreview(), p.argv(), p.workdir(), p.env(), null,
                "the step's input keeps changing while it is read; reload when it is stable");
    }

    /**
     * The payload as it is shown: outputs of earlier steps are data and reach it unmasked, so every
     * secret of the job's credentials is masked in what the operator sees (the hash is of the real payload).
     */
    private Payload render(StepContext ctx) {
        io.keyline.credentials.Redactor r = io.keyline.credentials.Redactor.NONE;
        for (StepDefinition s : ctx.job().steps()) {
            if (s.credential() != null) {
                CredentialProvider.Lookup l = services.credentials().lookup(s.credential());
                if (l.present()) {
                    r = r.plus(l.material().secretStrings());
                }
            }
        }
        Payload p = unmasked(ctx);
        if (r == io.keyline.credentials.Redactor.NONE) {
            return p;
        }
        io.keyline.credentials.Redactor mask = r;
        Map<String, String> env = new LinkedHashMap<>();
        p.env().forEach((k, v) -> env.put(k, mask.redact(v)));
        return new Payload(p.kind(), p.method(), mask.redact(p.url()),
                p.headers().stream().map(h -> new Header(h.name(), mask.redact(h.value()), h.masked())).toList(),
                p.bodyBytes(), p.bodySha256(), p.bodySource(), mask.redact(p.bodyPreview()),
                p.argv().stream().map(mask::redact).toList(), p.workdir(), env, p.hash(), mask.redact(p.problem()));
    }

    private Payload unmasked(StepContext ctx) {
        StepDefinition step = ctx.step();
        CredentialProvider.Lookup cred = step.credential() == null ? null : services.credentials().lookup(step.credential());
        try {
            if (step.kind() == StepKind.HTTP) {
                Rendering.RenderedRequest req = Rendering.request(ctx);
                List<Header> headers = new ArrayList<>();
                req.headers().forEach((n, v) -> headers.add(new Header(n, v, false)));
                headers.addAll(credentialHeaders(step.credential(), cred, req.uri()));
                byte[] body = req.body();
                return new Payload(StepKind.HTTP, req.method(), req.uri().toString(), List.copyOf(headers), body.length,
                        body.length == 0 ? null : req.bodySha256(), req.bodySource(), preview(body), List.of(), null,
                        Map.of(), req.payloadHash(), null);
            }
            Rendering.RenderedCommand cmd = Rendering.command(ctx);
            Map<String, String> env = new LinkedHashMap<>(cmd.env());
            if (cred != null) {
                if (cred.present()) {
                    cred.material().environment(services.clock().instant()).keySet().forEach(n -> env.put(n, mask(step.credential(),
                            cred.material().fingerprint())));
                } else {
                    env.put("(credential " + step.credential() + ")", "missing: " + cred.problem());
                }
            }
            return new Payload(StepKind.COMMAND, null, null, List.of(), 0, null, null, null, cmd.argv(),
                    cmd.workdir().toString(), env, cmd.payloadHash(), null);
        } catch (Rendering.RenderException e) {
            return new Payload(step.kind(), null, null, List.of(), 0, null, null, null, List.of(), null, Map.of(), null,
                    e.getMessage());
        }
    }

    private List<Header> credentialHeaders(String name, CredentialProvider.Lookup cred, URI uri) {
        if (cred == null) {
            return List.of();
        }
        if (!cred.present()) {
            return List.of(new Header("(credential " + name + ")", "missing: " + cred.problem(), true));
        }
        List<Header> out = new ArrayList<>();
        cred.material().httpHeaders(uri, services.clock().instant()).keySet().forEach(h ->
                out.add(new Header(h, mask(name, cred.material().fingerprint()), true)));
        return out;
    }

    static String mask(String name, String fingerprint) {
        return "*** (credential " + name + ", fingerprint " + fingerprint + ")";
    }

    /** The first 4 KiB of a body as text (binary bodies are not shown). */
    static String preview(byte[] body) {
        int n = Math.min(body.length, PREVIEW_BYTES);
        for (int i = 0; i < n; i++) {
            if (body[i] == 0) {
                return "(binary body: not shown)";
            }
        }
        try {
            var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE);
            String text = decoder.decode(ByteBuffer.wrap(body, 0, n)).toString();
            // a cut in the middle of a multi-byte character shows as one replacement character at the end
            return n < body.length && text.endsWith("\uFFFD") ? text.substring(0, text.length() - 1) : text;
        } catch (java.nio.charset.CharacterCodingException e) {
            return "(body is not text: not shown)";
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    private static String message(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    public ReadOnlyStringProperty jobProperty() {
        return job.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty keyProperty() {
        return key.getReadOnlyProperty();
    }

    /** Everything loaded about the key, or {@code null} before a load or when it failed. */
    public ReadOnlyObjectProperty<Info> infoProperty() {
        return info.getReadOnlyProperty();
    }

    /** "daily-article · 2026-11-29 · publish". */
    public ReadOnlyStringProperty titleProperty() {
        return title.getReadOnlyProperty();
    }

    /** One sentence: confirm: always, or the ambiguous outcome. */
    public ReadOnlyStringProperty reasonHeadlineProperty() {
        return reasonHeadline.getReadOnlyProperty();
    }

    /** The key's message. */
    public ReadOnlyStringProperty reasonProperty() {
        return reason.getReadOnlyProperty();
    }

    /** The ambiguous failure's evidence (and the probe's), monospace; empty without. */
    public ReadOnlyStringProperty evidenceTextProperty() {
        return evidenceText.getReadOnlyProperty();
    }

    /** The probe's latest answer, or a sentence about the missing probe. */
    public ReadOnlyStringProperty probeAnswerProperty() {
        return probeAnswer.getReadOnlyProperty();
    }

    /** What will be sent, monospace, secrets masked. */
    public ReadOnlyStringProperty payloadTextProperty() {
        return payloadText.getReadOnlyProperty();
    }

    /** The payload hash a confirmation binds, or empty when nothing can be confirmed. */
    public ReadOnlyStringProperty payloadHashProperty() {
        return payloadHash.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    /** A confirm or mark-done is running. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** The dialog did its work (confirmed and ran, or marked done); nothing more can be executed from it. */
    public ReadOnlyBooleanProperty finishedProperty() {
        return finished.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty canConfirmProperty() {
        return canConfirm.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty canMarkDoneProperty() {
        return canMarkDone.getReadOnlyProperty();
    }

    /** Validation message or refusal ("the payload … changed since it was shown"), or empty. */
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    /** "Running publish…" while busy, else empty. */
    public ReadOnlyStringProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    /** The key's record after the action, or {@code null}. */
    public ReadOnlyObjectProperty<KeyRecord> outcomeProperty() {
        return outcome.getReadOnlyProperty();
    }

    /** "DONE", or the new state and its message ("NEEDS_CONFIRMATION: …"). */
    public ReadOnlyStringProperty outcomeTextProperty() {
        return outcomeText.getReadOnlyProperty();
    }
}
