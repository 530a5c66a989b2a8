package io.keyline.core;

import io.keyline.core.exec.Rendering;
import io.keyline.core.exec.StepContext;
import io.keyline.domain.ConfirmPolicy;
import io.keyline.domain.Effect;
import io.keyline.domain.JobControl;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepKind;
import io.keyline.domain.StepRecord;
import io.keyline.domain.StepStatus;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Computes what a run would do, without executing any step or probe: it has no executors and
 * only reads the state (set-based: one query for all targeted keys) and local body files.
 */
public final class Planner {

    private final StateStore store;
    private final CredentialProvider credentials;
    private final Clock clock;

    public Planner(StateStore store, CredentialProvider credentials, Clock clock) {
        this.store = store;
        this.credentials = credentials;
        this.clock = clock;
    }

    public Plan plan(JobDefinition job, List<String> keys) {
        return plan(job, keys, Map.of());
    }

    /**
     * A plan whose actions carry a note per key, e.g. {@code (catch-up: missed tick 2026-11-27 09:00)};
     * notes do not change the plan id (it hashes the job file and the keys' state).
     */
    public Plan plan(JobDefinition job, List<String> keys, Map<String, String> notes) {
        Instant now = clock.instant();
        Map<String, KeyRecord> records = store.keys(job.name(), keys);
        JobControl control = store.jobControl(job.name());
        String paused = control.pausedAt(now) ? "job paused" + (control.reason() == null ? "" : ": " + control.reason())
                : null;
        Map<String, CredentialProvider.Lookup> lookups = new HashMap<>();
        List<Plan.KeyPlan> out = new ArrayList<>(keys.size());
        StringBuilder fingerprint = new StringBuilder(job.fileSha256()).append('\n').append(paused != null).append('\n');
        for (String key : keys) {
            KeyRecord rec = records.get(key);
            fingerprint.append(key).append('|');
            if (rec == null) {
                fingerprint.append("new\n");
            } else {
                fingerprint.append(rec.state()).append('|').append(rec.version()).append('\n');
            }
            Plan.KeyPlan kp = planKey(job, key, rec, now, paused, lookups);
            String note = notes.get(key);
            out.add(note == null ? kp
                    : new Plan.KeyPlan(kp.key(), kp.state(), kp.action() + " (" + note + ")", kp.steps(), kp.requests()));
        }
        String id = Rendering.sha256(fingerprint.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 16);
        return new Plan(id, job.name(), now, paused, out);
    }

    private Plan.KeyPlan planKey(JobDefinition job, String key, KeyRecord rec, Instant now, String paused,
                                 Map<String, CredentialProvider.Lookup> lookups) {
        KeyState state = rec == null ? KeyState.PENDING : rec.state();
        switch (state) {
            case DONE -> {
                return simple(key, state, "skip (done)");
            }
            case SKIPPED -> {
                return simple(key, state, "skip (skipped by an operator)");
            }
            case FAILED -> {
                return simple(key, state, "failed at " + rec.step() + ": retry it to run again");
            }
            case NEEDS_CONFIRMATION -> {
                return simple(key, state, "needs confirmation: " + rec.step());
            }
            case NEEDS_CREDENTIAL -> {
                return simple(key, state, "blocked: credential " + rec.credential());
            }
            case RUNNING -> {
                if (rec.leaseUntil() != null && rec.leaseUntil().isAfter(now) && !LeaseOwner.provablyDead(rec.leaseOwner())) {
                    return simple(key, state, "running in another process (lease until " + rec.leaseUntil() + ")");
                }
            }
            case RETRY_WAIT -> {
                if (rec.nextAttemptAt() != null && rec.nextAttemptAt().isAfter(now)) {
                    return simple(key, state, "wait until " + rec.nextAttemptAt() + " (" + rec.step() + ", attempt "
                            + (rec.attempts() + 1) + ")");
                }
            }
            case PENDING -> {
                // runnable: decided below
            }
        }
        if (paused != null) {
            return simple(key, state, "blocked: " + paused);
        }
        Map<String, StepRecord> steps = rec == null ? Map.of() : store.steps(job.name(), key);
        Map<String, Map<String, String>> outputs = new HashMap<>();
        List<StepDefinition> remaining = new ArrayList<>();
        for (StepDefinition s : job.steps()) {
            StepRecord sr = steps.get(s.id());
            if (sr != null && sr.status().finished()) {
                outputs.put(s.id(), sr.outputs());
            } else {
                remaining.add(s);
            }
        }
        List<String> names = remaining.stream().map(StepDefinition::id).toList();
        List<Plan.RequestPreview> requests = new ArrayList<>();
        for (StepDefinition s : remaining) {
            if (s.kind() == StepKind.HTTP) {
                requests.add(preview(job, s, key, outputs, lookups));
            }
        }
        for (StepDefinition s : remaining) {
            if (s.credential() != null && !lookup(s.credential(), lookups).present()) {
                return new Plan.KeyPlan(key, state, "blocked: credential " + s.credential() + " ("
                        + lookup(s.credential(), lookups).problem() + ")", List.of(), requests);
            }
        }
        StepDefinition first = remaining.get(0);
        StepRecord firstRec = steps.get(first.id());
        boolean interrupted = firstRec != null
                && (firstRec.status() == StepStatus.STARTED || firstRec.status() == StepStatus.AMBIGUOUS);
        String confirmed = rec == null ? null : rec.confirmedStep();
        if (interrupted && first.effect() == Effect.UNSAFE && !first.id().equals(confirmed)) {
            String action = first.probe() != null
                    ? "resume at " + first.id() + " (outcome of the last attempt unknown: its probe decides)"
                    : "needs confirmation: " + first.id() + " (outcome of the last attempt unknown, no probe)";
            return new Plan.KeyPlan(key, state, action, first.probe() != null ? names : List.of(), requests);
        }
        List<String> before = new ArrayList<>();
        for (StepDefinition s : remaining) {
            if (s.effect() == Effect.UNSAFE && s.confirm() == ConfirmPolicy.ALWAYS && !s.id().equals(confirmed)) {
                String action = (before.isEmpty() ? "" : "run " + String.join(",", before) + ", then ")
                        + "needs confirmation: " + s.id();
                return new Plan.KeyPlan(key, state, action, List.copyOf(before), requests);
            }
            before.add(s.id());
        }
        String verb = remaining.size() == job.steps().size() ? "run " + String.join(",", names)
                : "resume at " + first.id() + " (run " + String.join(",", names) + ")";
        return new Plan.KeyPlan(key, state, verb, names, requests);
    }

