package io.keyline.core.notify;

import io.keyline.core.jobfile.Hook;
import io.keyline.core.jobfile.NotifyConfig;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyline.core.CredentialAlerts;
import io.keyline.core.CredentialInfo;
import io.keyline.core.CredentialProvider;
import io.keyline.core.CredentialStore;
import io.keyline.core.json.Json;
import io.keyline.core.LeaseOwner;
import io.keyline.core.RunReport;
import io.keyline.core.RunTrace;
import io.keyline.core.Sleeper;
import io.keyline.credentials.Redactor;
import io.keyline.domain.KeyEvent;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Being loud when nobody watches: an outbox over the append-only key events, so that the
 * engine needs no listener and every process that shares the state (a CLI run, the console, a worker)
 * can call {@link #dispatch}; whichever sees an event first queues it, and each event reaches each hook
 * once (the queue's unique key decides across processes).
 *
 * <ul>
 *   <li>{@code attention}: a key entered FAILED, NEEDS_CONFIRMATION or NEEDS_CREDENTIAL (its previous event
 *       had another state): once per key and state entered, not per attempt;</li>
 *   <li>{@code credential-expiry}: a credential expires within the warning window (or has expired): once per
 *       credential and expiry;</li>
 *   <li>{@code run}: a run left keys waiting for a person that it put there ({@link #runEnded}): once per run;</li>
 *   <li>{@code reminder}: keys that have waited a day or more, with their age and the action that resolves each:
 *       once a day for the same keys.</li>
 * </ul>
 * A hook that fails is retried with backoff (2 s, 10 s, 1 min, 5 min, 30 min, 2 h, 6 h; given up after
 * {@value #MAX_ATTEMPTS} attempts); every attempt is a {@code notify} line in the run log, and a failure is
 * also said on {@code warn} (the CLI's stderr). A notification never changes a key or an exit code, and
 * {@link #dispatch} starts no call after its budget (a call already started ends by its hook's timeout).
 */
public final class Notifier {

    public static final int MAX_ATTEMPTS = 8;
    /** Attention entries older than this when first seen are not announced (a state that had no hooks for a while). */
    public static final Duration MAX_AGE = Duration.ofHours(24);
    /** A key that has waited this long for a person is reminded of (then once more every such period). */
    public static final Duration REMIND_AFTER = Duration.ofDays(1);
    /** A reminder names at most this many keys (those that have waited longest). */
    static final int REMIND_LIMIT = 300;
    /** The cursor stays this far behind the newest event, so a transaction that commits late is still seen. */
    static final Duration LAG = Duration.ofMinutes(2);
    private static final Duration[] BACKOFF = {Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofMinutes(1),
        Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofHours(6)};
    private static final String HOST = host();

    private final Supplier<NotifyConfig> config;
    private final NotifyStore store;
    private final CredentialStore credentials;
    private final RunTrace trace;
    private final Clock clock;
    private final Sleeper sleeper;
    private final Consumer<String> warn;
    private final HookSender sender;
    private final Duration credentialWarn;
    private final String owner = LeaseOwner.forThisProcess();
    private String lastConfigProblem;

    /**
     * @param config         reads {@code notify.json} (again on every dispatch: edits apply at once)
     * @param store          the outbox
     * @param credentials    for expiry alerts and to redact every stored secret from events, or {@code null}
     * @param trace          the run log ({@code notify} lines)
     * @param warn           where failures are said (stderr of the CLI), never with a secret
     * @param workdir        where command hooks run (the jobs folder)
     * @param credentialWarn how long before expiry a credential is announced
     */
    public Notifier(Supplier<NotifyConfig> config, NotifyStore store, CredentialStore credentials, RunTrace trace,
                    Clock clock, Sleeper sleeper, Consumer<String> warn, Path workdir, Duration credentialWarn) {
        this.config = config;
        this.store = store;
        this.credentials = credentials;
        this.trace = trace;
        this.clock = clock;
        this.sleeper = sleeper;
        this.warn = warn;
        this.sender = new HookSender(workdir, clock);
        this.credentialWarn = credentialWarn;
    }

    /** The configuration, or {@code null} (said once on {@code warn}) when notify.json is invalid. */
    private NotifyConfig loadConfig() {
        NotifyConfig cfg = config.get();
        if (!cfg.valid()) {
            String problem = cfg.errors().stream().map(Object::toString).reduce((a, b) -> a + "\n  " + b).orElse("");
            if (!problem.equals(lastConfigProblem)) {
                warn.accept("notify.json is invalid; no notification is sent until it is fixed:\n  " + problem);
                lastConfigProblem = problem;
            }
            return null;
        }
        lastConfigProblem = null;
        return cfg;
    }

    /** Queues the {@code run} event of each run that put keys in an attention state. Never throws. */
    public void runEnded(List<RunReport> reports) {
        try {
            NotifyConfig cfg = loadConfig();
            if (cfg == null || cfg.hooksFor("run").isEmpty()) {
                return;
            }
            Instant now = clock.instant();
            for (RunReport r : reports) {
                boolean leftAttention = r.keys().stream()
                        .anyMatch(k -> k.state().needsAttention() && r.runId().equals(k.runId()));
                if (!leftAttention) {
                    continue;
                }
                String json = Json.write(Events.run(r, now, HOST));
                for (Hook h : cfg.hooksFor("run")) {
                    store.enqueue("run:" + r.runId(), h.id(), json, now);
                }
            }
        } catch (RuntimeException e) {
            warn.accept("notifications: " + e.getMessage());
        }
    }

    /**
     * Queues what is new (attention entries since the cursor, credential expiries) and delivers what is
     * due, for at most {@code budget}. Never throws: a failure is logged and said on {@code warn}.
     *
     * @return the number of notifications delivered
     */
    public int dispatch(Duration budget) {
        try {
            NotifyConfig cfg = loadConfig();
            if (cfg == null || cfg.hooks().isEmpty()) {
                return 0;
            }
            collect(cfg);
            return deliver(cfg, budget);
        } catch (RuntimeException e) {
            warn.accept("notifications: " + e.getMessage());
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    private void collect(NotifyConfig cfg) {
        Instant now = clock.instant();
        List<Hook> attentionHooks = cfg.hooksFor("attention");
        long cursor = store.cursor();
        UnaryOperator<String> redact = null;
        int limit = 500;
        List<KeyEvent> entries = store.attentionEntries(cursor, limit);
        int stale = 0;
        for (KeyEvent e : entries) {
            if (attentionHooks.isEmpty()) {
                break;
            }
            if (e.ts().isBefore(now.minus(MAX_AGE))) {
                stale++;
                continue;
            }
            if (redact == null) {
                redact = redactor();
            }
            String json = Json.write(Events.attention(e, HOST, redact));
            for (Hook h : attentionHooks) {
                store.enqueue("attention:" + e.id(), h.id(), json, now);
            }
        }
        if (stale > 0) {
            trace.other(now, "notify", Map.of("result", "passed-over", "event", "attention", "count", stale,
                    "message", stale + " attention event(s) older than " + MAX_AGE.toHours() + " h were not announced"));
        }
        long next = store.lastEventBefore(cursor, now.minus(LAG));
        if (entries.size() == limit) {
            next = Math.min(next, entries.get(entries.size() - 1).id());
        }
        if (next > cursor) {
            store.advanceCursor(next, now);
        }
        List<Hook> reminderHooks = cfg.hooksFor("reminder");
        if (!reminderHooks.isEmpty()) {
            remind(reminderHooks, now);
        }
        List<Hook> expiryHooks = cfg.hooksFor("credential-expiry");
        if (!expiryHooks.isEmpty() && credentials != null) {
            for (CredentialAlerts.Alert a : CredentialAlerts.of(credentials, now, credentialWarn)) {
                if (a.kind() != CredentialAlerts.Kind.EXPIRES_SOON && a.kind() != CredentialAlerts.Kind.EXPIRED) {
                    continue;
                }
                Instant expiry = credentials.info(a.name()).map(CredentialInfo::earliestExpiry).orElse(null);
                String json = Json.write(Events.credentialExpiry(a, expiry, now, HOST));
                for (Hook h : expiryHooks) {
                    store.enqueue("credential-expiry:" + a.name() + ":" + (expiry == null ? 0 : expiry.toEpochMilli()),
                            h.id(), json, now);
                }
            }
        }
    }

    /**
     * Queues a {@code reminder} of the keys that have waited {@link #REMIND_AFTER} or more: once a day for the
     * same keys, whichever process dispatches and however often. A reminder is queued when none was in the last
     * day, or when a key has joined those that were reminded of (one that was resolved meanwhile brings no new
     * reminder for the rest).
     */
    private void remind(List<Hook> hooks, Instant now) {
        List<NotifyStore.WaitingKey> due = store.waiting(REMIND_LIMIT).stream()
                .filter(w -> !w.since().isAfter(now.minus(REMIND_AFTER))).toList();
        if (due.isEmpty()) {
            return;
        }
        java.util.Set<String> set = new java.util.TreeSet<>();
        due.forEach(w -> set.add(w.job() + " " + w.key() + " " + w.state()));
        var last = store.latest("reminder:");
        if (last.isPresent() && last.get().queuedAt().isAfter(now.minus(REMIND_AFTER))
                && remindedOf(last.get().eventJson()).containsAll(set)) {
            return;
        }
        // the same keys on the same day of waiting make the same dedup key: processes that remind at once queue one
        long day = Duration.between(due.get(0).since(), now).toDays();
        String json = Json.write(Events.reminder(due, now, HOST));
        for (Hook h : hooks) {
            store.enqueue("reminder:" + sha256(String.join("\n", set)) + ":" + day, h.id(), json, now);
        }
    }

    /** The keys a queued reminder named, as {@code "job key STATE"}. */
    private static java.util.Set<String> remindedOf(String eventJson) {
        java.util.Set<String> out = new java.util.HashSet<>();
        try {
            for (com.fasterxml.jackson.databind.JsonNode w : Json.read(eventJson,
                    com.fasterxml.jackson.databind.JsonNode.class).path("waiting")) {
                out.add(w.path("job").asText() + " " + w.path("key").asText() + " " + w.path("state").asText());
            }
        } catch (RuntimeException e) {
            // unreadable: as if nobody was reminded
        }
        return out;
    }

    private static String sha256(String s) {
        try {
            byte[] h = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(h, 0, 12);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private int deliver(NotifyConfig cfg, Duration budget) throws InterruptedException {
        Map<String, Hook> hooks = new LinkedHashMap<>();
        cfg.hooks().forEach(h -> hooks.put(h.id(), h));
        Duration longest = cfg.hooks().stream().map(Hook::timeout).max(Duration::compareTo).orElse(Hook.DEFAULT_TIMEOUT);
        // attempts start only within the budget; one that started may take its hook's timeout
        Instant deadline = clock.instant().plus(budget);
        int sent = 0;
        while (true) {
            Instant now = clock.instant();
            if (!now.isBefore(deadline)) {
                return sent;
            }
            List<NotifyStore.Delivery> due = store.claimDue(now, owner, now.plus(longest).plusSeconds(60), 1);
            if (due.isEmpty()) {
                Instant next = store.nextDue();
                if (next == null || !next.isBefore(deadline)) {
                    return sent;
                }
                sleeper.sleep(Duration.between(now, next).plusMillis(1));
                continue;
            }
            for (NotifyStore.Delivery d : due) {
                Hook h = hooks.get(d.hook());
                if (h == null) {
                    store.failed(d.id(), d.attempts(), now, true, "the hook is no longer in notify.json", now);
                    continue;
                }
                sent += attempt(h, d) ? 1 : 0;
            }
        }
    }

    private boolean attempt(Hook h, NotifyStore.Delivery d) throws InterruptedException {
        ObjectNode event = (ObjectNode) Json.read(d.eventJson(), com.fasterxml.jackson.databind.JsonNode.class);
        String error = sender.send(h, event);
        Instant now = clock.instant();
        int attempts = d.attempts() + 1;
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("hook", h.label());
        line.put("event", event.path("event").asText());
        line.put("job", event.path("job").isNull() ? null : event.path("job").asText(null));
        line.put("key", event.path("key").isNull() ? null : event.path("key").asText(null));
        line.put("state", event.path("state").isNull() ? null : event.path("state").asText(null));
        line.put("attempt", attempts);
        if (error == null) {
            store.delivered(d.id(), now);
            line.put("result", "sent");
            log(now, line);
            return true;
        }
        boolean giveUp = attempts >= MAX_ATTEMPTS;
        Instant next = giveUp ? now : now.plus(BACKOFF[Math.min(attempts - 1, BACKOFF.length - 1)]);
        store.failed(d.id(), attempts, next, giveUp, error, now);
        line.put("result", giveUp ? "gave-up" : "failed");
        line.put("error", error);
        line.put("nextAttemptAt", giveUp ? null : next.toString());
        log(now, line);
        warn.accept("notification " + line.get("event") + (line.get("job") == null ? "" : " " + line.get("job"))
                + (line.get("key") == null ? "" : " " + line.get("key")) + " to " + h.label() + " failed (attempt "
                + attempts + "): " + error + (giveUp ? "; given up" : "; next attempt at " + next));
        return false;
    }

    private void log(Instant now, Map<String, Object> line) {
        try {
            trace.other(now, "notify", line);
        } catch (RuntimeException e) {
            warn.accept("notifications: cannot write the run log: " + e.getMessage());
        }
    }

    /**
     * Sends an event to hooks now, without the outbox (for {@code notify test} and {@code notify send}: they
     * work without the state).
     *
     * @param event   the event's name: hooks subscribed to it get it; {@code test} goes to every hook
     * @return per hook, {@code null} when it worked or why not
     */
    public static Map<Hook, String> sendNow(NotifyConfig cfg, String event, ObjectNode payload, Path workdir,
                                           Clock clock) throws InterruptedException {
        HookSender s = new HookSender(workdir, clock);
        Map<Hook, String> out = new LinkedHashMap<>();
        for (Hook h : event.equals("test") ? cfg.hooks() : cfg.hooksFor(event)) {
            out.put(h, s.send(h, payload));
        }
        return out;
    }

    /** This machine's name, put in every event. */
    public static String host() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            String env = System.getenv("HOSTNAME");
            return env != null ? env : "localhost";
        }
    }

    /** Masks every stored credential's secret (events were redacted when stored; this is the second net). */
    private UnaryOperator<String> redactor() {
        if (credentials == null) {
            return UnaryOperator.identity();
        }
        List<String> secrets = new ArrayList<>();
        for (CredentialInfo i : credentials.list()) {
            try {
                CredentialProvider.Lookup l = credentials.lookup(i.name());
                if (l.present()) {
                    secrets.addAll(l.material().secretStrings());
                }
            } catch (RuntimeException e) {
                // a credential that cannot be decrypted here cannot leak from here either
            }
        }
        Redactor r = Redactor.of(secrets);
        return r::redact;
    }
}
