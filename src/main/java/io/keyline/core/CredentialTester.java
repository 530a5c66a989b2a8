package io.keyline.core;

import io.keyline.core.exec.HttpExecutor;
import io.keyline.core.exec.ProbeOutcome;
import io.keyline.core.exec.Rendering;
import io.keyline.core.exec.StepContext;
import io.keyline.core.exec.StepOutcome;
import io.keyline.credentials.Redactor;
import io.keyline.domain.Effect;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyProbe;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeyType;
import io.keyline.domain.ResponseRules;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepKind;
import io.keyline.text.Said;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.keyline.text.Text.t;

/**
 * Asks, read-only, every request of the credential's jobs that can tell whether the site accepts it: a job's own
 * http probe sent with it, the http probes of the steps that use it, and their {@code none} steps (any method: declared pure) and
 * {@code idempotent} GET/HEAD steps of kind http that have a {@code successWhen} or an {@code authWhen}. The
 * verdict is strict: <em>accepted</em> only when at least one answer met its success condition and none met an
 * auth signal, <em>rejected</em> on any auth signal, else <em>inconclusive</em>. A request the login could not go
 * out with (a cookie credential with no cookie for its host) sends nothing: the login is not usable there, as a
 * rejected one is not (the same exit, nothing resumes), but no site saw it and nothing is recorded against it. A
 * probe that read a page anyone can read says nothing against a step whose {@code authWhen} sees the login form.
 */
public final class CredentialTester {

    /** Which of a step's requests was asked. */
    public enum Asked {
        PROBE, STEP,
        /** The token endpoint of an OAuth 2.0 credential: its {@code job} is the endpoint, its {@code step} empty. */
        TOKEN
    }

    /**
     * What one request said; the operator reads it as {@code LoginCheck.line}, which puts a probe's answer in
     * plain words.
     *
     * @param message the site's answer as the request saw it, or why it was not asked; {@code null} for none
     */
    public record Result(String job, String step, Asked asked, Verdict verdict, Said message) {
        /** A probe's result. */
        public Result(String job, String step, Verdict verdict, Said message) {
            this(job, step, Asked.PROBE, verdict, message);
        }
    }

    public enum Verdict {
        /** The answer met its success condition (a probe answered present or absent; a step succeeded). */
        ACCEPTED,
        /** The answer met an auth signal (401/403, the login page, {@code authWhen}). */
        REJECTED,
        /** Nothing was sent: the login cannot go with the request (a cookie credential with no cookie for its host). */
        NOT_SENT,
        /** Neither. */
        NO_ANSWER,
        /** Not asked: it cannot tell, or it needs a value only a run has. */
        NOT_TESTED
    }

    /** The whole test's verdict. */
    public enum Outcome {
        ACCEPTED(0), REJECTED(2), INCONCLUSIVE(4);

        private final int exitCode;

        Outcome(int exitCode) {
            this.exitCode = exitCode;
        }

        /** What {@code keyline credentials test} exits with. */
        public int exitCode() {
            return exitCode;
        }
    }

    /**
     * Rejected on any auth signal or a request the login could not go out with (not usable either way); accepted
     * when one answer met its success condition; else inconclusive.
     */
    public static Outcome outcome(List<Result> results) {
        if (results.stream().anyMatch(r -> r.verdict() == Verdict.REJECTED || r.verdict() == Verdict.NOT_SENT)) {
            return Outcome.REJECTED;
        }
        return results.stream().anyMatch(r -> r.verdict() == Verdict.ACCEPTED) ? Outcome.ACCEPTED : Outcome.INCONCLUSIVE;
    }

    /**
     * One sentence over a test's results: "Accepted: 2 answers met their success condition, none an auth signal.";
     * when no site answered rejected but a request could not go out, what kept it in ("Not usable: nothing was
     * sent: credential wiki holds no cookie for 127.0.0.1 (its cookies: …)").
     */
    public static String summary(String name, List<Result> results) {
        long accepted = results.stream().filter(r -> r.verdict() == Verdict.ACCEPTED).count();
        long rejected = results.stream().filter(r -> r.verdict() == Verdict.REJECTED).count();
        long asked = answered(results);
        return switch (outcome(results)) {
            case REJECTED -> rejected == 0 ? t("core.tester.notSent", notSent(results))
                    : t("core.tester.rejected", rejected, asked);
            case ACCEPTED -> t("core.tester.accepted", accepted);
            case INCONCLUSIVE -> asked == 0 ? t("core.tester.nothingCanTell", name) : t("core.tester.inconclusive");
        };
    }

