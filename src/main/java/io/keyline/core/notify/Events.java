package io.keyline.core.notify;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyline.core.CredentialAlerts;
import io.keyline.core.DecisionInputs;
import io.keyline.core.json.Json;
import io.keyline.core.RunReport;
import io.keyline.domain.Evidence;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;

import io.keyline.core.Waiting;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The notification events: one JSON object each, every text redacted and stripped of
 * control characters, with a one-line {@code message} for chat robots and desktop notifications and a
 * {@code hint} of the command that shows more.
 */
public final class Events {

    private Events() {
    }

    /** A key entered FAILED, NEEDS_CONFIRMATION or NEEDS_CREDENTIAL. */
    public static ObjectNode attention(KeyEvent e, String host, UnaryOperator<String> redact) {
        ObjectNode n = base("attention", e.ts(), host);
        n.put("job", e.job());
        n.put("key", e.key());
        n.put("state", e.state().name());
        n.put("waitReason", e.waitReason() == null ? null : e.waitReason().name());
        n.put("step", e.step());
        n.put("class", e.failureClass() == null ? null : e.failureClass().name());
        String reason = clean(redact.apply(e.message() == null ? "" : e.message()), 500);
        n.put("reason", reason);
        n.set("evidence", evidence(e.evidence(), redact));
        String hint = "keyline timeline " + e.job() + " " + e.key();
        n.put("hint", hint);
        n.put("message", "Keyline: " + e.job() + " " + e.key() + " " + e.state()
                + (e.step() == null ? "" : " at " + e.step()) + (reason.isEmpty() ? "" : ": " + clip(reason, 200))
                + " - " + hint);
        return n;
    }

    /** A credential expires soon or has expired. */
    public static ObjectNode credentialExpiry(CredentialAlerts.Alert a, Instant expiresAt, Instant now, String host) {
        ObjectNode n = base("credential-expiry", now, host);
        n.putNull("job");
        n.putNull("key");
        n.put("state", a.kind().name());
        n.put("credential", a.name());
        n.put("expiresAt", expiresAt == null ? null : expiresAt.toString());
        n.put("reason", clean(a.message(), 500));
        n.putNull("evidence");
        String hint = "keyline credentials set " + a.name();
        n.put("hint", hint);
        n.put("message", "Keyline: " + clean(a.message(), 300) + " - " + hint);
        return n;
    }

    /** The end of a run that left keys waiting for a person. */
    public static ObjectNode run(RunReport r, Instant now, String host) {
        ObjectNode n = base("run", now, host);
        n.put("job", r.job());
        n.putNull("key");
        n.putNull("state");
        n.put("runId", r.runId());
        n.put("exit", r.exitCode());
        ObjectNode counts = n.putObject("counts");
        for (KeyState s : KeyState.values()) {
            long c = r.count(s);
            if (c > 0) {
                counts.put(s.name(), c);
            }
        }
        var waiting = n.putArray("attention");
        int shown = 0;
        for (KeyRecord k : r.keys()) {
            if (k.state().needsAttention() && shown++ < 50) {
                waiting.addObject().put("key", k.key()).put("state", k.state().name());
            }
        }
        long attention = r.keys().stream().filter(k -> k.state().needsAttention()).count();
        String reason = attention + " key" + (attention == 1 ? "" : "s") + " of " + r.job() + " wait"
                + (attention == 1 ? "s" : "") + " for a person (exit " + r.exitCode() + ")";
        n.put("reason", reason);
        n.putNull("evidence");
        String hint = "keyline status " + r.job() + " --attention";
        n.put("hint", hint);
        n.put("message", "Keyline: run " + r.runId() + ": " + reason + " - " + hint);
        return n;
    }

