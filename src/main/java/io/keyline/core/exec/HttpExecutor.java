package io.keyline.core.exec;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.Json;
import io.keyline.domain.Effect;
import io.keyline.domain.Evidence;
import io.keyline.domain.FailureClass;
import io.keyline.domain.PresentWhen;
import io.keyline.domain.ProbeSpec;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Executes http steps and http probes with the JDK HttpClient. Every request carries
 * {@code Idempotency-Key: job:key:step}; the credential's headers are added last and never recorded.
 */
public final class HttpExecutor implements StepExecutor {

    /** Evidence keeps this much of a response body. */
    static final int EVIDENCE_BYTES = 8 * 1024;
    /** Outputs are parsed from at most this much of a response body. */
    static final int OUTPUT_BYTES = 1024 * 1024;
    private static final String USER_AGENT = "Keyline/0.1";

    private final HttpClient client;
    private final Clock clock;

    public HttpExecutor(Clock clock) {
        this.clock = clock;
        this.client = newClient();
    }

    private static HttpClient newClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
    }

    private record Exchange(int status, byte[] body, HttpResponse<InputStream> response) {
    }

    @Override
    public StepOutcome execute(StepContext ctx) throws InterruptedException {
        Rendering.RenderedRequest req;
        try {
            req = Rendering.request(ctx);
        } catch (Rendering.RenderException e) {
            return StepOutcome.failure(FailureClass.FATAL, ctx.redact().apply(e.getMessage()),
                    evidence(ctx, null, null, null, e.getMessage()));
        }
        Evidence.RequestSummary summary = summary(ctx, req);
        Exchange ex;
        try {
            // An unsafe request never rides on a pooled keep-alive connection: if the server had closed
            // it, the request would fail after being written and look ambiguous when it provably
            // never arrived. A fresh connection costs one handshake per unsafe step.
            ex = send(ctx.step().effect() == Effect.UNSAFE ? newClient() : client, ctx, req, ctx.step().timeout());
        } catch (IOException | IllegalArgumentException e) {
            FailureClass cls = Classifier.ofException(e);
            String msg = describe(e, ctx.step().timeout());
            return StepOutcome.failure(cls, ctx.redact().apply(msg), evidence(ctx, summary, null, null, msg));
        }
        // Redact before cutting: a secret cut in half by a limit no longer matches the redactor.
        String bodyText = ctx.redact().apply(text(ex.body, EVIDENCE_BYTES + 1024));
        bodyText = bodyText == null || bodyText.length() <= EVIDENCE_BYTES ? bodyText : bodyText.substring(0, EVIDENCE_BYTES);
        Evidence ev = evidence(ctx, summary, ex.status, bodyText, null);
        FailureClass cls = Classifier.ofStatus(ex.status);
        if (cls == null) {
            return StepOutcome.success("HTTP " + ex.status, outputs(ex), ev);
        }
        String msg = ctx.redact().apply("HTTP " + ex.status + statusHint(ex.status) + firstLine(bodyText));
        Duration retryAfter = ex.status == 429 || ex.status == 503
                ? Classifier.retryAfter(ex.response.headers().firstValue("Retry-After").orElse(null), clock)
                : null;
        return new StepOutcome(cls, msg, Map.of(), ev, retryAfter);
    }

    @Override
    public ProbeOutcome probe(StepContext ctx) throws InterruptedException {
        ProbeSpec probe = ctx.step().probe();
        Rendering.RenderedRequest req;
        try {
            req = Rendering.probeRequest(ctx);
        } catch (Rendering.RenderException e) {
            return new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, ctx.redact().apply(e.getMessage()), null);
        }
        Evidence.RequestSummary summary = summary(ctx, req);
        Exchange ex;
        try {
            ex = send(client, ctx, req, probe.timeout());
        } catch (IOException | IllegalArgumentException e) {
            String msg = "probe failed: " + describe(e, probe.timeout());
            return new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, ctx.redact().apply(msg),
                    evidence(ctx, summary, null, null, msg));
        }
        // Redact before cutting: a secret cut in half by a limit no longer matches the redactor.
        String bodyText = ctx.redact().apply(text(ex.body, EVIDENCE_BYTES + 1024));
        bodyText = bodyText == null || bodyText.length() <= EVIDENCE_BYTES ? bodyText : bodyText.substring(0, EVIDENCE_BYTES);
        Evidence ev = evidence(ctx, summary, ex.status, bodyText, null);
        if (ex.status == 401 || ex.status == 403) {
            return new ProbeOutcome(ProbeOutcome.Answer.AUTH, "probe rejected the credential: HTTP " + ex.status, ev);
        }
        PresentWhen when = probe.presentWhen();
        if (when == null) {
            if (ex.status >= 200 && ex.status < 300) {
                return new ProbeOutcome(ProbeOutcome.Answer.PRESENT, "probe: HTTP " + ex.status + " (present)", ev);
            }
            if (ex.status == 404 || ex.status == 410) {
                return new ProbeOutcome(ProbeOutcome.Answer.ABSENT, "probe: HTTP " + ex.status + " (absent)", ev);
            }
            return new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, "probe: HTTP " + ex.status + " is no answer", ev);
        }
        if (ex.status < 200 || ex.status >= 300) {
            return new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, "probe: HTTP " + ex.status + " is no answer", ev);
        }
        try {
            JsonNode root = Json.MAPPER.readTree(ex.body);
            JsonNode at = root.at(when.jsonPointer());
            boolean present = evaluate(when, at);
            String shown = at.isMissingNode() ? "missing" : at.toString();
            String msg = "probe: " + (when.jsonPointer().isEmpty() ? "body" : when.jsonPointer()) + " = "
                    + clip(shown, 80) + " (" + (present ? "present" : "absent") + ")";
            return new ProbeOutcome(present ? ProbeOutcome.Answer.PRESENT : ProbeOutcome.Answer.ABSENT,
                    ctx.redact().apply(msg), ev);
        } catch (IOException e) {
            return new ProbeOutcome(ProbeOutcome.Answer.INCONCLUSIVE, "probe: response is not JSON", ev);
        }
    }

    static boolean evaluate(PresentWhen when, JsonNode at) throws IOException {
        boolean exists = !at.isMissingNode() && !at.isNull();
        if (when.exists() != null) {
            return when.exists() == exists;
        }
        if (when.equalsJson() != null) {
            return exists && sameValue(at, Json.MAPPER.readTree(when.equalsJson()));
        }
        if (when.notEqualsJson() != null) {
            return exists && !sameValue(at, Json.MAPPER.readTree(when.notEqualsJson()));
        }
        return exists;
    }

    private static boolean sameValue(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        return a.equals(b);
    }

    private Exchange send(HttpClient http, StepContext ctx, Rendering.RenderedRequest req, Duration timeout)
            throws IOException, InterruptedException {
        HttpRequest.BodyPublisher publisher = req.body().length == 0
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(req.body());
        HttpRequest.Builder b = HttpRequest.newBuilder(req.uri())
                .timeout(timeout)
                .method(req.method(), publisher)
                .header("User-Agent", USER_AGENT);
        req.headers().forEach(b::header);
        if (ctx.credential() != null) {
            ctx.credential().httpHeaders(req.uri(), clock.instant()).forEach(b::setHeader);
        }
        HttpResponse<InputStream> resp = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
        byte[] body;
        try (InputStream in = resp.body()) {
            body = in.readNBytes(OUTPUT_BYTES);
        }
        return new Exchange(resp.statusCode(), body, resp);
    }

    private Evidence.RequestSummary summary(StepContext ctx, Rendering.RenderedRequest req) {
        List<String> names = new ArrayList<>(req.headers().keySet());
        names.add("User-Agent");
        if (ctx.credential() != null) {
            names.addAll(ctx.credential().httpHeaders(req.uri(), clock.instant()).keySet());
        }
        return new Evidence.RequestSummary(req.method(), ctx.redact().apply(req.uri().toString()), names,
                req.body().length, req.body().length == 0 ? null : req.bodySha256());
    }

    private Evidence evidence(StepContext ctx, Evidence.RequestSummary summary, Integer status, String body,
                              String detail) {
        return new Evidence(clock.instant(), ctx.attempt(), summary, status,
                body == null ? null : ctx.redact().apply(body), null, null, null, null,
                detail == null ? null : ctx.redact().apply(detail));
    }

    private static Map<String, String> outputs(Exchange ex) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("status", Integer.toString(ex.status));
        ex.response.headers().firstValue("Location").ifPresent(l -> out.put("location", l));
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

    private static String describe(Throwable e, Duration timeout) {
        if (e instanceof java.net.http.HttpConnectTimeoutException) {
            return "connect timed out";
        }
        if (e instanceof java.net.http.HttpTimeoutException) {
            return "no response within " + timeout.toString().substring(2).toLowerCase(java.util.Locale.ROOT)
                    + " (read timeout; the request was sent)";
        }
        if (e instanceof java.net.ConnectException) {
            return "connection refused" + (e.getMessage() == null ? "" : ": " + e.getMessage());
        }
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }

    private static String statusHint(int status) {
        return switch (status) {
            case 401 -> " Unauthorized";
            case 403 -> " Forbidden";
            case 404 -> " Not Found";
            case 429 -> " Too Many Requests";
            case 500 -> " Internal Server Error";
            case 503 -> " Service Unavailable";
            default -> "";
        };
    }

    private static String firstLine(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        String line = body.strip().lines().findFirst().orElse("");
        return ": " + clip(line, 160);
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
