package io.keyline.core;

import io.keyline.core.exec.HttpExecutor;
import io.keyline.core.exec.Rendering;
import io.keyline.credentials.Redactor;
import io.keyline.domain.StepDefinition;
import io.keyline.text.Said;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The headers an http step sends, as an operator is shown them, in sending order: the
 * {@code User-Agent}, the step's own headers (with {@code Idempotency-Key}) masked by the job's
 * secrets, then the credential's headers ({@code Cookie}, {@code Authorization}) masked. The plan
 * and the confirm dialog both show this list, so they cannot differ for the same request.
 */
public final class ShownHeaders {

    private ShownHeaders() {
    }

    /**
     * One header as shown.
     *
     * @param name   header name
     * @param value  the value (masked where it is a secret)
     * @param masked whether the value is a credential (never shown)
     * @param line   the line as words (a credential's masked line names it, which is said in the language in use),
     *               or {@code null}: {@code name: value} as it is
     */
    public record Header(String name, String value, boolean masked, Said line) {

        /** A header shown as it is. */
        public Header(String name, String value, boolean masked) {
            this(name, value, masked, null);
        }

        /** {@code name: value}, or the line's words in the language in use. */
        public String shown() {
            return line == null ? name + ": " + value : line.text();
        }
    }

    /**
     * The headers of a rendered request.
     *
     * @param step the step (its {@code credential} names the credential)
     * @param cred the credential's lookup, or {@code null} when the step uses none
     * @param mask the job's secrets, masked wherever a value holds one
     */
    public static List<Header> of(StepDefinition step, Rendering.RenderedRequest req, CredentialProvider.Lookup cred,
                                  Redactor mask, Instant now) {
        List<Header> out = new ArrayList<>();
        if (!hasUserAgent(req.headers().keySet())) {
            out.add(new Header("User-Agent", HttpExecutor.USER_AGENT, false));
        }
        req.headers().forEach((n, v) -> out.add(new Header(n, mask.redact(v), false)));
        out.addAll(credential(step.credential(), cred, req.uri(), now));
        return out;
    }

    /**
     * {@code shown} (the headers of {@code ctx}'s step rendered with {@link ShownBody#bound}) with each of the
     * step's own headers whose value uses a value known only at run time (an output of {@code runTimeSteps})
     * shown as where it comes from ("from step nonce: nonce (extracted at run time)"), not as its placeholder.
     */
    public static List<Header> withRunTime(List<Header> shown, io.keyline.core.exec.StepContext ctx,
                                           java.util.Collection<String> runTimeSteps, Redactor mask) {
        return withRunTime(shown, ctx, runTimeSteps, mask, List.of());
    }

