package io.keyline.core.notify;

import io.keyline.core.jobfile.Hook;
import io.keyline.core.jobfile.HookTemplate;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyline.core.json.Json;

import io.keyline.core.exec.BoundedExchange;
import io.keyline.core.exec.ProcessTree;
import io.keyline.core.exec.TailBuffer;
import io.keyline.credentials.Redactor;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Calls one hook with one event: a command gets the event on its standard input and its fields in
 * its environment ({@code KEYLINE_EVENT}, {@code KEYLINE_JOB}, {@code KEYLINE_KEY},
 * {@code KEYLINE_KEY_STATE}, {@code KEYLINE_MESSAGE}, and the same as {@code KEYLINE_NOTIFY_*});
 * {@code {job}}, {@code {key}} and {@code {state}} (validated values) may stand in its arguments,
 * the message (text from outside) never does. A webhook gets the event as a POST body in the hook's
 * format, every text from outside quoted as text for that format (never a mention or a link).
 *
 * <p>A call ends by the hook's timeout: a webhook's whole exchange, body included; a command and
 * everything it started get SIGTERM at the timeout and SIGKILL {@link #GRACE} later. What a call comes
 * to never carries the hook's own secrets (its URL's path and query, its signing secret): only the host.
 */
public final class HookSender {

    /** How long a command hook has after SIGTERM at its timeout before it (and what it started) gets SIGKILL. */
    public static final Duration GRACE = Duration.ofSeconds(2);
    /** The most of a webhook's answer that is read. */
    private static final int ANSWER_BYTES = 16 * 1024;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER).build();
    /** Path segments of webhook URLs that name the API, not the robot: not secret. */
    private static final Set<String> API_WORDS = Set.of("services", "hooks", "hook", "webhook", "webhooks", "api",
            "open-apis", "robot", "send", "cgi-bin", "incoming", "triggers", "workflows", "message", "messages", "bot");

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
        URI[] sent = new URI[1];
        String result;
        try {
            result = hook.command() != null ? command(hook, event) : webhook(hook, event, sent);
        } catch (IOException e) {
            result = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        }
        return result == null ? null : scrub(hook, sent[0], result);
    }

    private String command(Hook hook, ObjectNode event) throws InterruptedException {
        Map<String, String> values = new HashMap<>();
        for (String name : HookTemplate.NAMES) {
            values.put(name, text(event, name));
        }
        List<String> argv = Hook.DESKTOP.equals(hook.format()) ? desktop(hook, event)
                : hook.command().stream().map(a -> HookTemplate.render(a, values)).toList();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("KEYLINE_EVENT", text(event, "event"));
        env.put("KEYLINE_JOB", values.get("job"));
        env.put("KEYLINE_KEY", values.get("key"));
        env.put("KEYLINE_KEY_STATE", values.get("state"));
        env.put("KEYLINE_MESSAGE", values.get("message"));
        // the names hooks were given first
        env.put("KEYLINE_NOTIFY_EVENT", text(event, "event"));
        for (String name : HookTemplate.NAMES) {
            env.put("KEYLINE_NOTIFY_" + name.toUpperCase(Locale.ROOT), values.get(name));
        }
        ProcessTree child;
        try {
            child = ProcessTree.start(argv, workdir, env, ProcessTree.Stdin.PIPE);
        } catch (IOException e) {
            return "cannot start " + argv.get(0) + ": " + e.getMessage();
        }
        try (child) {
            child.open();
            TailBuffer stdout = new TailBuffer(child.stdout(), 1, "keyline-hook-stdout");
            TailBuffer stderr = new TailBuffer(child.stderr(), 8 * 1024, "keyline-hook-stderr");
            try (OutputStream in = child.stdin()) {
                in.write((Json.write(event) + "\n").getBytes(StandardCharsets.UTF_8));
            } catch (IOException ignored) {
                // the hook did not read its input: its exit code says whether it worked
            }
            boolean exited;
            try {
                exited = child.waitFor(hook.timeout());
            } catch (InterruptedException e) {
                child.end(Duration.ZERO);
                throw e;
            }
            if (!exited) {
                child.end(GRACE);
                return "timed out after " + hook.timeout().toSeconds() + " s (ended, with what it started)";
            }
            stdout.finish(1_000);
            stderr.finish(1_000);
            if (child.exitValue() == 0) {
                return null;
            }
            String tail = stderr.text().strip();
            tail = tail.length() > 300 ? "…" + tail.substring(tail.length() - 300) : tail;
            return "exit " + child.exitValue() + (tail.isEmpty() ? "" : ": " + Events.clean(tail, 300));
        }
    }

    private String webhook(Hook hook, ObjectNode event, URI[] sent) throws IOException, InterruptedException {
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
        sent[0] = uri;
        HttpRequest req = HttpRequest.newBuilder(uri).timeout(hook.timeout())
                .header("Content-Type", "application/json; charset=utf-8")
                .header("User-Agent", "Keyline")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body), StandardCharsets.UTF_8)).build();
        HttpResponse<byte[]> resp;
        try {
            resp = BoundedExchange.send(HTTP, req, hook.timeout(), ANSWER_BYTES);
        } catch (java.net.http.HttpTimeoutException e) {
            return "timed out after " + hook.timeout().toSeconds() + " s (" + e.getMessage() + ")";
        }
        String raw = new String(resp.body(), StandardCharsets.UTF_8);
        String answer = Events.clean(raw, 200);
        if (resp.statusCode() / 100 != 2) {
            return "HTTP " + resp.statusCode() + (answer.isEmpty() ? "" : ": " + answer);
        }
        // the robots of wecom, dingtalk and feishu answer 200 with an error code in the body
        if (List.of("wecom", "dingtalk", "feishu").contains(hook.format())) {
            JsonNode j;
            try {
                j = Json.MAPPER.readTree(raw);
            } catch (IOException e) {
                return "HTTP " + resp.statusCode() + " but the answer is not JSON: " + answer;
            }
            for (String field : List.of("errcode", "code", "StatusCode")) {
                JsonNode v = j == null ? null : j.get(field);
                if (v != null && v.isNumber() && v.asLong() != 0) {
                    return "HTTP " + resp.statusCode() + " with " + field + " " + v.asLong() + ": " + answer;
                }
            }
        }
        return null;
    }

    /**
     * The POST body of a format: the event itself ({@code json}), or the robot's message carrying the
     * event's one-line message as text: Slack's {@code text} with {@code &}, {@code <} and {@code >}
     * escaped (so {@code <!channel>}, {@code <@U…>} or {@code <https://…|label>} from a server stay
     * text) and link previews off; WeCom and DingTalk text messages (no markdown; DingTalk mentions
     * nobody); Feishu a rich-text post with one text element (a Feishu text message would read
     * {@code <at user_id="all">} as a mention).
     */
    static ObjectNode body(String format, ObjectNode event) {
        String message = text(event, "message");
        ObjectNode b = Json.MAPPER.createObjectNode();
        switch (format) {
            case "slack" -> {
                b.put("text", slackText(message));
                b.put("unfurl_links", false);
                b.put("unfurl_media", false);
            }
            case "wecom" -> {
                b.put("msgtype", "text");
                b.putObject("text").put("content", message);
            }
            case "dingtalk" -> {
                b.put("msgtype", "text");
                b.putObject("text").put("content", message);
                b.putObject("at").put("isAtAll", false);
            }
            case "feishu" -> {
                b.put("msg_type", "post");
                ObjectNode post = b.putObject("content").putObject("post").putObject("zh_cn");
                post.put("title", "Keyline");
                post.putArray("content").addArray().addObject().put("tag", "text").put("text", message);
            }
            default -> {
                return event.deepCopy();
            }
        }
        return b;
    }

    /**
     * The arguments of the built-in desktop notification: {@code notify-send --app-name=Keyline --urgency=U --
     * Keyline BODY}. The body is one argument (never read by a shell) and is the event's message, cleaned of
     * control characters, with the three characters a notification server reads as markup written as entities.
     * A person is waited for ({@code attention}, {@code reminder}): critical, which stays until dismissed.
     */
    static List<String> desktop(Hook hook, ObjectNode event) {
        String ev = text(event, "event");
        String urgency = ev.equals("attention") || ev.equals("reminder") ? "critical" : "normal";
        String body = Events.clean(text(event, "message"), 500);
        return List.of(hook.command().get(0), "--app-name=Keyline", "--urgency=" + urgency, "--", "Keyline",
                slackText(body));
    }

    /** Text for Slack: the three characters it reads as markup, as the entities it asks for. */
    static String slackText(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
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

    /**
     * A message about a call without the hook's own secrets: every URL of the hook (its webhook, as
     * configured and as sent with a signature; the URLs in a command hook's arguments) shown as its host
     * only, and their tokens masked wherever they appear (also encoded): userinfo, every query value, every
     * path segment that is not a common API word, and the signing secret.
     */
    static String scrub(Hook hook, URI sent, String text) {
        List<URI> urls = new ArrayList<>();
        if (hook.webhook() != null) {
            urls.add(hook.webhook());
        }
        if (sent != null) {
            urls.add(sent);
        }
        if (hook.command() != null) {
            for (String arg : hook.command()) {
                URI u = url(arg);
                if (u != null) {
                    urls.add(u);
                }
            }
        }
        String out = text;
        List<String> secrets = new ArrayList<>();
        for (URI u : urls) {
            String shown = u.getScheme() + "://" + hostPort(u) + "/…";
            out = out.replace(u.toString(), shown);
            secrets.addAll(tokens(u));
        }
        if (hook.secret() != null) {
            secrets.add(hook.secret());
        }
        return Redactor.of(secrets).redact(out);
    }

    /** How a hook's URL is named: its host (and port), never its user, path or query. */
    public static String hostPort(URI u) {
        String host = u.getHost() == null ? "?" : u.getHost();
        return (host.contains(":") ? "[" + host + "]" : host) + (u.getPort() < 0 ? "" : ":" + u.getPort());
    }

    /** The secret parts of a webhook URL: userinfo, query values, fragment, path segments that are not API words. */
    static List<String> tokens(URI u) {
        List<String> out = new ArrayList<>();
        addBoth(out, u.getRawUserInfo());
        addBoth(out, u.getRawFragment());
        if (u.getRawQuery() != null) {
            for (String pair : u.getRawQuery().split("&")) {
                int eq = pair.indexOf('=');
                addBoth(out, eq < 0 ? pair : pair.substring(eq + 1));
            }
        }
        if (u.getRawPath() != null) {
            for (String segment : u.getRawPath().split("/")) {
                boolean digit = segment.chars().anyMatch(Character::isDigit);
                if (!API_WORDS.contains(segment.toLowerCase(Locale.ROOT)) && (segment.length() >= 6
                        || segment.length() >= 4 && digit)) {
                    addBoth(out, segment);
                }
            }
        }
        return out;
    }

    private static void addBoth(List<String> out, String raw) {
        if (raw == null || raw.isEmpty()) {
            return;
        }
        out.add(raw);
        try {
            out.add(java.net.URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            // not a valid escape: the raw form is masked
        }
    }

    private static URI url(String arg) {
        String a = arg.strip();
        int start = a.indexOf("http://") >= 0 ? a.indexOf("http://") : a.indexOf("https://");
        if (start < 0) {
            return null;
        }
        try {
            URI u = new URI(a.substring(start).split("\\s", 2)[0]);
            return u.getHost() == null ? null : u;
        } catch (URISyntaxException e) {
            return null;
        }
    }

    private static String text(ObjectNode event, String field) {
        JsonNode v = event.get(field);
        return v == null || v.isNull() ? "" : v.asText();
    }
}
