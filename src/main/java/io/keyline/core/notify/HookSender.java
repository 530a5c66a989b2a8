package io.keyline.core.notify;

import io.keyline.core.jobfile.Hook;
import io.keyline.core.jobfile.HookTemplate;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyline.core.json.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Calls one hook with one event: a command gets the event on its standard input (and its fields in
 * {@code KEYLINE_NOTIFY_*} variables, and as {@code {job}}, {@code {key}}, {@code {state}},
 * {@code {message}} in its arguments); a webhook gets it as a POST body in the hook's format.
 */
public final class HookSender {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER).build();

    private final Path workdir;
    private final Clock clock;

    /**
     * @param workdir where command hooks run (the jobs folder)
     * @param clock   time for signatures
     */
    public HookSender(Path workdir, Clock clock) {
        this.workdir = workdir;
        this.clock = clock;
    }

    /** What a call came to: {@code null} when it succeeded, else why not (never with a secret or a webhook's token). */
    public String send(Hook hook, ObjectNode event) throws InterruptedException {
        try {
            return hook.command() != null ? command(hook, event) : webhook(hook, event);
        } catch (IOException e) {
            return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + scrub(hook, e.getMessage()));
        }
    }

    private String command(Hook hook, ObjectNode event) throws IOException, InterruptedException {
        Map<String, String> values = new HashMap<>();
        for (String name : HookTemplate.NAMES) {
            values.put(name, text(event, name));
        }
        List<String> argv = hook.command().stream().map(a -> HookTemplate.render(a, values)).toList();
        ProcessBuilder pb = new ProcessBuilder(argv).directory(workdir.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Map<String, String> env = pb.environment();
        env.put("KEYLINE_NOTIFY_EVENT", text(event, "event"));
        for (String name : HookTemplate.NAMES) {
            env.put("KEYLINE_NOTIFY_" + name.toUpperCase(Locale.ROOT), values.get(name));
        }
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            return "cannot start " + argv.get(0) + ": " + e.getMessage();
        }
        byte[] stderr;
        try (OutputStream in = p.getOutputStream()) {
            in.write((Json.write(event) + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException ignored) {
            // the hook did not read its input: its exit code says whether it worked
        }
        Thread drain = null;
        final byte[][] err = new byte[1][];
        try (InputStream es = p.getErrorStream()) {
            drain = new Thread(() -> {
                try {
                    err[0] = es.readAllBytes();
                } catch (IOException e) {
                    err[0] = new byte[0];
                }
            }, "keyline-hook-stderr");
            drain.setDaemon(true);
            drain.start();
            if (!p.waitFor(hook.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
                return "timed out after " + hook.timeout().toSeconds() + " s (killed)";
            }
            drain.join(2000);
        }
        stderr = err[0] == null ? new byte[0] : err[0];
        if (p.exitValue() == 0) {
            return null;
        }
        String tail = new String(stderr, StandardCharsets.UTF_8).strip();
        tail = tail.length() > 300 ? "…" + tail.substring(tail.length() - 300) : tail;
        return "exit " + p.exitValue() + (tail.isEmpty() ? "" : ": " + Events.clean(tail, 300));
    }

    private String webhook(Hook hook, ObjectNode event) throws IOException, InterruptedException {
        URI uri = hook.webhook();
        ObjectNode body = body(hook.format(), event);
        if (hook.secret() != null && hook.format().equals("feishu")) {
            long ts = clock.instant().getEpochSecond();
            body.put("timestamp", Long.toString(ts));
            body.put("sign", Base64.getEncoder().encodeToString(hmac((ts + "\n" + hook.secret()), new byte[0])));
        }
        if (hook.secret() != null && hook.format().equals("dingtalk")) {
            long ms = clock.instant().toEpochMilli();
            String sign = Base64.getEncoder().encodeToString(hmac(hook.secret(),
                    (ms + "\n" + hook.secret()).getBytes(StandardCharsets.UTF_8)));
            String q = "timestamp=" + ms + "&sign=" + URLEncoder.encode(sign, StandardCharsets.UTF_8);
            uri = URI.create(uri + (uri.getRawQuery() == null ? "?" : "&") + q);
        }
        HttpRequest req = HttpRequest.newBuilder(uri).timeout(hook.timeout())
                .header("Content-Type", "application/json; charset=utf-8")
                .header("User-Agent", "Keyline")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body), StandardCharsets.UTF_8)).build();
        HttpResponse<String> resp;
        try {
            resp = HTTP.send(req, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (java.net.http.HttpTimeoutException e) {
            return "timed out after " + hook.timeout().toSeconds() + " s";
        }
        String answer = Events.clean(resp.body() == null ? "" : resp.body(), 200);
        if (resp.statusCode() / 100 != 2) {
            return "HTTP " + resp.statusCode() + (answer.isEmpty() ? "" : ": " + scrub(hook, answer));
        }
        // the robots of wecom, dingtalk and feishu answer 200 with an error code in the body
        if (List.of("wecom", "dingtalk", "feishu").contains(hook.format())) {
            JsonNode j;
            try {
                j = Json.MAPPER.readTree(resp.body());
            } catch (IOException e) {
                return "HTTP " + resp.statusCode() + " but the answer is not JSON: " + scrub(hook, answer);
            }
            for (String field : List.of("errcode", "code", "StatusCode")) {
                JsonNode v = j == null ? null : j.get(field);
                if (v != null && v.isNumber() && v.asLong() != 0) {
                    return "HTTP " + resp.statusCode() + " with " + field + " " + v.asLong() + ": " + scrub(hook, answer);
                }
            }
        }
        return null;
    }

    /** The POST body of a format: the event itself (json), or the robot's text message carrying its message. */
    static ObjectNode body(String format, ObjectNode event) {
        String message = text(event, "message");
        ObjectNode b = Json.MAPPER.createObjectNode();
        switch (format) {
            case "slack" -> b.put("text", message);
            case "wecom", "dingtalk" -> {
                b.put("msgtype", "text");
                b.putObject("text").put("content", message);
            }
            case "feishu" -> {
                b.put("msg_type", "text");
                b.putObject("content").put("text", message);
            }
            default -> {
                return event.deepCopy();
            }
        }
        return b;
    }

    private static byte[] hmac(String key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(data);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has HmacSHA256", e);
        }
    }

    /** A webhook's path and query (its token) and a signing secret never reach a message. */
    private static String scrub(Hook hook, String text) {
        String out = text;
        if (hook.webhook() != null) {
            String full = hook.webhook().toString();
            out = out.replace(full, hook.webhook().getScheme() + "://" + hook.webhook().getAuthority() + "/…");
            if (hook.webhook().getRawQuery() != null) {
                out = out.replace(hook.webhook().getRawQuery(), "…");
            }
        }
        if (hook.secret() != null && hook.secret().length() >= 4) {
            out = out.replace(hook.secret(), "***");
        }
        return out;
    }

    private static String text(ObjectNode event, String field) {
        JsonNode v = event.get(field);
        return v == null || v.isNull() ? "" : v.asText();
    }
}