    /** How many requests went out and were answered, or not (neither not tested nor kept in). */
    public static long answered(List<Result> results) {
        return results.stream().filter(r -> r.verdict() != Verdict.NOT_TESTED && r.verdict() != Verdict.NOT_SENT)
                .count();
    }

    /** Whether no site answered rejected and a request could not go out with the login: it was kept from them. */
    public static boolean keptIn(List<Result> results) {
        return results.stream().noneMatch(r -> r.verdict() == Verdict.REJECTED)
                && results.stream().anyMatch(r -> r.verdict() == Verdict.NOT_SENT);
    }

    /** Why the requests of {@link Verdict#NOT_SENT} did not go out, each reason once, in the current language. */
    public static String notSent(List<Result> results) {
        return results.stream().filter(r -> r.verdict() == Verdict.NOT_SENT && r.message() != null)
                .map(r -> r.message().text()).distinct().collect(java.util.stream.Collectors.joining("; "));
    }

    private final CredentialProvider credentials;
    private final Clock clock;

    public CredentialTester(CredentialProvider credentials, Clock clock) {
        this.credentials = credentials;
        this.clock = clock;
    }

    /** {@link #test(String, List, String)} with each job's current key. */
    public List<Result> test(String name, List<JobDefinition> jobs) throws InterruptedException {
        return test(name, jobs, null);
    }

    /**
     * Asks every request of the jobs that use {@code name} and can tell, and records the verdict as the
     * credential's last result (rejected or accepted; nothing when inconclusive).
     *
     * @param key the key the requests are made for ({@code {key}}), or {@code null} for each job's current key
     * @throws OperatorException when the credential cannot be used at all (not set, wrong master key)
     */
    /**
     * Whether an http probe names the key anywhere it asks: its URL, a header, or the body of one that asks by POST
     * (a GraphQL query's variables). Without a key it would ask about a literal {@code {key}}.
     */
    static boolean asksByKey(io.keyline.domain.ProbeSpec probe) {
        List<String> templates = new ArrayList<>(probe.headers().values());
        templates.add(probe.url());
        templates.addAll(ShownBody.templates(probe.fields()));
        return templates.stream().anyMatch(t -> t != null && t.contains("{key}"));
    }

    public List<Result> test(String name, List<JobDefinition> jobs, String key) throws InterruptedException {
        CredentialProvider.Lookup found = credentials.lookup(name);
        if (!found.present()) {
            throw new OperatorException(found.problem());
        }
        HttpExecutor http = new HttpExecutor(clock);
        Redactor redactor = Redactor.NONE.plus(found.material().secretStrings());
        List<Result> out = new ArrayList<>();
        if (found.material().oauth() != null) {
            // the exchange itself tells: the endpoint accepts the refresh token or refuses it
            Result exchange = exchange(found.material());
            out.add(exchange);
            if (exchange.verdict() != Verdict.ACCEPTED) {
                record(name, out);
                return out;
            }
            redactor = redactor.plus(io.keyline.core.exec.AccessTokens.shared().issued());
        }
        for (JobDefinition job : jobs) {
            KeyProbe own = job.probe();
            if (own != null && name.equals(own.credential())) {
                String k = key != null ? key : job.key().type() == KeyType.MANUAL ? null
                        : KeyRules.current(job.key(), clock);
                StepContext ctx = new StepContext(job, own.asStep(), k == null ? "{key}" : k, "credentials-test", 1,
                        Map.of(), found.material(), redactor::redact);
                out.add(own.spec().kind() != StepKind.HTTP
                        ? new Result(job.name(), KeyProbe.STEP, Asked.PROBE, Verdict.NOT_TESTED,
                        Said.of("core.tester.commandProbe"))
                        : k == null && asksByKey(own.spec())
                        ? new Result(job.name(), KeyProbe.STEP, Asked.PROBE, Verdict.NOT_TESTED,
                        Said.of("core.tester.needsKey", "--key"))
                        : probe(http, ctx));
            }
            for (StepDefinition step : job.steps()) {
                if (!name.equals(step.credential())) {
                    continue;
                }
                String k = key != null ? key : job.key().type() == KeyType.MANUAL ? null : KeyRules.current(job.key(), clock);
                StepContext ctx = new StepContext(job, step, k == null ? "{key}" : k, "credentials-test", 1, Map.of(),
                        found.material(), redactor::redact);
                boolean asked = false;
                if (step.probe() != null && step.probe().kind() == StepKind.HTTP) {
                    asked = true;
                    out.add(k == null && asksByKey(step.probe())
                            ? new Result(job.name(), step.id(), Asked.PROBE, Verdict.NOT_TESTED,
                            Said.of("core.tester.needsKey", "--key"))
                            : probe(http, ctx));
                }
                if (canTell(step)) {
                    asked = true;
                    out.add(request(http, ctx, k == null));
                }
                if (!asked) {
                    out.add(new Result(job.name(), step.id(), Asked.STEP, Verdict.NOT_TESTED,
                            Said.of(step.kind() != StepKind.HTTP ? "core.tester.commandStep"
                                    : step.effect() == Effect.UNSAFE ? "core.tester.unsafeNoProbe"
                                    : "core.tester.cannotTell")));
                }
            }
        }
        record(name, out);
        return out;
    }

