package io.keyline.core;

import io.keyline.core.exec.CredentialMaterial;
import io.keyline.core.exec.ProbeOutcome;
import io.keyline.core.exec.Rendering;
import io.keyline.core.exec.StepContext;
import io.keyline.domain.JobControl;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyProbe;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.ProbeAnswer;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepKind;
import io.keyline.domain.StepRecord;
import io.keyline.domain.Template;
import io.keyline.domain.WaitReason;
import io.keyline.text.Said;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Computes what a run would do, without executing any step: it reads the state (set-based: one
 * query for all targeted keys), renders the requests, and asks the unsafe steps' probes, which are
 * read-only ({@code --no-probes} skips them). Its answer for each key is {@link KeyDecision}'s, the
 * rule the engine executes, so a plan cannot promise what a run would not do.
 *
 * @param events the keys' histories: how often a probe could not tell after an unknown outcome, as the engine
 *               reads it ({@link DecisionInputs#probeAsks(java.util.function.Supplier)})
 * @param prober asks the unsafe steps' probes read-only, or {@code null}: every probe is "not asked"
 */
public record Planner(KeyRecords store, KeyEvents events, JobControls controls, Leases leases,
                      CredentialProvider credentials, Clock clock, Prober prober) {

    /** Runs a step's read-only probe (never the step). */
    @FunctionalInterface
    public interface Prober {
        ProbeOutcome probe(StepContext ctx) throws InterruptedException;
    }

    /**
     * How to plan.
     *
     * @param probes      ask the probes (false: {@code --no-probes})
     * @param ahead       allow keys later than the current one ({@code --ahead})
     * @param waitInPlace a retry due within this is waited for by the run (and so planned past)
     */
    public record Options(boolean probes, boolean ahead, Duration waitInPlace) {
        public static final Options DEFAULT = new Options(true, false, Duration.ofMinutes(1));

        public Options withProbes(boolean p) {
            return new Options(p, ahead, waitInPlace);
        }

        public Options withAhead(boolean a) {
            return new Options(probes, a, waitInPlace);
        }
    }

    public Plan plan(JobDefinition job, List<String> keys) {
        return plan(job, keys, Map.of(), Options.DEFAULT);
    }

    /**
     * A plan whose actions carry a note per key, e.g. {@code (catch-up: missed tick 2026-11-27 09:00)};
     * notes do not change the plan id.
     */
    public Plan plan(JobDefinition job, List<String> keys, Map<String, Said> notes, Options options) {
        return planned(job, keys, notes, options).plan();
    }

    /**
     * A plan and the text its id hashes: kept with a saved plan, it lets a refusal of the plan say what changed.
     *
     * @param inputs one fact per line (the job file's hash, the pause, each credential, per key its state and
     *               what its steps send or their probes answered); hashes and states, never a secret
     */
    public record Planned(Plan plan, String inputs) {
    }

    /** As {@link #plan}, with the plan's inputs. */
    public Planned planned(JobDefinition job, List<String> keys, Map<String, Said> notes, Options options) {
        Instant now = clock.instant();
        Map<String, KeyRecord> records = store.keys(job.name(), keys);
        JobControl control = controls.jobControl(job.name());
        boolean paused = control.pausedAt(now);
        Said pausedText = !paused ? null : control.reason() == null ? Said.of("core.plan.jobPaused")
                : Said.of("core.plan.jobPausedWhy", control.reason());
        Map<String, KeyDecision.CredentialState> creds = DecisionInputs.credentials(job, credentials);
        DecisionInputs inputs = DecisionInputs.of(job, options.ahead(), clock, leases.workers(), options.waitInPlace());
        boolean probes = options.probes() && prober != null;
        StringBuilder fingerprint = new StringBuilder(job.fileSha256()).append('\n').append(paused).append('|')
                .append(options.ahead()).append('|').append(probes).append('\n');
        creds.values().stream().sorted(java.util.Comparator.comparing(KeyDecision.CredentialState::name))
                .forEach(c -> fingerprint(fingerprint, "credential ", c.name(), "=", c.status(),
                        fingerprintOf(c.name())));
        List<Plan.KeyPlan> out = new ArrayList<>(keys.size());
        for (String key : keys) {
            KeyRecord rec = records.get(key);
            fingerprint(fingerprint, key, "|", rec == null ? "new" : rec.state() + "|" + rec.version());
            KeyPlanner kp = new KeyPlanner(inputs, key, rec, creds, now, pausedText, probes);
            Plan.KeyPlan plan = kp.plan();
            fingerprint.append(kp.fingerprint);
            Said note = notes.get(key);
            out.add(note == null ? plan : plan.noted(note));
        }
        String id = Rendering.sha256(fingerprint.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 16);
        return new Planned(new Plan(id, job.name(), now, pausedText, out, options.ahead(), probes,
                Review.need(job, control)), fingerprint.toString());
    }

    /**
     * What changed between a plan's inputs then and now, as one sentence; {@code null} when {@code before} is
     * unknown (a plan saved before its inputs were kept).
     */
    public static Said changes(String before, String now, List<String> keys) {
        return PlanChanges.listed(PlanChanges.between(before, now, keys));
    }

    /** Appends one line of a plan id's input (hashed, never shown): {@code parts}, then a line break. */
    private static void fingerprint(StringBuilder sb, Object... parts) {
        for (Object p : parts) {
            sb.append(p);
        }
        sb.append('\n');
    }

    private String fingerprintOf(String credential) {
        CredentialProvider.Lookup l = credentials.lookup(credential);
        // the value the operator stored: cookies the site refreshes since do not make a plan stale, a renewal does
        return l.material() == null ? "" : ":" + l.material().renewalFingerprint();
    }

    /** The plan of one key. */
    private final class KeyPlanner {
        final DecisionInputs inputs;
        final JobDefinition job;
        final String key;
        final KeyRecord rec;
        final Map<String, KeyDecision.CredentialState> creds;
        Instant now;
        final Said pausedText;
        final boolean probes;
        final StringBuilder fingerprint = new StringBuilder();
        final Map<String, Said> probeShown = new LinkedHashMap<>();
        /** The requests of the http probes the plan reaches, as they will be sent, in the order they are asked. */
        final List<Plan.RequestPreview> probeRequests = new ArrayList<>();
        Map<String, StepRecord> steps = Map.of();
        final Map<String, Map<String, String>> outputs = new HashMap<>();

        KeyPlanner(DecisionInputs inputs, String key, KeyRecord rec, Map<String, KeyDecision.CredentialState> creds,
                   Instant now, Said pausedText, boolean probes) {
            this.inputs = inputs;
            this.job = inputs.job();
            this.key = key;
            this.rec = rec;
            this.creds = creds;
            this.now = now;
            this.pausedText = pausedText;
            this.probes = probes;
        }

        KeyDecision.Input input() {
            // the decision takes the pause as the engine words it (its stop's detail): the plan says it with pausedText
            return inputs.planned(key, rec, steps, creds, this::payloadHash, now,
                    pausedText == null ? null : pausedText.english(), asks);
        }

        /** Read from the key's history only when a probe cannot tell after an unknown outcome, as the engine does. */
        final java.util.function.ToIntFunction<String> asks = DecisionInputs.probeAsks(this::history);

        /** The redo of each step's life its {@code Idempotency-Key} names, as the engine reads it ({@link Redos}). */
        final java.util.function.ToIntFunction<String> redos = Redos.once(this::history);

        private List<io.keyline.domain.KeyEvent> history() {
            return rec == null || !rec.stored() ? List.of() : events.events(job.name(), key);
        }

        Plan.KeyPlan plan() {
            KeyState state = rec == null ? KeyState.PENDING : rec.state();
            KeyDecision.Decision first = KeyDecision.decide(input());
            Instant waitedFor = null;
            if (first.leavesKeyAlone()) {
                KeyDecision.Stop s = first.stop();
                if (inputs.waitsInPlace(s, now)) {
                    // the run waits in place for a retry due this soon, then goes on: plan past the wait
                    waitedFor = s.until();
                    now = s.until();
                } else {
                    return simple(state, keyLevel(s), s);
                }
            }
            if (rec != null && rec.stored()) {
                steps = store.steps(job.name(), key);
                steps.values().stream().filter(s -> s.status().finished())
                        .forEach(s -> outputs.put(s.step(), s.outputs()));
            }
            KeyDecision.Path path = KeyDecision.project(input(), this::ask);
            List<Plan.PlannedStep> planned = new ArrayList<>();
            List<Plan.RequestPreview> requests = new ArrayList<>();
            List<String> executedBefore = new ArrayList<>();
            // the steps on the path before a step: their outputs are known only while the key runs
            List<String> onPath = new ArrayList<>();
            // among them, those the plan expects their probe to find done: their outputs are what the probe extracts
            List<String> reconciled = new ArrayList<>();
            for (KeyDecision.Action a : path.actions()) {
                StepDefinition s = job.step(a.step());
                String sha = null;
                String bound = null;
                if (a.kind() == KeyDecision.ActionKind.EXECUTE && s.kind() == StepKind.HTTP) {
                    Plan.RequestPreview r = preview(s, executedBefore, onPath, reconciled);
                    requests.add(r);
                    sha = r.note() == null && r.bodySha256() != null && bodyFixed(s, executedBefore) ? r.bodySha256()
                            : null;
                    bound = r.boundSha256();
                    // the id covers the request's template bound with every value known now, and the body
                    fingerprint(fingerprint, s.id(), " request ", bound, " body ", r.bodySha256());
                }
                planned.add(new Plan.PlannedStep(s.id(), a.kind() == KeyDecision.ActionKind.EXECUTE
                        ? Plan.PlannedStep.EXECUTE : Plan.PlannedStep.RECONCILE, a.probe(), sha, bound));
                if (a.kind() == KeyDecision.ActionKind.EXECUTE) {
                    executedBefore.add(s.id());
                } else {
                    reconciled.add(s.id());
                }
                onPath.add(s.id());
            }
            KeyDecision.Stop stop = path.stop();
            ProbeAnswer stopProbe = stop.step() == null ? null : askedAnswers.get(stop.step());
            boolean resumed = steps.values().stream().anyMatch(r -> r.status().finished());
            Said described = describe(path, stopProbe, resumed, stop.step() == null ? null : askAfter.get(stop.step()));
            Said action = waitedFor == null ? described : Said.of("core.plan.waitThen", waitedFor, described);
            Plan.Expectation exp = new Plan.Expectation(planned, stop.step(), stop.kind(), stopProbe,
                    askedAnswers.get(KeyProbe.STEP));
            return new Plan.KeyPlan(key, state, action, path.executed(), requests, planned, stopWords(stop),
                    Map.copyOf(probeShown), probeRequests, exp, stop.kind(), stop.waitReason(),
                    rec == null ? null : rec.waitReason());
        }

        final Map<String, ProbeAnswer> askedAnswers = new HashMap<>();
        /** By step id: the wait a probe's answer that could not tell asked for (its Retry-After), when it named one. */
        final Map<String, java.time.Duration> askAfter = new HashMap<>();

        /** Asks a step's probe, or the job's own, read-only, when it can be asked now. */
        ProbeAnswer ask(String stepId, List<String> executedBefore) {
            boolean ofKey = KeyProbe.is(stepId);
            StepDefinition s = ofKey ? job.probe().asStep() : job.step(stepId);
            ProbeAnswer answer;
            Said shown;
            if (!probes) {
                answer = ProbeAnswer.NOT_ASKED;
                shown = ofKey ? Said.of("core.plan.probe.notAskedFirst") : Said.of("core.plan.probe.notAsked", stepId);
            } else if (!ofKey && dependsOnRun(probeTemplates(s), executedBefore)) {
                answer = ProbeAnswer.NOT_ASKED;
                shown = Said.of("core.plan.probe.duringRun", String.join(",", executedBefore));
            } else {
                ProbeOutcome p;
                Said message;
                try {
                    p = prober.probe(new StepContext(job, s, key, "{runId}", 1, Map.copyOf(outputs),
                            credentialFor(s), redactorFor(s)));
                    // the prober's answer is data (what it checked, as the engine stores it), shown as it is
                    message = p.words() == null ? Said.plain("") : p.words();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    p = new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, (Said) null, null);
                    message = Said.of("core.plan.probe.interrupted");
                } catch (RuntimeException e) {
                    p = new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, (Said) null, null);
                    message = Said.of("core.plan.probe.failed", String.valueOf(e.getMessage()));
                }
                answer = p.decided();
                shown = Said.of("core.plan.probe.answered", answerWords(answer), message);
                if (answer == ProbeAnswer.INCONCLUSIVE && p.askAgainAfter() != null) {
                    askAfter.put(stepId, p.askAgainAfter());
                }
            }
            askedAnswers.put(stepId, answer);
            probeShown.put(stepId, shown);
            if (s.probe().kind() == StepKind.HTTP && (ofKey || !dependsOnRun(probeTemplates(s), executedBefore))) {
                Plan.RequestPreview r = probePreview(s, stepId);
                if (r != null && probeRequests.stream().noneMatch(x -> x.step().equals(stepId))) {
                    probeRequests.add(r);
                }
            }
            fingerprint(fingerprint, stepId, " probe ", answer);
            return answer;
        }

        private io.keyline.core.exec.CredentialMaterial credentialFor(StepDefinition s) {
            if (s.credential() == null) {
                return null;
            }
            KeyDecision.CredentialState cs = creds.get(s.credential());
            return cs != null && cs.status() == KeyDecision.CredentialStatus.USABLE
                    ? credentials.lookup(s.credential()).material() : null;
        }

        private UnaryOperator<String> redactorFor(StepDefinition s) {
            io.keyline.credentials.Redactor r = mask();
            return r::redact;
        }

        private String payloadHash(String stepId) {
            StepDefinition s = job.step(stepId);
            return ConfirmedPayload.now(new StepContext(job, s, key, "{runId}", 1, Map.copyOf(outputs), null,
                    UnaryOperator.identity(), redos.applyAsInt(stepId)), rec == null ? null : rec.confirmedHash());
        }

        /**
         * Whether a step's body cannot change by what the run does before it: nothing runs before, or it is
         * written in the job file (no file an earlier step may write) and uses no value known only at run time.
         */
        private boolean bodyFixed(StepDefinition s, List<String> executedBefore) {
            if (executedBefore.isEmpty()) {
                return !ShownBody.bodyUsesRunTime(s, List.of());
            }
            boolean files = s.request().bodyFile() != null || s.request().fields()
                    instanceof io.keyline.domain.BodyFields.Multipart m && m.parts().stream().anyMatch(p -> p.file() != null);
            return (s.request().body() != null || s.request().fields() != null) && !files
                    && !ShownBody.bodyUsesRunTime(s, executedBefore);
        }

        /**
         * The request of {@code s} as the plan shows it: rendered with every value known now, a value known only
         * at run time (an output of a step in {@code runTime}, {@code {runId}}) shown as where it comes from.
         */
        private Plan.RequestPreview preview(StepDefinition s, List<String> executedBefore, List<String> runTime,
                                            List<String> probed) {
            StepContext ctx = new StepContext(job, s, key, "{runId}", 1, Map.copyOf(outputs), null,
                    UnaryOperator.identity(), redos.applyAsInt(s.id()));
            // outputs are unmasked data: what the plan shows is masked with the job's credentials
            io.keyline.credentials.Redactor mask = mask();
            List<ShownBody.Field> fields = ShownBody.fields(ctx, runTime, mask::redact, probed);
            boolean runTimeBody = ShownBody.bodyUsesRunTime(s, runTime);
            String bound = ShownBody.boundHash(ctx, runTime);
            try {
                Rendering.RenderedRequest req = Rendering.request(ShownBody.bound(ctx, runTime));
                // the same headers as the confirm dialog shows for this request (one list, ShownHeaders)
                List<ShownHeaders.Header> shown = ShownHeaders.withRunTime(ShownHeaders.of(s, req,
                        s.credential() == null ? null : credentials.lookup(s.credential()), mask, clock.instant()),
                        ctx, runTime, mask, probed);
                Map<String, String> headers = ShownHeaders.map(shown);
                Said note = null;
                if (!runTimeBody && !bodyFixed(s, executedBefore) && req.body().length > 0) {
                    note = Said.of("core.plan.bodyMayChange", String.join(",", executedBefore));
                }
                boolean none = req.body().length == 0;
                return new Plan.RequestPreview(s.id(), req.method(), ShownBody.sourced(job, ShownBody.unmarked(
                        mask.redact(req.uri().toString())), probed), headers, runTimeBody ? null : (long) req.body().length,
                        none || runTimeBody ? null : req.bodySha256(), req.bodySource(), note, fields, runTimeBody,
                        bound, shown);
            } catch (Rendering.RenderException e) {
                String url = s.request().url().replace("{key}", key).replace("{job}", job.name());
                // the credential's headers too, masked, as Confirm shows them (one list, ShownHeaders)
                List<ShownHeaders.Header> shown = sourced(probed, ShownHeaders.unrendered(s, Rendering.idempotencyKey(
                        job.name(), key, s.id(), ctx.redo()), url,
                        s.credential() == null ? null : credentials.lookup(s.credential()), mask(),
                        clock.instant()));
                Map<String, String> headers = ShownHeaders.map(shown);
                String source = s.request().bodyFile() != null
                        ? Plan.RequestPreview.FILE + s.request().bodyFile().replace("{key}", key)
                        : s.request().body() != null ? Plan.RequestPreview.INLINE : Plan.RequestPreview.NO_BODY;
                // why it cannot be rendered yet, as the renderer says it (names a template, a file)
                return new Plan.RequestPreview(s.id(), s.request().method(), ShownBody.sourced(job, url, probed), headers,
                        null, null, source,
                        e.said(), fields, runTimeBody, bound, shown);
            }
        }

        /**
         * The request a probe sends, as it will be sent (the same renderer as the engine's): its headers with the
         * credential masked, its body's fields and their hash; {@code null} when it cannot be rendered now.
         */
        private Plan.RequestPreview probePreview(StepDefinition s, String stepId) {
            StepContext ctx = new StepContext(job, s, key, "{runId}", 1, Map.copyOf(outputs), null,
                    UnaryOperator.identity());
            io.keyline.credentials.Redactor mask = mask();
            try {
                Rendering.RenderedRequest req = Rendering.probeRequest(ctx);
                List<ShownHeaders.Header> shown = ShownHeaders.of(s, req, s.credential() == null ? null
                        : credentials.lookup(s.credential()), mask, clock.instant());
                List<ShownBody.Field> fields = s.probe().fields() == null ? List.of()
                        : ShownBody.fields(s.probe().fields(), ctx, List.of(), mask::redact, List.of());
                boolean none = req.body().length == 0;
                return new Plan.RequestPreview(stepId, req.method(), mask.redact(req.uri().toString()),
                        ShownHeaders.map(shown), none ? null : (long) req.body().length, none ? null : req.bodySha256(),
                        req.bodySource(), null, fields, false, null, shown);
            } catch (Rendering.RenderException e) {
                return null;
            }
        }

        /**
         * The headers of a request that cannot be rendered yet (as the job file writes them) with each value known
         * only at run time said where it comes from, as the body's fields say it; a credential's masked line stays.
         */
        private List<ShownHeaders.Header> sourced(List<String> probed, List<ShownHeaders.Header> shown) {
            return shown.stream().map(h -> h.masked() ? h
                    : new ShownHeaders.Header(h.name(), ShownBody.sourced(job, h.value(), probed), false, h.line()))
                    .toList();
        }

        /** Masks the secrets of every credential the job's steps use. */
        private io.keyline.credentials.Redactor mask() {
            return ShownHeaders.secretsOf(job, credentials);
        }

        private Plan.KeyPlan simple(KeyState state, Said action, KeyDecision.Stop s) {
            return new Plan.KeyPlan(key, state, action, List.of(), List.of(), List.of(), action, Map.of(), List.of(),
                    new Plan.Expectation(List.of(), null, null, null, null), s.kind(), s.waitReason(),
                    rec == null ? null : rec.waitReason());
        }

        /**
         * Whether the retry a key waits for asks the probe of {@code stepId} again, not the step: the outcome of the
         * unsafe step is unknown (its wait is kept with the class AMBIGUOUS), and its probe decides after the wait.
         */
        private boolean asksProbeNext(String stepId) {
            StepDefinition s = stepId == null ? null : job.step(stepId);
            return s != null && s.effect() == io.keyline.domain.Effect.UNSAFE && s.probe() != null
                    && rec.failureClass() == io.keyline.domain.FailureClass.AMBIGUOUS;
        }

        /**
         * The steps a waiting retry of {@code stepId} runs again first: its {@code retryFrom} and the steps after it
         * whose records the retry discarded (they fetch their outputs anew), as the run will.
         */
        private List<String> goneBack(String stepId) {
            StepDefinition s = stepId == null ? null : job.step(stepId);
            if (s == null || s.retryFrom() == null || rec == null || !rec.stored()) {
                return List.of();
            }
            Map<String, StepRecord> kept = store.steps(job.name(), key);
            return job.steps().subList(job.stepIndex(s.retryFrom()), job.stepIndex(s.id())).stream()
                    .map(StepDefinition::id).filter(id -> !kept.containsKey(id)).toList();
        }

        /** Words for a stop that leaves the key alone. */
        private Said keyLevel(KeyDecision.Stop s) {
            return switch (s.kind()) {
                case ALREADY_DONE -> Said.of("core.plan.skipDone");
                case SKIPPED -> Said.of("core.plan.skipSkipped");
                // a failure whose work may be there: the plan points to the site first, as the key's message does
                case FAILED -> Said.of(KeyDecision.mayBeDone(rec) ? "core.plan.failedMayBeDone" : "core.plan.failedAt",
                        s.step());
                case NEEDS_CONFIRMATION -> Said.of("core.plan.needsConfirmation", s.step());
                case NEEDS_CREDENTIAL -> s.credential() == null ? Said.of("core.plan.blockedNoCredential")
                        : Said.of("core.plan.blockedCredential", s.credential());
                case RUNNING_ELSEWHERE -> Said.of("core.plan.runningElsewhere", s.until());
                case WAIT_RETRY -> asksProbeNext(s.step())
                        ? Said.of("core.plan.waitAsk", s.until(), s.step(), asks.applyAsInt(s.step()) + 1,
                                job.step(s.step()).retry().maxAttempts())
                        : goneBack(s.step()).isEmpty()
                        ? Said.of("core.plan.waitRetry", s.until(), s.step(), rec.attempts() + 1)
                        : Said.of("core.plan.waitRetryBack", s.until(), s.step(), rec.attempts() + 1,
                                String.join(", ", goneBack(s.step())), goneBack(s.step()).size());
                case NOT_YET_DUE -> Said.of("core.plan.notYetDue", key, inputs.currentKey(), job.key().zone());
                case PAUSED -> Said.of("core.plan.blocked", pausedText);
                default -> Said.plain(s.kind().name().toLowerCase(java.util.Locale.ROOT));
            };
        }
    }

    /** Whether any of {@code templates} uses an output of a step the run executes before. */
    static boolean dependsOnRun(List<String> templates, List<String> executedBefore) {
        for (String t : templates) {
            if (t == null) {
                continue;
            }
            try {
                for (Template.Placeholder p : Template.scan(t)) {
                    if (p.stepId() != null && executedBefore.contains(p.stepId())) {
                        return true;
                    }
                }
            } catch (IllegalArgumentException e) {
                return true;
            }
        }
        return false;
    }

    private static List<String> probeTemplates(StepDefinition s) {
        List<String> t = new ArrayList<>();
        if (s.probe().url() != null) {
            t.add(s.probe().url());
        }
        t.addAll(s.probe().headers().values());
        t.addAll(s.probe().command());
        t.addAll(ShownBody.templates(s.probe().fields()));
        return t;
    }

    /** The action of a key whose path runs: {@code run a,b}, {@code resume at b (run b,c)}, then where it stops. */
    static Said describe(KeyDecision.Path path, ProbeAnswer stopProbe, boolean resumed,
                         java.time.Duration askAgainAfter) {
        List<String> executed = path.executed();
        List<String> reconciled = path.actions().stream()
                .filter(a -> a.kind() == KeyDecision.ActionKind.RECONCILE).map(KeyDecision.Action::step).toList();
        KeyDecision.Stop stop = path.stop();
        // what runs: "run a,b" or "resume at b (run b,c)", then the reconciled steps; then where it stops
        List<Said> parts = new ArrayList<>();
        if (!executed.isEmpty()) {
            parts.add(resumed ? Said.of("core.plan.resume", executed.get(0), String.join(",", executed))
                    : Said.of("core.plan.run", String.join(",", executed)));
        }
        if (!reconciled.isEmpty()) {
            parts.add(Said.of("core.plan.reconciled", String.join(",", reconciled)));
        }
        boolean ran = !parts.isEmpty();
        Said end = switch (stop.kind()) {
            case COMPLETE -> ran ? null : Said.of("core.plan.complete");
            case ALREADY_PRESENT -> Said.of("core.plan.alreadyPresent");
            case NEEDS_CREDENTIAL -> !ran ? (stop.detail() == null ? Said.of("core.plan.blockedCredential",
                    stop.credential()) : Said.of("core.plan.blockedCredentialWhy", stop.credential(), stop.words()))
                    : Said.of("core.plan.waitForCredential", stop.credential(), stop.step());
            case NEEDS_CONFIRMATION -> {
                Said why = switch (stop.waitReason() == null ? WaitReason.OUTCOME_UNKNOWN : stop.waitReason()) {
                    case CONFIRM_ALWAYS -> Said.of("core.plan.why.confirmAlways");
                    case PAYLOAD_CHANGED -> Said.of("core.plan.why.payloadChanged");
                    case REVIEW -> Said.of("core.plan.why.review");
                    case OUTCOME_UNKNOWN -> stopProbe == ProbeAnswer.NOT_ASKED ? Said.of("core.plan.why.probeDecides")
                            : stopProbe == null ? Said.of("core.plan.why.unknownNoProbe")
                            : Said.of("core.plan.why.unknownProbe", answerWords(stopProbe));
                };
                yield Said.of("core.plan.needsConfirmationWhy", stop.step(), why);
            }
            case PROBE_INCONCLUSIVE -> askAgainAfter == null ? Said.of("core.plan.probeInconclusive", stop.step())
                    : Said.of("core.plan.probeInconclusiveAfter", stop.step(),
                            Math.min(askAgainAfter.toSeconds(), 999_999_999));
            case RETRIES_SPENT -> Said.of("core.plan.retriesSpent", stop.step());
            case PROBE_REFUSED -> KeyProbe.is(stop.step()) ? Said.of("core.plan.jobProbeRefused")
                    : Said.of("core.plan.probeRefused", stop.step());
            case NEEDS_REVIEW -> Said.of("core.plan.waitsForReview", Review.Need.said(stop.detail()));
            default -> Said.plain(stop.kind().name().toLowerCase(java.util.Locale.ROOT));
        };
        Said said = null;
        for (Said part : parts) {
            said = said == null ? part : Said.of("core.plan.and", said, part);
        }
        return said == null ? end : end == null ? said : Said.of("core.plan.then", said, end);
    }

    /** A probe's answer in words: "present", "absent", … ({@link ProbeAnswer#word} in English). */
    static Said answerWords(ProbeAnswer answer) {
        return Said.of("core.probeAnswer." + answer.name());
    }

    /** Where a key stops, in words. */
    static Said stopWords(KeyDecision.Stop stop) {
        return switch (stop.kind()) {
            case COMPLETE -> Said.of("core.plan.stop.done");
            case ALREADY_PRESENT -> Said.of("core.plan.stop.present");
            case NEEDS_CREDENTIAL -> stop.credential() == null ? Said.of("core.plan.stop.person", stop.step())
                    : Said.of("core.plan.stop.credential", stop.credential(), stop.step());
            case NEEDS_CONFIRMATION -> Said.of("core.plan.stop.confirmation", stop.step());
            case PROBE_INCONCLUSIVE -> Said.of("core.plan.stop.probeLater", stop.step());
            case RETRIES_SPENT -> Said.of("core.plan.stop.retriesSpent", stop.step());
            case PROBE_REFUSED -> KeyProbe.is(stop.step()) ? Said.of("core.plan.stop.jobProbeRefused")
                    : Said.of("core.plan.stop.probeRefused", stop.step());
            default -> Said.of("core.stopKind." + stop.kind().name());
        };
    }
}
