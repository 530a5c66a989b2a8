package io.keyline.core.jobfile;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * One hook of {@code notify.json}: a command or a webhook, and the events it is called for.
 *
 * @param index   1-based position in the file
 * @param name    optional name (for messages), or {@code null}
 * @param on      events: {@code attention}, {@code credential-expiry}, {@code run}, {@code reminder}
 * @param command program and arguments ({@code {job}}, {@code {key}}, {@code {state}} substituted, each
 *                argument stays one argument; the message only in the environment), or {@code null}
 * @param webhook URL the event is POSTed to, or {@code null}
 * @param format  webhook body: {@code json}, {@code slack}, {@code wecom}, {@code dingtalk}, {@code feishu};
 *                {@link #DESKTOP} for the built-in desktop notification (its command is {@code notify-send})
 * @param secret  signing secret of a dingtalk or feishu robot, or {@code null}
 * @param timeout how long one call may take
 */
public record Hook(int index, String name, Set<String> on, List<String> command, URI webhook, String format,
                   String secret, Duration timeout) {

    public static final List<String> EVENTS = List.of("attention", "credential-expiry", "run", "reminder");
    /** The format of the built-in desktop notification ({@code notify-send}): not one a file can choose. */
    public static final String DESKTOP = "desktop";
    public static final List<String> FORMATS = List.of("json", "slack", "wecom", "dingtalk", "feishu");
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    /**
     * A stable id of the hook for de-duplication: its position and a hash of what it calls (a hook
     * that was edited is a new hook).
     */
    public String id() {
        String what = command != null ? String.join("\u0000", command) : webhook + "\u0000" + format;
        try {
            byte[] h = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(what.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return index + ":" + java.util.HexFormat.of().formatHex(h, 0, 6);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** How messages name the hook, never with a webhook's user, path or query (they hold tokens): its host only. */
    public String label() {
        String host = webhook == null || webhook.getHost() == null ? "?" : webhook.getHost();
        if (DESKTOP.equals(format)) {
            return "desktop notification (" + command.get(0) + ")";
        }
        String what = command != null ? "command " + command.get(0)
                : "webhook " + webhook.getScheme() + "://" + (host.contains(":") && !host.startsWith("[") ? "[" + host + "]"
                : host) + (webhook.getPort() < 0 ? "" : ":" + webhook.getPort()) + "/… (" + format + ")";
        return "hook " + index + (name == null ? "" : " \"" + name + "\"") + " (" + what + ")";
    }
}