    /** What a site said of the value: a request it could not go out with was answered by no site. */
    private void record(String name, List<Result> out) {
        if (out.stream().anyMatch(r -> r.verdict() == Verdict.REJECTED)) {
            credentials.recordUse(name, clock.instant(), "rejected");
        } else if (out.stream().anyMatch(r -> r.verdict() == Verdict.ACCEPTED)) {
            credentials.recordUse(name, clock.instant(), "accepted");
        }
    }

    /** Asks the token endpoint of an OAuth 2.0 credential for an access token now. */
    private Result exchange(io.keyline.core.exec.CredentialMaterial m) throws InterruptedException {
        String endpoint = io.keyline.domain.Printable.line(m.oauth().tokenUrl());
        try {
            io.keyline.core.exec.AccessTokens.shared().fresh(m, clock, java.time.Duration.ofSeconds(30));
            return new Result(endpoint, "", Asked.TOKEN, Verdict.ACCEPTED, Said.of("core.tester.tokenGiven"));
        } catch (io.keyline.core.exec.AccessTokens.Unavailable e) {
            return new Result(endpoint, "", Asked.TOKEN, e.cls() == FailureClass.AUTH ? Verdict.REJECTED
                    : Verdict.NO_ANSWER, e.words());
        }
    }

    /**
     * Whether a step's own request may be sent to test a login: http, {@code none} (declared pure) or
     * {@code idempotent} with GET or HEAD, and with a response rule that can tell.
     */
    static boolean canTell(StepDefinition step) {
        if (step.kind() != StepKind.HTTP || step.effect() == Effect.UNSAFE) {
            return false;
        }
        String method = step.request().method();
        if (step.effect() == Effect.IDEMPOTENT && !("GET".equals(method) || "HEAD".equals(method))) {
            return false;
        }
        ResponseRules rules = step.request().response();
        return rules.successWhen() != null || rules.authWhen() != null;
    }

    private static Result probe(HttpExecutor http, StepContext ctx) throws InterruptedException {
        ProbeOutcome p = http.probe(ctx);
        Verdict v = switch (p.answer()) {
            case PRESENT, ABSENT -> Verdict.ACCEPTED;
            case AUTH -> answered(p.evidence()) ? Verdict.REJECTED : Verdict.NOT_SENT;
            case INCONCLUSIVE -> Verdict.NO_ANSWER;
        };
        return new Result(ctx.job().name(), ctx.step().id(), Asked.PROBE, v, p.words());
    }

    private static Result request(HttpExecutor http, StepContext ctx, boolean noKey) throws InterruptedException {
        String job = ctx.job().name();
        String step = ctx.step().id();
        try {
            Rendering.RenderedRequest r = Rendering.request(ctx);
            if (noKey && (r.uri().toString().contains("%7Bkey%7D") || ctx.step().request().url().contains("{key}"))) {
                return new Result(job, step, Asked.STEP, Verdict.NOT_TESTED, Said.of("core.tester.needsKey", "--key"));
            }
        } catch (Rendering.RenderException e) {
            return new Result(job, step, Asked.STEP, Verdict.NOT_TESTED, e.waitsForEarlierStep()
                    ? Said.of("core.tester.needsEarlierValue") : e.said());
        }
        StepOutcome o = http.execute(ctx);
        Verdict v = o.succeeded() ? Verdict.ACCEPTED : o.failure() != FailureClass.AUTH ? Verdict.NO_ANSWER
                : answered(o.evidence()) ? Verdict.REJECTED : Verdict.NOT_SENT;
        return new Result(job, step, Asked.STEP, v, o.words());
    }

    /** Whether a site answered: an auth signal without an answer is a login refused before anything went out. */
    private static boolean answered(io.keyline.domain.Evidence ev) {
        return ev == null || ev.status() != null;
    }
}
