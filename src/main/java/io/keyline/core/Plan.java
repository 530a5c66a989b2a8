package io.keyline.core;

import io.keyline.domain.KeyState;
import io.keyline.domain.ProbeAnswer;
import io.keyline.domain.WaitReason;
import io.keyline.text.Said;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A dry run: what a run would do for each targeted key, taken from {@link KeyDecision} (the rule the
 * engine executes). Its id hashes the job file, the bodies it showed, the probes' answers, the
 * credentials' state and the state of its keys; {@code apply} refuses a plan whose id no longer
 * matches, and executes exactly the steps it lists.
 *
 * @param planId    16 hex chars
 * @param job       job name
 * @param createdAt when the plan was made
 * @param paused    the job's pause in words ("job paused: …"), or {@code null}
 * @param keys      per key, in target order
 * @param ahead     whether keys later than the current one were allowed ({@code --ahead})
 * @param probes    whether the plan asked the probes ({@code false} with {@code --no-probes})
 * @param review    whether the job's unsafe steps wait for a review (unattended runs do not run them until a
 *                  plan of the job is applied or it is approved): applying this plan is that review
 */
public record Plan(String planId, String job, Instant createdAt, Said paused, List<KeyPlan> keys, boolean ahead,
                   boolean probes, Review.Need review) {

    /**
     * One step of a key's planned path.
     *
     * @param step       step id
     * @param action     {@code execute} or {@code reconcile} (the probe found the effect; nothing is sent)
     * @param probe      the probe's answer the plan relied on, or {@code null} for a step without probe
     * @param bodySha256 for an http step: the SHA-256 of the body it will send, when known now ({@code null}
     *                   when an earlier step of the run produces it, or without body)
     * @param boundSha256 for an http step: the hash of its request bound to its template (every value known at
     *                   plan time, the values known only at run time as their placeholders), or {@code null}
     */
    public record PlannedStep(String step, String action, ProbeAnswer probe, String bodySha256, String boundSha256) {
        /** The action of a step that runs. */
        public static final String EXECUTE = "execute";
        /** The action of a step whose probe found its effect: nothing is sent. */
        public static final String RECONCILE = "reconcile";

        public boolean executes() {
            return EXECUTE.equals(action);
        }
    }

    /**
     * What {@code apply} holds a key to.
     *
     * @param path     the planned steps in order
     * @param stopStep the step the plan stops at, or {@code null}
     * @param stopKind how it stops, or {@code null} for a key the plan leaves alone
     * @param stopProbe the answer of the probe at the stop step, or {@code null}
     * @param keyProbe  what the job's own probe answered, or {@code null} when it was not asked
     */
    public record Expectation(List<PlannedStep> path, String stopStep, KeyDecision.StopKind stopKind,
                              ProbeAnswer stopProbe, ProbeAnswer keyProbe) {
        public Expectation {
            path = List.copyOf(path);
        }
    }

    /**
     * The planned action for one key. Its words ({@code said}, {@code stop}, {@code probes}) are said in the
     * language of whoever shows them; {@code --json} keeps them in English.
     *
     * @param key      the key
     * @param state    its current state ({@code PENDING} for a key never seen)
     * @param said     the action: {@code skip (done)}, {@code run a,b}, {@code resume at b}, {@code wait until T},
     *                 {@code blocked: credential X}, {@code needs confirmation: b}, {@code not yet due}, …
     *                 ({@code action} in JSON)
     * @param steps    steps the run would execute (in order)
     * @param requests the exact requests of its http steps (secrets masked)
     * @param path     the planned steps with the probe answers and body hashes the plan relied on
     * @param stop     where the key stops: {@code done}, {@code needs confirmation at S}, … (words)
     * @param probes   the probes' answers by step, as shown
     * @param stopKind where the key stops, as the decision says it: what readers decide by (never the words)
     * @param waitReason for a stop at NEEDS_CONFIRMATION: why, else {@code null}
     * @param stateReason why the key waits in its current {@code state} (NEEDS_CONFIRMATION), else {@code null}
     */
    public record KeyPlan(String key, KeyState state,
                          @com.fasterxml.jackson.annotation.JsonProperty("action") Said said, List<String> steps,
                          List<RequestPreview> requests, List<PlannedStep> path, Said stop, Map<String, Said> probes,
                          List<RequestPreview> probeRequests,
                          @com.fasterxml.jackson.annotation.JsonIgnore Expectation expectation,
                          KeyDecision.StopKind stopKind, WaitReason waitReason,
                          @com.fasterxml.jackson.annotation.JsonIgnore WaitReason stateReason) {

        public KeyPlan {
            probeRequests = probeRequests == null ? List.of() : List.copyOf(probeRequests);
        }

        /** The request the probe of {@code step} sends (the job's own: {@link io.keyline.domain.KeyProbe#STEP}), or {@code null}. */
        public RequestPreview probeRequest(String step) {
            return probeRequests.stream().filter(r -> r.step().equals(step)).findFirst().orElse(null);
        }

        /** The action in the language in use: {@code run write,publish}, {@code skip (done)}, … */
        public String action() {
            return said.text();
        }

        public boolean runs() {
            return !steps.isEmpty();
        }

        /** The key is not run because it is later than the current one (the run needs {@code --ahead}). */
        public boolean notYetDue() {
            return stopKind == KeyDecision.StopKind.NOT_YET_DUE;
        }

        /** Nothing runs and the key waits for a person, a login or the end of a pause. */
        public boolean blocked() {
            return !runs() && stopKind != null && stopKind.waitsForPerson();
        }

        /** The same plan with its action said another way (a screen's own words for it). */
        public KeyPlan withAction(String said) {
            return new KeyPlan(key, state, Said.plain(said), steps, requests, path, stop, probes, probeRequests,
                    expectation, stopKind, waitReason, stateReason);
        }

        /** The same plan with an action note, e.g. {@code (catch-up: missed tick …)}. */
        public KeyPlan noted(Said note) {
            return new KeyPlan(key, state, Said.of("core.plan.noted", said, note), steps, requests, path, stop, probes,
                    probeRequests, expectation, stopKind, waitReason, stateReason);
        }
    }

    /**
     * The request an http step would send.
     *
     * @param step       step id
     * @param method     method
     * @param url        URL (rendered)
     * @param headers    headers with credential values masked
     * @param bodyBytes  body size, or {@code null} when it is not known yet
     * @param bodySha256 body hash, or {@code null}
     * @param bodySource {@code inline}, {@code file …} or {@code none}
     * @param note       why something is not known yet (an earlier step produces it), or {@code null}
     * @param fields     the fields of a body given by its fields (form, multipart, JSON strings), secrets masked,
     *                   a value known only at run time as where it comes from; empty for other bodies
     * @param runTimeBody whether the body holds values known only at run time (its hash is known only then)
     * @param boundSha256 the hash of the request bound to its template (what the plan's id covers and apply
     *                   holds the request to), or {@code null} when it cannot be rendered yet
     * @param shown      {@code headers} as they are shown to a person (a credential's masked line in words); not
     *                   part of the plan's JSON, which has {@code headers}
     */
    public record RequestPreview(String step, String method, String url, Map<String, String> headers, Long bodyBytes,
                                 String bodySha256, String bodySource, Said note, List<ShownBody.Field> fields,
                                 boolean runTimeBody, String boundSha256,
                                 @com.fasterxml.jackson.annotation.JsonIgnore List<ShownHeaders.Header> shown) {
        /** {@code bodySource} of a request without a body. */
        public static final String NO_BODY = "none";
        /** {@code bodySource} of a body written in the job file. */
        public static final String INLINE = "inline";
        /** {@code bodySource} of a body read from a file: this, then the file's path. */
        public static final String FILE = "file ";

        public RequestPreview {
            fields = fields == null ? List.of() : List.copyOf(fields);
            shown = shown == null ? List.of() : List.copyOf(shown);
        }
    }

    /** The keys whose planned path executes an unsafe step of {@code def} (this plan's job), in the plan's order. */
    public List<KeyPlan> sendingUnsafe(io.keyline.domain.JobDefinition def) {
        java.util.Set<String> unsafe = unsafeIds(def);
        return keys.stream().filter(k -> k.path().stream().anyMatch(s -> s.executes() && unsafe.contains(s.step())))
                .toList();
    }

    /** The unsafe steps of {@code def} that this plan's keys execute, each once, in the order they first come. */
    public List<String> unsafeSent(io.keyline.domain.JobDefinition def) {
        java.util.Set<String> unsafe = unsafeIds(def);
        return keys.stream().flatMap(k -> k.path().stream()).filter(s -> s.executes() && unsafe.contains(s.step()))
                .map(PlannedStep::step).distinct().toList();
    }

    private static java.util.Set<String> unsafeIds(io.keyline.domain.JobDefinition def) {
        return def.steps().stream().filter(s -> s.effect() == io.keyline.domain.Effect.UNSAFE)
                .map(io.keyline.domain.StepDefinition::id).collect(java.util.stream.Collectors.toSet());
    }
}