    private static Plan.KeyPlan simple(String key, KeyState state, String action) {
        return new Plan.KeyPlan(key, state, action, List.of(), List.of());
    }

    private CredentialProvider.Lookup lookup(String name, Map<String, CredentialProvider.Lookup> cache) {
        return cache.computeIfAbsent(name, credentials::lookup);
    }

    private Plan.RequestPreview preview(JobDefinition job, StepDefinition s, String key,
                                        Map<String, Map<String, String>> outputs,
                                        Map<String, CredentialProvider.Lookup> lookups) {
        StepContext ctx = new StepContext(job, s, key, "{runId}", 1, outputs, null, UnaryOperator.identity());
        try {
            Rendering.RenderedRequest req = Rendering.request(ctx);
            // outputs are unmasked data: what the plan shows is masked with the job's credentials
            io.keyline.credentials.Redactor mask = mask(job, lookups);
            Map<String, String> headers = new LinkedHashMap<>();
            req.headers().forEach((h, v) -> headers.put(h, mask.redact(v)));
            addCredentialHeaders(s, req.uri(), headers, lookups);
            return new Plan.RequestPreview(s.id(), req.method(), mask.redact(req.uri().toString()), headers,
                    (long) req.body().length,
                    req.body().length == 0 ? null : req.bodySha256(), req.bodySource(), null);
        } catch (Rendering.RenderException e) {
            Map<String, String> headers = new LinkedHashMap<>(s.request().headers());
            headers.put("Idempotency-Key", job.name() + ":" + key + ":" + s.id());
            String url = s.request().url().replace("{key}", key).replace("{job}", job.name());
            String source = s.request().bodyFile() != null ? "file " + s.request().bodyFile().replace("{key}", key)
                    : s.request().body() != null ? "inline" : "none";
            return new Plan.RequestPreview(s.id(), s.request().method(), url, headers, null, null, source, e.getMessage());
        }
    }

    /** Masks the secrets of every credential the job's steps use. */
    private io.keyline.credentials.Redactor mask(JobDefinition job, Map<String, CredentialProvider.Lookup> lookups) {
        io.keyline.credentials.Redactor r = io.keyline.credentials.Redactor.NONE;
        for (StepDefinition step : job.steps()) {
            if (step.credential() != null) {
                CredentialProvider.Lookup l = lookup(step.credential(), lookups);
                if (l.present()) {
                    r = r.plus(l.material().secretStrings());
                }
            }
        }
        return r;
    }

    private void addCredentialHeaders(StepDefinition s, java.net.URI uri, Map<String, String> headers,
                                      Map<String, CredentialProvider.Lookup> lookups) {
        if (s.credential() == null) {
            return;
        }
        CredentialProvider.Lookup l = lookup(s.credential(), lookups);
        if (!l.present()) {
            headers.put("(credential " + s.credential() + ")", "missing");
            return;
        }
        l.material().httpHeaders(uri, clock.instant()).keySet().forEach(h ->
                headers.put(h, "*** (credential " + s.credential() + ", fingerprint " + l.material().fingerprint() + ")"));
    }
}