    /** As {@link #withRunTime(List, io.keyline.core.exec.StepContext, java.util.Collection, Redactor)}, an output of a
     * step in {@code probed} (one its probe is expected to find done) shown as coming from that step's probe. */
    public static List<Header> withRunTime(List<Header> shown, io.keyline.core.exec.StepContext ctx,
                                           java.util.Collection<String> runTimeSteps, Redactor mask,
                                           java.util.Collection<String> probed) {
        if (runTimeSteps.isEmpty() || ctx.step().request() == null) {
            return shown;
        }
        List<Header> out = new ArrayList<>();
        for (Header h : shown) {
            String template = h.masked() ? null : ctx.step().request().headers().entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(h.name())).map(Map.Entry::getValue).findFirst()
                    .orElse(null);
            String value = template == null ? null : ShownBody.runTimeValue(template, ctx, runTimeSteps,
                    mask::redact, probed);
            out.add(value == null ? h : new Header(h.name(), value, false));
        }
        return out;
    }

    /**
     * The headers of a request that cannot be rendered yet (its body file is written by an earlier step):
     * the same list as {@link #of}, with the step's headers as written and the credential's masked.
     *
     * @param idempotencyKey the {@code Idempotency-Key} the request will carry
     * @param url            the request's URL as far as it is known
     */
    public static List<Header> unrendered(StepDefinition step, String idempotencyKey, String url,
                                          CredentialProvider.Lookup cred, Redactor mask, Instant now) {
        List<Header> out = new ArrayList<>();
        if (!hasUserAgent(step.request().headers().keySet())) {
            out.add(new Header("User-Agent", HttpExecutor.USER_AGENT, false));
        }
        step.request().headers().forEach((n, v) -> out.add(new Header(n, mask.redact(v), false)));
        out.add(new Header("Idempotency-Key", idempotencyKey, false));
        java.net.URI uri;
        try {
            uri = java.net.URI.create(url);
        } catch (IllegalArgumentException e) {
            uri = null;
        }
        if (uri == null && step.credential() != null && cred != null && cred.present()) {
            // the URL is not known yet (it takes an earlier step's output): the credential is sent all the same
            String fp = cred.material().fingerprint();
            boolean rejected = cred.rejected() != null;
            out.add(new Header("(credential " + step.credential() + ")", mask(step.credential(), fp, rejected), true,
                    Said.of(rejected ? "core.headers.unknownUrlRejected" : "core.headers.unknownUrl",
                            step.credential(), fp)));
        } else if (uri != null) {
            out.addAll(credential(step.credential(), cred, uri, now));
        }
        return out;
    }

    /** The credential's headers, masked; one line saying it is missing when it is. */
    static List<Header> credential(String name, CredentialProvider.Lookup cred, java.net.URI uri, Instant now) {
        if (name == null || cred == null) {
            return List.of();
        }
        if (!cred.present()) {
            return List.of(new Header("(credential " + name + ")", "missing" + (cred.problem() == null ? ""
                    : ": " + cred.problem().english()), true, cred.problem() == null
                    ? Said.of("core.headers.missing", name) : Said.of("core.headers.missingWhy", name, cred.problem())));
        }
        List<Header> out = new ArrayList<>();
        String fp = cred.material().fingerprint();
        boolean rejected = cred.rejected() != null;
        // an OAuth 2.0 credential's access token is obtained when the request is sent: its header is known now
        java.util.Set<String> names = cred.material().oauth() != null ? java.util.Set.of("Authorization")
                : cred.material().httpHeaders(uri, now).keySet();
        names.forEach(h -> out.add(new Header(h, mask(name, fp, rejected),
                true, Said.of(rejected ? "core.headers.maskedRejected" : "core.headers.masked", h, name, fp))));
        return out;
    }

    /**
     * {@code *** (credential NAME, fingerprint F)}, with {@code , REJECTED} when the site rejected it: the English of
     * {@link #masked}, as the plan's header map and its JSON keep it.
     */
    public static String mask(String name, String fingerprint, boolean rejected) {
        return masked(name, fingerprint, rejected).english();
    }

    /** A credential's masked value as words, said in the language in use where a person reads it. */
    public static Said masked(String name, String fingerprint, boolean rejected) {
        return Said.of(rejected ? "core.headers.valueRejected" : "core.headers.value", name, fingerprint);
    }

    /** The headers as a name → value map, in order. */
    public static Map<String, String> map(List<Header> headers) {
        Map<String, String> m = new LinkedHashMap<>();
        headers.forEach(h -> m.put(h.name(), h.value()));
        return m;
    }

    /** Every secret of the credentials the job's steps and its own probe use, for masking what is shown. */
    public static Redactor secretsOf(io.keyline.domain.JobDefinition job, CredentialProvider credentials) {
        Redactor r = Redactor.NONE;
        for (String name : job.credentials()) {
            CredentialProvider.Lookup l = credentials.lookup(name);
            if (l.material() != null) {
                r = r.plus(l.material().secretStrings());
            }
        }
        return r;
    }

    /** Whether a step sets its own {@code User-Agent}, which is then sent instead of Keyline's. */
    private static boolean hasUserAgent(java.util.Collection<String> names) {
        return names.stream().anyMatch(n -> n.equalsIgnoreCase("User-Agent"));
    }
}