    /**
     * Keys that keep waiting for a person: every one of them (the longest waiting first), how long it has
     * waited and the one action that resolves it.
     *
     * @param waiting the keys, longest waiting first
     */
    public static ObjectNode reminder(List<NotifyStore.WaitingKey> waiting, Instant now, String host) {
        ObjectNode n = base("reminder", now, host);
        n.putNull("job");
        n.putNull("key");
        n.putNull("state");
        var list = n.putArray("waiting");
        for (NotifyStore.WaitingKey w : waiting) {
            Duration age = Duration.between(w.since(), now);
            list.addObject().put("job", w.job()).put("key", w.key()).put("state", w.state().name())
                    .put("waitReason", w.why() == null ? null : w.why().name()).put("step", w.step()).put("since", w.since().toString()).put("waitingSeconds", age.toSeconds())
                    .put("waited", Waiting.text(age)).put("action", action(w));
        }
        NotifyStore.WaitingKey oldest = waiting.get(0);
        String reason = waiting.size() + (waiting.size() == 1 ? " key has" : " keys have")
                + " waited a day or more for a person";
        n.put("reason", reason);
        n.putNull("evidence");
        String hint = "keyline status --attention";
        n.put("hint", hint);
        n.put("message", "Keyline: " + reason + "; the oldest, " + oldest.job() + " " + oldest.key() + " "
                + oldest.state() + ", for " + Waiting.text(Duration.between(oldest.since(), now)) + ": "
                + action(oldest) + (waiting.size() == 1 ? "" : " (and " + (waiting.size() - 1) + " more)") + " - "
                + hint);
        return n;
    }

    /** The one command that resolves a waiting key: for a key held for its job's review, the job's review. */
    static String action(NotifyStore.WaitingKey w) {
        if (DecisionInputs.waitsForReview(w.state(), w.why())) {
            return "keyline plan " + w.job() + ", then keyline apply PLAN_ID (or keyline approve " + w.job() + ")";
        }
        return switch (w.state()) {
            case NEEDS_CONFIRMATION -> "keyline confirm " + w.job() + " " + w.key();
            case NEEDS_CREDENTIAL -> w.credential() != null ? "keyline credentials set " + w.credential()
                    : "keyline retry " + w.job() + " " + w.key();
            default -> "keyline retry " + w.job() + " " + w.key();
        };
    }

    /** A sample event for {@code keyline notify test}. */
    public static ObjectNode test(Instant now, String host) {
        ObjectNode n = base("test", now, host);
        n.put("job", "example-job");
        n.put("key", "2026-01-01");
        n.put("state", KeyState.FAILED.name());
        n.put("step", "publish");
        n.put("class", "FATAL");
        n.put("reason", "a sample event from 'keyline notify test': your hook works");
        n.putNull("evidence");
        n.put("hint", "keyline timeline example-job 2026-01-01");
        n.put("message", "Keyline: test notification from " + host + " - if you read this, the hook works");
        return n;
    }

    /** A custom event (e.g. from systemd's OnFailure=): {@code keyline notify send}. */
    public static ObjectNode custom(String event, String job, String message, Instant now, String host) {
        ObjectNode n = base(event, now, host);
        n.put("job", job);
        n.putNull("key");
        n.putNull("state");
        String m = clean(message, 500);
        n.put("reason", m);
        n.putNull("evidence");
        n.put("hint", "keyline status --attention");
        n.put("message", "Keyline: " + m);
        return n;
    }

    private static ObjectNode base(String event, Instant ts, String host) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("event", event);
        n.put("ts", ts.toString());
        n.put("host", host);
        return n;
    }

    private static ObjectNode evidence(Evidence ev, UnaryOperator<String> redact) {
        if (ev == null) {
            return null;
        }
        ObjectNode n = Json.MAPPER.createObjectNode();
        if (ev.request() != null) {
            n.put("request", clean(redact.apply(ev.request().method() + " " + ev.request().url()), 300));
        }
        if (ev.status() != null) {
            n.put("status", ev.status());
        }
        if (ev.responseBody() != null && !ev.responseBody().isBlank()) {
            n.put("response", clean(redact.apply(ev.responseBody()), 300));
        }
        if (ev.exitCode() != null) {
            n.put("exitCode", ev.exitCode());
        }
        if (ev.stderr() != null && !ev.stderr().isBlank()) {
            String s = redact.apply(ev.stderr().strip());
            n.put("stderr", clean(s.length() > 300 ? s.substring(s.length() - 300) : s, 300));
        }
        if (ev.detail() != null) {
            n.put("detail", clean(redact.apply(ev.detail()), 300));
        }
        return n;
    }

    /** Text from outside made safe for a chat line or a terminal: control characters become spaces, clipped. */
    public static String clean(String s, int max) {
        if (s == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder(Math.min(s.length(), max + 1));
        for (int i = 0; i < s.length() && sb.length() <= max; i++) {
            char c = s.charAt(i);
            boolean control = c < 0x20 || (c >= 0x7f && c < 0xa0) || c == '\u2028' || c == '\u2029'
                    || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069');
            sb.append(control ? ' ' : c);
        }
        String out = sb.toString().replaceAll(" {2,}", " ").strip();
        return clip(out, max);
    }

    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
