package io.keyline.core.exec;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.credentials.Redactor;
import io.keyline.core.match.ConditionText;
import io.keyline.core.match.Deadline;
import io.keyline.domain.Condition;
import io.keyline.domain.Effect;
import io.keyline.domain.Evidence;
import io.keyline.domain.Extraction;
import io.keyline.domain.FailureClass;
import io.keyline.domain.FailureOrigin;
import io.keyline.domain.Printable;
import io.keyline.domain.ProbeSpec;
import io.keyline.domain.Redirects;
import io.keyline.domain.ResponseRules;
import io.keyline.text.Said;

import javax.net.ssl.SSLHandshakeException;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Executes http steps and http probes with the JDK HttpClient. Every step request carries
 * {@code Idempotency-Key: job:key:step} ({@code :redoN} after it in the step's N-th redo,
 * {@link Rendering#idempotencyKey}); the credential's headers are added last, only to requests to the
 * step's own origin, and never recorded. Redirects are never followed by the client: a 3xx is an answer
 * that the response rules read like any other (the login page → {@code AUTH}; one {@code successWhen}
 * accepts → done; anything else → {@code FATAL}, with its {@code Location} in the evidence); with
 * {@code followRedirects: "same-origin"} Keyline follows them itself, hop by hop, within the request's origin.
 * The step's {@code timeout} bounds the whole exchange: connect, send, headers and body, every hop, and the
 * reading of the answer (conditions, extraction). Nothing the answer holds escapes as an exception or error:
 * what cannot be read is the step's failure, with the evidence.
 */
public final class HttpExecutor implements StepExecutor {

    /** Evidence keeps this much of a response body. */
    static final int EVIDENCE_BYTES = 8 * 1024;
    /** Outputs and conditions read at most this much of a response body. */
    static final int OUTPUT_BYTES = 1024 * 1024;
    /** At most this many redirects are followed (same origin only). */
    static final int MAX_REDIRECTS = 5;
    /** The client's own timeouts fire first when they can say more (connect vs read); ours is the backstop. */
    private static final long GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final Set<Integer> FOLLOWED = Set.of(301, 302, 303, 307, 308);
    /**
     * Every request carries it unless the job gives its own; the plan and the confirm dialog show it
     * (core.ShownHeaders). See {@link io.keyline.domain.Build#userAgent()}.
     */
    public static final String USER_AGENT = io.keyline.domain.Build.userAgent();

    /** A host paused by a Retry-After longer than this is not waited for: the key waits for a retry instead. */
    static final Duration MAX_HOST_WAIT = Duration.ofMinutes(1);

    private final Clock clock;
    private final HostLimits limits;
    private final AccessTokens tokens = AccessTokens.shared();
    private volatile HttpClient client;

    public HttpExecutor(Clock clock) {
        this(clock, HostLimits.create());
    }

    /** @param limits the per-host gates (rate limits, Retry-After pauses) the requests go through */
    public HttpExecutor(Clock clock, HostLimits limits) {
        this.clock = clock;
        this.limits = limits;
    }

    /** The job's host is paused (another key got a 429/503 with Retry-After) for longer than we wait. */
    static final class HostPausedException extends IOException {
        private final Duration left;
        private final Said words;

        HostPausedException(URI uri, Duration left) {
            this(Said.of("core.exec.hostPaused", HostLimits.name("", uri).strip(), Math.max(1, left.toSeconds())),
                    left);
        }

        private HostPausedException(Said words, Duration left) {
            super(words.english());
            this.words = words;
            this.left = left;
        }

        Duration left() {
            return left;
        }
    }

    private HttpClient shared() {
        HttpClient c = client;
        if (c == null) {
            synchronized (this) {
                if (client == null) {
                    client = newClient();
                }
                c = client;
            }
        }
        return c;
    }

    private static HttpClient newClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /**
     * One request and the status it got.
     *
     * @param setCookies the answer's {@code Set-Cookie} values
     * @param carried    whether the request carried the step's credential
     */
    record Hop(String method, URI uri, int status, List<String> setCookies, boolean carried) {
        @Override
        public String toString() {
            return method + " " + uri + " -> " + status;
        }
    }

    /**
     * The last answer of an exchange, and every hop that led to it.
     *
     * @param notFollowed why a redirect in the last answer was not followed ({@code null} for other answers)
     */
    private record Exchange(int status, HttpHeaders headers, byte[] body, List<Hop> hops, Said notFollowed,
                            long deadlineNanos, Duration timeout) {
        URI finalUri() {
            return hops.get(hops.size() - 1).uri();
        }

        String location() {
            return headers.firstValue("Location").orElse(null);
        }

        /** The answer as conditions and extraction read it: for this key and job, by the exchange's deadline. */
        Conditions.Answer answer(StepContext ctx) {
            return new Conditions.Answer(status, headers.map(), body,
                    new ConditionText.Vars(ctx.key(), ctx.job().name()),
                    Deadline.at(deadlineNanos + GRACE_NANOS, timeout));
        }

        /** Every cookie the answers of the exchange set, in order. */
        List<String> setCookies() {
            List<String> all = new ArrayList<>();
            hops.forEach(h -> all.addAll(h.setCookies()));
            return all;
        }
    }

    /** The whole exchange did not complete within the timeout. */
    static final class ExchangeTimeoutException extends HttpTimeoutException {
        private final Said words;

        ExchangeTimeoutException(Said words) {
            super(words.english());
            this.words = words;
        }
    }

    /** What an answer means for a step: {@code cls == null} is success. */
    private record Judgement(FailureClass cls, Said words, Duration retryAfter, boolean refused) {
        Judgement(FailureClass cls, Said words, Duration retryAfter) {
            this(cls, words, retryAfter, false);
        }

        Judgement(FailureClass cls, String message, Duration retryAfter) {
            this(cls, Said.plain(message), retryAfter);
        }
    }

    @Override
    public StepOutcome execute(StepContext ctx) throws InterruptedException {
        Rendering.RenderedRequest req;
        try {
            req = Rendering.request(ctx);
        } catch (Rendering.RenderException e) {
            return StepOutcome.failure(FailureClass.FATAL, e.said().map(ctx.redact()),
                    evidence(ctx, null, null, null, e.getMessage()));
        }
        Evidence.RequestSummary summary = summary(ctx, req);
        Sent sent;
        try {
            // An unsafe request never rides on a pooled keep-alive connection: if the server had closed
            // it, the request would fail after being written and look ambiguous when it provably
            // never arrived. A fresh connection costs one handshake per unsafe step.
            HttpClient http = ctx.step().effect() == Effect.UNSAFE ? newClient() : shared();
            sent = sendAuthorized(http, ctx, req, ctx.step().timeout(), ctx.step().request().redirects());
        } catch (AccessTokens.Unavailable e) {
            // nothing was sent to the site: the token endpoint gave no access token
            return StepOutcome.failure(e.cls(), e.origin(), e.words().map(ctx.redact()),
                    evidence(ctx, summary, null, null, ctx.redact().apply(e.getMessage())));
        } catch (HostPausedException e) {
            // nothing left: the key waits for its retry when the host takes requests again
            return new StepOutcome(FailureClass.RETRYABLE, e.words.map(ctx.redact()), Map.of(),
                    evidence(ctx, summary, null, null, e.getMessage()), e.left());
        } catch (NoCookieForHostException e) {
            return StepOutcome.failure(FailureClass.AUTH, e.words.map(ctx.redact()),
                    evidence(ctx, summary, null, null, e.getMessage()));
        } catch (IOException | IllegalArgumentException e) {
            FailureClass cls = Classifier.ofException(e);
            Said msg = describe(e, ctx.step().timeout(), req.uri());
            return StepOutcome.failure(cls, Classifier.originOf(e), msg.map(ctx.redact()),
                    evidence(ctx, summary, null, null, msg.english()));
        }
        StepContext asked = sent.ctx();
        Exchange ex = sent.ex();
        summary = summary(asked, req);
        Evidence ev = evidence(asked, summary, ex.status, bodyEvidence(asked, ex), detail(ex, null));
        try {
            StepOutcome out = read(asked, ex, summary, req.headers().get("Idempotency-Key"));
            return sent.rotated() == null ? out : out.refreshed(sent.rotated());
        } catch (Deadline.Exceeded e) {
            // the request was answered; what the answer means is unknown, as after a read timeout
            return StepOutcome.failure(FailureClass.TRANSIENT_AFTER_SEND, ctx.redact().apply(e.getMessage()), ev);
        } catch (Throwable e) { // an Error too (a body that exhausts memory or the stack): never a dead worker
            Said msg = Said.of("core.exec.unreadable", describe(e, ctx.step().timeout()));
            return StepOutcome.failure(FailureClass.UNKNOWN, msg.map(ctx.redact()), ev);
        }
    }

    /** A credential whose stored value holds a character that a request header cannot carry (nothing was sent). */
    static final class UnsendableCredentialException extends IllegalArgumentException {
        private final transient Said words;

        UnsendableCredentialException(String credential) {
            this(Said.of("core.exec.unsendableCredential", credential));
        }

        private UnsendableCredentialException(Said words) {
            super(words.english());
            this.words = words;
        }
    }

    /**
     * The words' key of a request kept from the site for want of a cookie for its host: its arguments are the
     * credential, the host and the cookies it holds (masked); the console words its own way out on them.
     */
    public static final String NO_COOKIE_FOR_HOST = "core.exec.noCookieForHost";

    /**
     * A cookie credential none of whose cookies a browser would send with the request (another host, a path
     * outside theirs, all expired): nothing was sent. It is a login the request lacks, as a 401 would say.
     */
    static final class NoCookieForHostException extends IllegalArgumentException {
        private final transient Said words;

        NoCookieForHostException(CredentialMaterial credential, URI uri) {
            this(Said.of(NO_COOKIE_FOR_HOST, credential.name(),
                    uri.getHost() == null ? "" : io.keyline.domain.Printable.line(uri.getHost()),
                    shownCookies(credential.cookiesShown())));
        }

        private NoCookieForHostException(Said words) {
            super(words.english());
            this.words = words;
        }

        private static String shownCookies(List<String> cookies) {
            List<String> shown = cookies.stream().limit(3).map(io.keyline.domain.Printable::line).toList();
            return String.join(", ", shown) + (cookies.size() > shown.size() ? ", …" : "");
        }
    }

    /**
     * What a step's answer means, its outputs, and the cookies the site set (kept unless it is a rejected login).
     *
     * @param idempotencyKey the {@code Idempotency-Key} the request carried, or {@code null}
     */
    private StepOutcome read(StepContext ctx, Exchange ex, Evidence.RequestSummary summary, String idempotencyKey) {
        Conditions.Answer answer = ex.answer(ctx);
        Judgement j = judge(ctx, ex, answer, ctx.step().request().response(), idempotencyKey);
        Refresh refreshed = j.cls() == FailureClass.AUTH ? Refresh.NONE : refresh(ctx, ex);
        Evidence ev = evidence(ctx, summary, ex.status, bodyEvidence(ctx, ex), detail(ex, refreshed.text()));
        if (j.cls() != null) {
            return new StepOutcome(j.cls(), refreshed.noted(j.words()).map(ctx.redact()), Map.of(), ev,
                    j.retryAfter(), null, refreshed.ofLogin(), j.refused());
        }
        Map<String, String> outputs = outputs(ex);
        Map<String, Extraction> rules = ctx.step().request().extract();
        if (!rules.isEmpty()) {
            Extractor.Result found = Extractor.extract(rules, answer, ex.setCookies(), ex.finalUri());
            if (found.missingName() != null) {
                Said words = Said.of("core.exec.stepMissing", j.words(), found.missingName(), found.missingRule());
                return StepOutcome.failure(FailureClass.FATAL, refreshed.noted(words).map(ctx.redact()), ev)
                        .refreshed(refreshed.ofLogin());
            }
            outputs.putAll(found.values());
            ev = masked(ev, rules, found.values());
        }
        return new StepOutcome(null, refreshed.noted(j.words()).map(ctx.redact()), outputs, ev, null)
                .refreshed(refreshed.ofLogin());
    }

    /**
     * The evidence of the answer a secret value was read from, with that value masked: the page that carried a
     * session's token is kept as evidence, the token is not.
     */
    private static Evidence masked(Evidence ev, Map<String, Extraction> rules, Map<String, String> found) {
        List<String> secrets = new ArrayList<>();
        rules.forEach((name, rule) -> {
            if (rule.secret() && found.get(name) != null) {
                secrets.add(found.get(name));
            }
        });
        return secrets.isEmpty() || ev == null ? ev : ev.redacted(Redactor.of(secrets)::redact);
    }

    /**
     * What keeping the cookies the site set did.
     *
     * @param fingerprint the credential's new fingerprint when the stored value changed, else {@code null}
     * @param login       whether the login cookies themselves changed (not only a setting the site keeps beside them)
     * @param problem     why the cookies could not be kept, or {@code null}
     * @param name        the credential
     */
    private record Refresh(String fingerprint, boolean login, Said problem, String name) {
        static final Refresh NONE = new Refresh(null, false, null, null);

        /**
         * For the evidence: "credential X refreshed by the site (fingerprint …)", the problem, or {@code null}; the
         * English of their words, which the evidence panes say again (AnswerDetail.words).
         */
        String text() {
            return problem != null ? problem.english() : fingerprint == null ? null
                    : AnswerDetail.refreshed(name, fingerprint).english();
        }

        /**
         * The new fingerprint for the key's own event: only when the login changed. A setting cookie the site sets
         * again on every page (WordPress's {@code wp-settings-time-1}) is kept and said in the answer's evidence,
         * without an event on every run.
         */
        String ofLogin() {
            return login ? fingerprint : null;
        }

        /** {@code words}, followed by the problem when there is one ("…; the cookies … could not be kept: …"). */
        Said noted(Said words) {
            return problem == null ? words : Said.of("core.exec.withNote", words, problem);
        }
    }


    /** Keeps the cookies the site set on answers to requests that carried the credential, hop by hop. */
    private Refresh refresh(StepContext ctx, Exchange ex) {
        CredentialMaterial credential = ctx.credential();
        if (credential == null) {
            return Refresh.NONE;
        }
        String fingerprint = null;
        boolean login = false;
        try {
            for (Hop hop : ex.hops()) {
                if (hop.carried() && !hop.setCookies().isEmpty()) {
                    CredentialMaterial.SiteChange change = credential.refreshedBySite(hop.uri(), hop.setCookies(),
                            clock.instant());
                    if (change != null) {
                        fingerprint = change.fingerprint();
                        login |= change.login();
                    }
                }
            }
        } catch (RuntimeException e) {
            return new Refresh(fingerprint, login, Said.of("core.exec.cookiesNotKept", credential.name(),
                    describe(e, ctx.step().timeout())), credential.name());
        }
        return new Refresh(fingerprint, login, null, credential.name());
    }

    /**
     * What a step's answer means: a rejected login (401, a redirect to the login page, {@code authWhen}), then
     * {@code retryWhen} and {@code refusedWhen}, then a 403 as a rejected login (unless it says the client is rate
     * limited: then it is tried again after the wait it gives), then a 2xx or 3xx that
     * {@code successWhen} accepts (a 2xx without one), then the status. See {@link #namedByRules}.
     */
    private Judgement judge(StepContext ctx, Exchange ex, Conditions.Answer answer, ResponseRules rules,
                            String idempotencyKey) {
        int s = ex.status;
        String http = "HTTP " + s + statusHint(s);
        if (s == 401 || s == 403 && !namedByRules(s, rules, answer) && !rateLimited(ex)) {
            return new Judgement(FailureClass.AUTH, http + firstLine(ex), null);
        }
        if (isRedirect(s) && isLoginPage(ex, ctx.credential())) {
            return new Judgement(FailureClass.AUTH, loginRedirect(ex), null);
        }
        if (rules.authWhen() != null) {
            Conditions.Verdict v = Conditions.evaluate(rules.authWhen(), answer);
            if (v.met()) {
                return new Judgement(FailureClass.AUTH, loginNotAccepted(s, v), null);
            }
        }
        if (rules.retryWhen() != null) {
            Conditions.Verdict v = Conditions.evaluate(rules.retryWhen(), answer);
            if (v.met()) {
                return new Judgement(FailureClass.RETRYABLE, tryAgainLater(s, v), retryAfter(ex));
            }
        }
        if (rules.refusedWhen() != null) {
            Conditions.Verdict v = Conditions.evaluate(rules.refusedWhen(), answer);
            if (v.met()) {
                return new Judgement(FailureClass.FATAL, withFirstLine(refused(s, v), ex), null, true);
            }
        }
        if (s >= 200 && s < 400) {
            if (rules.successWhen() != null) {
                Conditions.Verdict v = Conditions.evaluate(rules.successWhen(), answer);
                if (!v.met()) {
                    return new Judgement(FailureClass.FATAL, isRedirect(s) ? notSuccess(redirectNotFollowed(ex), v)
                            : withFirstLine(notSuccess("HTTP " + s, v), ex), null);
                }
            } else if (isRedirect(s)) {
                return new Judgement(FailureClass.FATAL, redirectNotFollowed(ex), null);
            }
            return new Judgement(null, isRedirect(s) && ex.location() != null
                    ? Said.of("core.exec.redirected", Integer.toString(s), ex.location()) : Said.plain("HTTP " + s),
                    null);
        }
        if (s >= 400 && s < 500 && rules.successWhen() != null && acceptsStatus(rules.successWhen(), s)
                && Conditions.evaluate(rules.successWhen(), answer).met()) {
            // the job says this refusal is its done: WebDAV's 405 to MKCOL of a folder that is there, 412 to a
            // PUT with If-None-Match: * of a file that is there
            return new Judgement(null, withFirstLine(Said.plain(http), ex), null);
        }
        // a 409 is "that key is still being processed" only when the answer says so; any other is a conflict the site
        // refused (WebDAV's "the folder above is missing"): nothing was done
        boolean keyInProgress = s == 409 && idempotencyKey != null && Classifier.speaksOfIdempotencyKey(
                text(ex.body, EVIDENCE_BYTES), name -> ex.headers.firstValue(name).orElse(null), idempotencyKey);
        FailureClass cls = Classifier.ofStatus(s, keyInProgress, rateLimited(ex));
        if (keyInProgress) {
            return new Judgement(cls, withFirstLine(Said.of("core.exec.inProgress"), ex), retryAfter(ex));
        }
        if (s == 409) {
            return new Judgement(cls, Said.plain(http + firstLine(ex)), null, true);
        }
        if (s == Classifier.INSUFFICIENT_STORAGE) {
            // nothing was stored, and space may be freed: tried again as the retry policy says, never a lost outcome
            return new Judgement(cls, withFirstLine(Said.of("core.exec.outOfSpace"), ex), retryAfter(ex));
        }
        // a wait the site names is honoured whatever the 5xx, as a probe's answer that cannot tell is asked again
        boolean mayWait = cls == FailureClass.RETRYABLE || cls == FailureClass.TRANSIENT_AFTER_SEND && s >= 500;
        return new Judgement(cls, http + firstLine(ex), mayWait ? retryAfter(ex) : null);
    }

    @Override
    public ProbeOutcome probe(StepContext ctx) throws InterruptedException {
        ProbeSpec probe = ctx.step().probe();
        Rendering.RenderedRequest req;
        try {
            req = Rendering.probeRequest(ctx);
        } catch (Rendering.RenderException e) {
            if (e.waitsForEarlierStep()) {
                return new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, e.said().map(ctx.redact()), null);
            }
            // a value that makes the question unaskable makes it so each time it is asked: refused, as a site
            // refuses a question it will never answer, not asked again
            Said why = e.said().map(ctx.redact());
            return new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, why,
                    evidence(ctx, null, null, null, why.english()), Map.of(), null, null, true);
        }
        Evidence.RequestSummary summary = summary(ctx, req);
        Exchange ex;
        String rotated;
        StepContext asking = ctx;
        try {
            Sent sent = sendAuthorized(shared(), asking, req, probe.timeout(), probe.redirects());
            ex = sent.ex();
            ctx = sent.ctx();
            rotated = sent.rotated();
        } catch (AccessTokens.Unavailable e) {
            Said msg = Said.of("core.exec.probeFailed", e.words()).map(ctx.redact());
            Evidence ev = evidence(ctx, summary, null, null, msg.english());
            return switch (e.cls()) {
                case AUTH -> new ProbeOutcome(ProbeOutcome.Answer.AUTH, e.words().map(ctx.redact()), ev);
                case RETRYABLE -> ProbeOutcome.unreachable(msg, ev);
                default -> new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, msg, ev);
            };
        } catch (NoCookieForHostException e) {
            Said msg = e.words.map(ctx.redact());
            return new ProbeOutcome(ProbeOutcome.Answer.AUTH, msg, evidence(ctx, summary, null, null, msg.english()));
        } catch (HostPausedException e) {
            // nothing was asked: the probe waits, as a step would, until the host takes requests again
            Said msg = Said.of("core.exec.probeFailed", e.words).map(ctx.redact());
            return new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, msg,
                    evidence(ctx, summary, null, null, msg.english())).waiting(e.left());
        } catch (IOException | IllegalArgumentException e) {
            Said msg = Said.of("core.exec.probeFailed", describe(e, probe.timeout(), req.uri())).map(ctx.redact());
            Evidence ev = evidence(ctx, summary, null, null, msg.english());
            return Classifier.originOf(e) == FailureOrigin.ENVIRONMENT ? ProbeOutcome.unreachable(msg, ev)
                    : new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, msg, ev);
        }
        summary = summary(ctx, req);
        Evidence ev = evidence(ctx, summary, ex.status, bodyEvidence(ctx, ex), detail(ex, null));
        try {
            ProbeOutcome answered = probeAnswer(ctx, ex, summary, probe);
            return rotated == null ? answered : answered.refreshed(rotated);
        } catch (Deadline.Exceeded e) {
            return new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, Said.of("core.exec.probeNoAnswer",
                    e.getMessage()).map(ctx.redact()), ev);
        } catch (Throwable e) { // an Error too: never a dead worker
            return new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, Said.of("core.exec.probeUnreadable",
                    describe(e, probe.timeout())).map(ctx.redact()), ev);
        }
    }

    /** What a probe's answer says: present, absent, cannot tell, or a rejected login. */
    private ProbeOutcome probeAnswer(StepContext ctx, Exchange ex, Evidence.RequestSummary summary, ProbeSpec probe) {
        Evidence ev;
        {
            Conditions.Answer answer = ex.answer(ctx);
            ProbeVerdict v = probeJudgement(ctx, ex, answer, probe);
            Refresh refreshed = v.answer() == ProbeOutcome.Answer.AUTH ? Refresh.NONE : refresh(ctx, ex);
            ev = evidence(ctx, summary, ex.status, bodyEvidence(ctx, ex), detail(ex, refreshed.text()));
            Map<String, String> values = Map.of();
            // the values become the step's outputs when it is reconciled: an answer that says the effect is not
            // there (an empty list, a 404) has none to give, and needs none
            if (v.answer() == ProbeOutcome.Answer.PRESENT && !probe.extract().isEmpty() && ex.status < 400) {
                Extractor.Result found = Extractor.extract(probe.extract(), answer, ex.setCookies(), ex.finalUri());
                if (found.missingName() != null) {
                    Said words = ProbeVerdict.noAnswer(Said.of("core.exec.missing", found.missingName(),
                            found.missingRule())).words();
                    return new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, refreshed.noted(words).map(ctx.redact()),
                            ev).refreshed(refreshed.ofLogin());
                }
                values = found.values();
                ev = masked(ev, probe.extract(), values);
            }
            // an answer that cannot tell now may say when to ask again (a 429, a 5xx, a retryWhen)
            Duration wait = v.answer() == ProbeOutcome.Answer.INCONCLUSIVE && !v.refused() ? serverWait(ex.headers)
                    : null;
            return new ProbeOutcome(v.answer(), refreshed.noted(v.words()).map(ctx.redact()), ev, values, null,
                    refreshed.ofLogin(), v.refused(), wait);
        }
    }

    /**
     * The exchange as it was sent, and the context it was sent in (with the access token, when the credential is an
     * OAuth 2.0 one).
     *
     * @param rotated the credential's new fingerprint when the token endpoint rotated its refresh token, else
     *                {@code null}
     */
    private record Sent(StepContext ctx, Exchange ex, String rotated) {
    }

    /**
     * Sends the request. With an OAuth 2.0 credential, with the access token {@link AccessTokens} gives; a 401 to a
     * token kept from earlier gets one new token and the request is sent once more (a 401 says the site refused the
     * request and did nothing, so this is safe for an unsafe step too). A 401 to a token just obtained is the answer.
     */
    private Sent sendAuthorized(HttpClient http, StepContext ctx, Rendering.RenderedRequest req, Duration timeout,
                                Redirects redirects)
            throws IOException, InterruptedException, AccessTokens.Unavailable {
        CredentialMaterial credential = ctx.credential();
        if (credential == null || credential.oauth() == null) {
            return new Sent(ctx, send(http, ctx, req, timeout, redirects), null);
        }
        AccessTokens.Access access = tokens.current(credential, clock, timeout);
        StepContext with = BearerAccess.in(ctx, access.token());
        Exchange ex = send(http, with, req, timeout, redirects);
        String rotated = access.rotated();
        if (ex.status == 401 && !access.fresh()) {
            access = tokens.renew(credential, access.token(), clock, timeout);
            rotated = access.rotated() != null ? access.rotated() : rotated;
            with = BearerAccess.in(ctx, access.token());
            ex = send(http.equals(client) ? http : newClient(), with, req, timeout, redirects);
        }
        return new Sent(with, ex, rotated);
    }

    /**
     * A probe's answer and its words. Each answer the probe gave has words of its own ("probe: … (present)",
     * "… (absent)", "… (inconclusive)", "… (refused)"), with what it checked as their argument, so that a screen
     * can say it in plain words without reading the English.
     */
    private record ProbeVerdict(ProbeOutcome.Answer answer, Said words, boolean refused) {
        ProbeVerdict(ProbeOutcome.Answer answer, Said words) {
            this(answer, words, false);
        }

        static ProbeVerdict rejected(Object why) {
            return new ProbeVerdict(ProbeOutcome.Answer.AUTH, Said.of("core.exec.probeRejected", why));
        }

        static ProbeVerdict noAnswer(Said why) {
            return new ProbeVerdict(ProbeOutcome.Answer.INCONCLUSIVE, Said.of("core.exec.probeNoAnswer", why));
        }

        /** The site refused the question as it is asked: asking again gets the same. */
        static ProbeVerdict refused(Said answer) {
            return new ProbeVerdict(ProbeOutcome.Answer.INCONCLUSIVE, Said.of("core.exec.probeRefused", answer), true);
        }

        /** An answer that is none: "… is no answer". */
        static ProbeVerdict isNoAnswer(Object what) {
            return noAnswer(Said.of("core.exec.isNoAnswer", what));
        }
    }

    /**
     * A probe's answer: a rejected credential (401, a 403 the job's rules do not name ({@link #namedByRules}) and that
     * does not say the client is rate limited (that one cannot tell now), the
     * login page, {@code authWhen}), then {@code retryWhen}, then {@code refusedWhen}, then {@code presentWhen} on a 2xx (that meets {@code successWhen}), a 3xx that
     * {@code successWhen} accepts, 404 or 410, or a 4xx that the {@code successWhen} names and the answer meets (a
     * site's own "not there", such as Dropbox's {@code 409 path/not_found}); any other 4xx but 408, 425 and 429
     * refuses the question as it is asked (asking again gets the same); anything else cannot answer now.
     */
    private static ProbeVerdict probeJudgement(StepContext ctx, Exchange ex, Conditions.Answer answer, ProbeSpec probe) {
        int s = ex.status;
        ResponseRules rules = probe.response();
        if (s == 401 || s == 403 && !namedByRules(s, rules, answer) && !rateLimited(ex)) {
            // with the site's words, as a step's: a token revoked is not an account suspended
            return ProbeVerdict.rejected(withFirstLine(Said.plain("HTTP " + s + statusHint(s)), ex));
        }
        if (isRedirect(s) && isLoginPage(ex, ctx.credential())) {
            return ProbeVerdict.rejected(loginRedirect(ex));
        }
        if (rules.authWhen() != null) {
            Conditions.Verdict v = Conditions.evaluate(rules.authWhen(), answer);
            if (v.met()) {
                return ProbeVerdict.rejected(loginNotAccepted(s, v));
            }
        }
        if (rules.retryWhen() != null) {
            Conditions.Verdict v = Conditions.evaluate(rules.retryWhen(), answer);
            if (v.met()) {
                return ProbeVerdict.noAnswer(tryAgainLater(s, v));
            }
        }
        if (rules.refusedWhen() != null) {
            Conditions.Verdict v = Conditions.evaluate(rules.refusedWhen(), answer);
            if (v.met()) {
                return ProbeVerdict.refused(withFirstLine(refused(s, v), ex));
            }
        }
        if (isRedirect(s) && rules.successWhen() == null) {
            return ProbeVerdict.isNoAnswer(redirectNotFollowed(ex));
        }
        // a 4xx the successWhen names is an answer of the site's own ("not there": Dropbox's 409 path/not_found)
        boolean named = s >= 400 && rules.successWhen() != null && acceptsStatus(rules.successWhen(), s);
        boolean ok = s >= 200 && s < 400 || named;
        if (ok && rules.successWhen() != null) {
            Conditions.Verdict v = Conditions.evaluate(rules.successWhen(), answer);
            if (!v.met()) {
                return named ? ProbeVerdict.refused(withFirstLine(Said.plain("HTTP " + s + statusHint(s)), ex))
                        : ProbeVerdict.noAnswer(notSuccess("HTTP " + s, v));
            }
        }
        Condition when = probe.presentWhen();
        if (!named && refusesTheQuestion(s)) {
            return ProbeVerdict.refused(withFirstLine(Said.plain("HTTP " + s + statusHint(s)), ex));
        }
        if (when == null || !(ok || s == 404 || s == 410)) {
            // a rate limit says why, and until when, in its words (GitHub's "API rate limit exceeded …")
            return ProbeVerdict.isNoAnswer(rateLimited(ex) ? withFirstLine(Said.plain("HTTP " + s + statusHint(s)), ex)
                    : "HTTP " + s + statusHint(s));
        }
        Conditions.Verdict v = Conditions.evaluate(when, answer);
        Said why = s >= 200 && s < 300 || namesStatus(v.words()) ? v.words()
                : Said.of("core.exec.atStatus", v.words(), Integer.toString(s));
        return switch (v.truth()) {
            case TRUE -> new ProbeVerdict(ProbeOutcome.Answer.PRESENT, Said.of("core.exec.probePresent", why));
            case FALSE -> new ProbeVerdict(ProbeOutcome.Answer.ABSENT, Said.of("core.exec.probeAbsent", why));
            case UNKNOWN -> ProbeVerdict.noAnswer(why);
        };
    }

    /**
     * Whether the job's own rules say what this 403 is, so that they are read before a 403 is taken for a rejected
     * login: its {@code authWhen} (read first anyway), or a {@code retryWhen} or {@code refusedWhen} it meets. Sites
     * answer 403 for more than a login that is gone: a CSRF token of a session that ended (Discourse's
     * {@code ["BAD CSRF"]}, nothing done: fetch a token and send again), a request a firewall or a permission refuses.
     * A 401 says the login itself, and is never read past.
     */
    /**
     * Whether a condition names the status among those it accepts: a {@code status} list that holds it, alone or
     * inside {@code all} / {@code any} (never under {@code not}). A 4xx is a success only when the job names it so.
     */
    private static boolean acceptsStatus(Condition c, int status) {
        if (c instanceof Condition.Status st) {
            return st.codes().contains(status);
        }
        if (c instanceof Condition.All all) {
            return all.conditions().stream().anyMatch(x -> acceptsStatus(x, status));
        }
        if (c instanceof Condition.Any any) {
            return any.conditions().stream().anyMatch(x -> acceptsStatus(x, status));
        }
        return false;
    }

    private static boolean namedByRules(int status, ResponseRules rules, Conditions.Answer answer) {
        if (status != 403) {
            return false;
        }
        for (Condition c : java.util.Arrays.asList(rules.authWhen(), rules.retryWhen(), rules.refusedWhen())) {
            if (c != null && Conditions.evaluate(c, answer).met()) {
                return true;
            }
        }
        return false;
    }

    /** Whether the answer says the client is rate limited ({@link Classifier#rateLimited}): a 403 so is no rejected login. */
    private static boolean rateLimited(Exchange ex) {
        return Classifier.rateLimited(name -> ex.headers.firstValue(name).orElse(null));
    }

    /** Whether the words of a condition already name the answer's status ("HTTP 404"), so it is said once. */
    private static boolean namesStatus(Said words) {
        if ("core.cond.status".equals(words.key())) {
            return true;
        }
        for (Object a : words.args()) {
            if (a instanceof Said w && namesStatus(w)) {
                return true;
            }
        }
        return false;
    }

    /** "… but the answer does not show success (what it showed)": an answer the job's success rule does not accept. */
    private static Said notSuccess(Object what, Conditions.Verdict v) {
        return Said.of("core.exec.notSuccess", what, v.words());
    }

    /** An answer that meets the job's rule for a rejected login: what it showed, in words. */
    private static Said loginNotAccepted(int status, Conditions.Verdict v) {
        return Said.of("core.exec.loginNotAccepted", Integer.toString(status), v.words());
    }

    /** An answer that meets the job's rule for "the site refused it": what it showed, in words. */
    private static Said refused(int status, Conditions.Verdict v) {
        return Said.of("core.exec.refusedByRule", Integer.toString(status), v.words());
    }

    /** An answer that meets the job's rule for "try again later": what it showed, in words. */
    private static Said tryAgainLater(int status, Conditions.Verdict v) {
        return Said.of("core.exec.tryAgainLater", Integer.toString(status), v.words());
    }

    private static boolean isRedirect(int status) {
        return status >= 300 && status < 400;
    }

    /**
     * Whether a redirect leads to the login page. With the credential's {@code loginUrl}: to that page, the same
     * origin, its path (or a path under it) and every query parameter the login URL has, with the same value
     * ({@code /doku.php?do=login} is not {@code /doku.php?id=journal:2026-11-20}), except that a return address
     * ({@link #returnAddress}) may go anywhere. Without one: to a path that contains {@code login} or
     * {@code signin}.
     */
    static boolean isLoginPage(URI from, String location, CredentialMaterial credential) {
        if (location == null) {
            return false;
        }
        URI target = resolve(from, location);
        if (target == null) {
            return false;
        }
        String loginUrl = credential == null ? null : credential.loginUrl();
        if (loginUrl == null) {
            String path = target.getPath() == null ? "" : target.getPath().toLowerCase(Locale.ROOT);
            return path.contains("login") || path.contains("signin");
        }
        URI login;
        try {
            login = URI.create(loginUrl);
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (!Origin.of(login).equals(Origin.of(target))) {
            return false;
        }
        String prefix = login.getPath() == null || login.getPath().isEmpty() ? "/" : login.getPath();
        String p = target.getPath() == null || target.getPath().isEmpty() ? "/" : target.getPath();
        if (!(p.equals(prefix) || p.startsWith(prefix.endsWith("/") ? prefix : prefix + "/"))) {
            return false;
        }
        List<String> wanted = queryPairs(login.getRawQuery());
        List<String> have = new ArrayList<>(queryPairs(target.getRawQuery()));
        for (String pair : wanted) {
            if (!have.remove(pair) && !(returnAddress(pair) && have.stream().anyMatch(
                    h -> returnAddress(h) && name(h).equals(name(pair))))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a {@code name=value} pair of a query says where the site sends the person back after logging in
     * ({@code redirect_to=https://blog.example.org/wp-admin/}, {@code next=/admin/}): its value is a URL or a path.
     * It varies with the page that was asked, so in a login URL it only has to be there, with any such value.
     */
    private static boolean returnAddress(String pair) {
        String value = pair.substring(pair.indexOf('=') + 1).toLowerCase(Locale.ROOT);
        return value.startsWith("http://") || value.startsWith("https://") || value.startsWith("/");
    }

    private static String name(String pair) {
        return pair.substring(0, pair.indexOf('='));
    }

    /** The decoded {@code name=value} pairs of a raw query, in order (a name alone is {@code name=}). */
    private static List<String> queryPairs(String rawQuery) {
        List<String> out = new ArrayList<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return out;
        }
        for (String part : rawQuery.split("[&;]")) {
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            String name = eq < 0 ? part : part.substring(0, eq);
            String value = eq < 0 ? "" : part.substring(eq + 1);
            try {
                out.add(URLDecoder.decode(name, StandardCharsets.UTF_8) + "=" + URLDecoder.decode(value,
                        StandardCharsets.UTF_8));
            } catch (IllegalArgumentException badEscape) {
                out.add(name + "=" + value);
            }
        }
        return out;
    }

    private static boolean isLoginPage(Exchange ex, CredentialMaterial credential) {
        return isLoginPage(ex.finalUri(), ex.location(), credential);
    }

    /** "HTTP 302 redirect to … (why it was not followed)": a redirect that is the answer. */
    private static Said redirectNotFollowed(Exchange ex) {
        String location = ex.location();
        if (location == null) {
            return Said.of("core.exec.noLocation", Integer.toString(ex.status));
        }
        return Said.of("core.exec.redirectNotFollowed", Integer.toString(ex.status), location,
                ex.notFollowed == null ? Said.of("core.exec.notFollowed.off") : ex.notFollowed);
    }

    /** "HTTP 302 redirect to the login page …". */
    private static Said loginRedirect(Exchange ex) {
        return Said.of("core.exec.loginRedirect", Integer.toString(ex.status), ex.location());
    }

    /** The words, then the first line of the answer's body when it has one ("…: line"). */
    private static Said withFirstLine(Said words, Exchange ex) {
        String line = firstLine(ex);
        return line.isEmpty() ? words : Said.of("core.exec.firstLine", words, line.substring(": ".length()));
    }

    private Duration retryAfter(Exchange ex) {
        return serverWait(ex.headers);
    }

    /** The wait the answer asks for ({@code Retry-After}, else a spent rate limit's reset). */
    private Duration serverWait(HttpHeaders headers) {
        return Classifier.serverWait(name -> headers.firstValue(name).orElse(null), clock);
    }

    /**
     * Sends the request and, with {@link Redirects#SAME_ORIGIN}, follows redirects within its origin; the
     * whole exchange ends by {@code timeout} or throws {@link ExchangeTimeoutException}.
     */
    private Exchange send(HttpClient http, StepContext ctx, Rendering.RenderedRequest req, Duration timeout,
                          Redirects redirects) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Origin origin = Origin.of(req.uri());
        URI uri = req.uri();
        List<Hop> hops = new ArrayList<>();
        while (true) {
            // the job's rate limit and Retry-After pauses, per host; the wait is not part of the timeout
            Duration waited = limits.acquire(ctx.job().name(), ctx.job().rateLimit(), uri, MAX_HOST_WAIT, clock);
            if (waited.isNegative()) {
                throw new HostPausedException(uri, waited.negated());
            }
            deadline += waited.toNanos();
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new ExchangeTimeoutException(Said.of("core.exec.redirectsTimeout", human(timeout), hops.size()));
            }
            HttpRequest.BodyPublisher publisher = req.body().length == 0
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(req.body());
            HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                    .timeout(Duration.ofNanos(left))
                    .method(req.method(), publisher)
                    .header("User-Agent", USER_AGENT);
            req.headers().forEach(b::setHeader); // a job's User-Agent replaces Keyline's, never a second one
            boolean carried = false;
            if (ctx.credential() != null && Origin.of(uri).equals(origin)) {
                Map<String, String> credentialHeaders = ctx.credential().httpHeaders(uri, clock.instant());
                if (credentialHeaders.values().stream().anyMatch(v -> Printable.firstNotInHeader(v) >= 0)) {
                    // the client would refuse it with the value in its message, or send a '?' in its place
                    throw new UnsendableCredentialException(ctx.credential().name());
                }
                if (credentialHeaders.isEmpty() && hops.isEmpty()) {
                    // a browser would send none of its cookies here: the request would go out anonymously, and
                    // the login page it gets would read as a rejected login; an unsafe one could act as nobody
                    throw new NoCookieForHostException(ctx.credential(), uri);
                }
                credentialHeaders.forEach(b::setHeader);
                carried = !credentialHeaders.isEmpty();
            }
            HttpResponse<byte[]> resp = exchange(http, b.build(), left, timeout);
            hops.add(new Hop(req.method(), uri, resp.statusCode(), resp.headers().allValues("Set-Cookie"), carried));
            int s = resp.statusCode();
            if (s == 429 || s == 403 || s >= 500 && s < 600 && s != 501) {
                // the host asked to slow down (a 429, a 5xx or a rate-limited 403 that names its wait): every key of
                // the job waits, not just this one; an answer that names no wait pauses nothing
                limits.pause(ctx.job().name(), uri, serverWait(resp.headers()), clock);
            }
            String location = resp.headers().firstValue("Location").orElse(null);
            if (!isRedirect(resp.statusCode()) || location == null) {
                return new Exchange(resp.statusCode(), resp.headers(), resp.body(), List.copyOf(hops), null, deadline,
                        timeout);
            }
            Said notFollowed = null;
            URI next = null;
            if (redirects != Redirects.SAME_ORIGIN) {
                notFollowed = Said.of("core.exec.notFollowed.off");
            } else if (!FOLLOWED.contains(resp.statusCode())) {
                notFollowed = Said.of("core.exec.notFollowed.status", Integer.toString(resp.statusCode()));
            } else if (isLoginPage(uri, location, ctx.credential())) {
                notFollowed = Said.of("core.exec.notFollowed.login");
            } else if (hops.size() > MAX_REDIRECTS) {
                notFollowed = Said.of("core.exec.notFollowed.most", Integer.toString(MAX_REDIRECTS));
            } else {
                next = resolve(uri, location);
                if (next == null || next.getHost() == null) {
                    notFollowed = Said.of("core.exec.notFollowed.notUrl");
                    next = null; // no host to send to: the redirect is the answer
                } else if (!Origin.of(next).equals(origin)) {
                    notFollowed = Said.of("core.exec.notFollowed.leaves", origin.toString());
                    next = null;
                }
            }
            if (next == null) {
                return new Exchange(resp.statusCode(), resp.headers(), resp.body(), List.copyOf(hops), notFollowed,
                        deadline, timeout);
            }
            uri = next;
        }
    }

    private static URI resolve(URI from, String location) {
        try {
            return from.resolve(location.strip());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** One request and its answer, bounded by {@code leftNanos} in all (connect, send, headers, body). */
    private static HttpResponse<byte[]> exchange(HttpClient http, HttpRequest request, long leftNanos, Duration timeout)
            throws IOException, InterruptedException {
        AtomicReference<BoundedExchange.LimitedBody> body = new AtomicReference<>();
        CompletableFuture<HttpResponse<byte[]>> f = http.sendAsync(request, info -> {
            BoundedExchange.LimitedBody b = new BoundedExchange.LimitedBody(OUTPUT_BYTES);
            body.set(b);
            return b;
        });
        try {
            return f.get(leftNanos + GRACE_NANOS, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            BoundedExchange.LimitedBody b = body.get();
            if (b != null) {
                b.abort();
            }
            f.cancel(true);
            throw b != null
                    ? new ExchangeTimeoutException(Said.of("core.exec.bodyLate", human(timeout)))
                    : new ExchangeTimeoutException(Said.of("core.exec.noAnswer", human(timeout)));
        } catch (InterruptedException e) {
            BoundedExchange.LimitedBody b = body.get();
            if (b != null) {
                b.abort();
            }
            f.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof IllegalArgumentException iae) {
                throw iae;
            }
            throw new IOException(cause == null ? e : cause);
        }
    }

    /** Scheme, host and port (the default port of the scheme when none is given). */
    record Origin(String scheme, String host, int port) {
        static Origin of(URI uri) {
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
            int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") ? 443 : scheme.equals("http") ? 80 : -1;
            return new Origin(scheme, host, port);
        }

        @Override
        public String toString() {
            return scheme + "://" + host + ":" + port;
        }
    }

    private Evidence.RequestSummary summary(StepContext ctx, Rendering.RenderedRequest req) {
        List<String> names = new ArrayList<>(req.headers().keySet());
        if (names.stream().noneMatch(n -> n.equalsIgnoreCase("User-Agent"))) {
            names.add("User-Agent");
        }
        if (ctx.credential() != null) {
            names.addAll(ctx.credential().httpHeaders(req.uri(), clock.instant()).keySet());
        }
        return new Evidence.RequestSummary(req.method(), ctx.redact().apply(req.uri().toString()), names,
                req.body().length, req.body().length == 0 ? null : req.bodySha256());
    }

    /** The body for evidence: redacted before it is cut, so that a secret cut in half is still found. */
    private static String bodyEvidence(StepContext ctx, Exchange ex) {
        String text = ctx.redact().apply(text(ex.body, EVIDENCE_BYTES + 1024));
        return text == null || text.length() <= EVIDENCE_BYTES ? text : text.substring(0, EVIDENCE_BYTES);
    }

    /**
     * The redirect's {@code Location}, every hop with its status when redirects were followed, and that the
     * site refreshed the credential.
     */
    private static String detail(Exchange ex, String refreshed) {
        List<String> parts = new ArrayList<>();
        if (refreshed != null) {
            parts.add(refreshed);
        }
        // recorded as the English of their words, which the evidence panes say again (AnswerDetail.words)
        if (ex.hops.size() > 1) {
            parts.add(AnswerDetail.hops(ex.hops).english());
        }
        if (isRedirect(ex.status) && ex.location() != null) {
            parts.add(AnswerDetail.location(ex.location()).english());
        }
        return parts.isEmpty() ? null : String.join("\n", parts);
    }

    private Evidence evidence(StepContext ctx, Evidence.RequestSummary summary, Integer status, String body,
                              String detail) {
        return new Evidence(clock.instant(), ctx.attempt(), summary, status,
                body == null ? null : ctx.redact().apply(body), null, null, null, null,
                detail == null ? null : ctx.redact().apply(detail), null);
    }

    /** {@code status}, {@code location}, and the top-level values of a JSON object answer, else {@code body}. */
    private static Map<String, String> outputs(Exchange ex) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("status", Integer.toString(ex.status));
        ex.headers.firstValue("Location").ifPresent(l -> out.put("location", l));
        String text = new String(ex.body, StandardCharsets.UTF_8);
        try {
            JsonNode root = Json.MAPPER.readTree(text);
            if (root != null && root.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> f = it.next();
                    if (f.getValue().isValueNode() && !f.getValue().isNull()) {
                        out.put(f.getKey(), f.getValue().asText());
                    }
                }
            }
        } catch (IOException notJson) {
            out.put("body", clip(text, 64 * 1024));
        }
        return out;
    }

    private static Said describe(Throwable e, Duration timeout) {
        return describe(e, timeout, null);
    }

    /** What went wrong with a request to {@code uri} (its host is named when it could not be reached). */
    private static Said describe(Throwable e, Duration timeout, URI uri) {
        if (e instanceof ExchangeTimeoutException t) {
            return t.words;
        }
        if (e instanceof UnsendableCredentialException u) {
            return u.words;
        }
        if (e instanceof NoCookieForHostException n) {
            return n.words;
        }
        if (e instanceof HostPausedException p) {
            return p.words;
        }
        if (e instanceof java.net.http.HttpConnectTimeoutException) {
            return Said.of("core.exec.connectTimedOut");
        }
        if (e instanceof HttpTimeoutException) {
            return Said.of("core.exec.noAnswer", human(timeout));
        }
        String host = host(uri);
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.UnknownHostException || t instanceof java.nio.channels.UnresolvedAddressException) {
                return host == null ? Said.of("core.exec.dns") : Said.of("core.exec.dnsHost", host);
            }
            if (t instanceof java.net.NoRouteToHostException) {
                return host == null ? Said.of("core.exec.noRoute") : Said.of("core.exec.noRouteHost", host);
            }
        }
        if (e instanceof java.net.ConnectException) {
            return e.getMessage() == null ? Said.of("core.exec.refused") : Said.of("core.exec.refusedWhy", e.getMessage());
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SSLHandshakeException) {
                return t.getMessage() == null ? Said.of("core.exec.tls") : Said.of("core.exec.tlsWhy", t.getMessage());
            }
        }
        String m = e.getMessage();
        return Said.plain(e.getClass().getSimpleName() + (m == null ? "" : ": " + m));
    }

    /** The host of {@code uri} as it can be shown (data: control characters escaped), or {@code null}. */
    private static String host(URI uri) {
        return uri == null || uri.getHost() == null ? null : io.keyline.domain.Printable.line(uri.getHost());
    }

    private static String human(Duration d) {
        return d.toString().substring(2).toLowerCase(Locale.ROOT);
    }

    /**
     * A 4xx a probe's question will get again when asked again: the request itself is refused (400, 405, 414,
     * 422, …). Not a login's (401, 403), not an answer (404, 410: not there), not "not now" (408, 425, 429).
     */
    static boolean refusesTheQuestion(int status) {
        return status >= 400 && status < 500 && switch (status) {
            case 401, 403, 404, 408, 410, 425, 429 -> false;
            default -> true;
        };
    }

    private static String statusHint(int status) {
        return switch (status) {
            case 401 -> " Unauthorized";
            case 403 -> " Forbidden";
            case 404 -> " Not Found";
            case 409 -> " Conflict";
            case 429 -> " Too Many Requests";
            case 500 -> " Internal Server Error";
            case 501 -> " Not Implemented";
            case 502 -> " Bad Gateway";
            case 503 -> " Service Unavailable";
            case 504 -> " Gateway Timeout";
            case 507 -> " Insufficient Storage";
            default -> "";
        };
    }

    private static String firstLine(Exchange ex) {
        String body = text(ex.body, EVIDENCE_BYTES);
        if (body == null || body.isBlank()) {
            return "";
        }
        String stripped = body.strip();
        String line = stripped.startsWith("<?xml") ? xmlText(stripped)
                : stripped.startsWith("{") || stripped.startsWith("[") ? joined(stripped)
                : stripped.lines().findFirst().orElse("");
        return ": " + clip(line, 160);
    }

    /**
     * A JSON answer on one line: an API that indents its JSON (GitHub's) has {@code {} alone on its first line, and
     * the site's words after it. A JSON string holds no line break of its own, so joining the lines, each stripped,
     * keeps every value as it was.
     */
    private static String joined(String json) {
        StringBuilder sb = new StringBuilder();
        json.lines().limit(200).forEach(l -> sb.append(l.strip()));
        return sb.toString();
    }

    /**
     * The words of an XML answer, its markup left out: the first line of an XML document is its declaration, and a
     * WebDAV server (Sabre) says what went wrong in the elements after it
     * ({@code <s:exception>…\Conflict</s:exception><s:message>Parent node does not exist</s:message>}).
     */
    private static String xmlText(String xml) {
        StringBuilder text = new StringBuilder();
        boolean inTag = false;
        for (int k = 0; k < xml.length(); k++) {
            char c = xml.charAt(k);
            if (inTag) {
                inTag = c != '>';
            } else if (c == '<') {
                inTag = true;
                text.append(' ');
            } else {
                text.append(Character.isWhitespace(c) ? ' ' : c);
            }
        }
        String words = String.join(" ", text.toString().trim().split(" +"))
                .replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'")
                .replace("&amp;", "&");
        return words.isEmpty() ? xml.lines().findFirst().orElse("") : words;
    }

    static String text(byte[] bytes, int max) {
        if (bytes == null) {
            return null;
        }
        int n = Math.min(bytes.length, max);
        return new String(bytes, 0, n, StandardCharsets.UTF_8);
    }

    static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "…";
    }
}
