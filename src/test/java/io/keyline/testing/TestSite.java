package io.keyline.testing;

import io.keyline.testing.FaultServer.Reply;
import io.keyline.testing.FaultServer.Request;

import java.io.IOException;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A small publishing site on a {@link FaultServer}: {@code POST /api/articles} creates the
 * article of a key (the effect, counted per key), {@code GET /api/articles?date=K} answers
 * {@code {"total": n}} (the probe). Faults are queued per request; an optional cookie is demanded.
 */
public final class TestSite implements AutoCloseable {

    /** What the next request suffers. */
    public enum Fault {
        /** Read the request, never answer, do nothing. */
        HANG_BEFORE_ACTING,
        /** Create the article, then never answer (the client times out after the effect). */
        HANG_AFTER_ACTING,
        /** Read the request, then reset the connection; nothing is created. */
        RESET_AFTER_RECEIVE,
        /** 503 with {@code Retry-After}, nothing created. */
        STATUS_503,
        /** 502 (a proxy in front of the site), nothing created. */
        STATUS_502,
        /** Create the article, then answer 500. */
        STATUS_500_AFTER_ACTING,
        STATUS_401,
        STATUS_404,
        /** 422: the site read the request and refuses it ("title missing"), nothing created. */
        STATUS_422,
        /** 429 with {@code Retry-After}. */
        STATUS_429,
        /** The login expired the way many sites say it: {@code 302 Location: /login?next=…}, nothing created. */
        REDIRECT_TO_LOGIN,
        /** {@code 200 {"code": 40001, "msg": "invalid token"}}: an error dressed as success, nothing created. */
        STATUS_200_ERRCODE
    }

    private final FaultServer server;
    private final Map<String, AtomicInteger> effects = new ConcurrentHashMap<>();
    private final Queue<Fault> postFaults = new ConcurrentLinkedQueue<>();
    private final Queue<Fault> getFaults = new ConcurrentLinkedQueue<>();
    private volatile String requiredCookie;
    private volatile int retryAfterSeconds = 1;
    private volatile Consumer<Request> onPost = r -> { };
    private volatile long postDelayMillis;
    private volatile long getDelayMillis;

    public TestSite() throws IOException {
        server = new FaultServer(this::handle);
    }

    public FaultServer server() {
        return server;
    }

    public String base() {
        return server.base();
    }

    /** Queue faults for the next POSTs, in order. */
    public TestSite failPosts(Fault... faults) {
        postFaults.addAll(java.util.List.of(faults));
        return this;
    }

    /** Queue faults for the next GETs (probes), in order. */
    public TestSite failGets(Fault... faults) {
        getFaults.addAll(java.util.List.of(faults));
        return this;
    }

    /** Demand {@code Cookie: ...name=value...}; {@code null} lets everyone in. */
    public void requireCookie(String nameEqualsValue) {
        requiredCookie = nameEqualsValue;
    }

    public void retryAfterSeconds(int s) {
        retryAfterSeconds = s;
    }

    /** Called when a POST arrives, after its effect was applied (if any), before the answer. */
    public void onPost(Consumer<Request> hook) {
        onPost = hook;
    }

    /**
     * Makes two runs overlap: the first article waits (after it was created, before the answer)
     * until {@code gets} probe GETs reached the site (another process asking about another key),
     * at most 50 s: the other process may be a JVM that starts meanwhile on a busy machine, and the
     * callers' step timeout (PT60S) must outlast the wait.
     *
     * @return set once the other run was seen while the first article waited
     */
    public java.util.concurrent.atomic.AtomicBoolean holdFirstPostUntilGets(int gets) {
        java.util.concurrent.atomic.AtomicBoolean gated = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicBoolean overlapped = new java.util.concurrent.atomic.AtomicBoolean();
        onPost(r -> {
            if (!gated.compareAndSet(false, true)) {
                return;
            }
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(50);
            while (System.nanoTime() < deadline) {
                if (gets() >= gets) {
                    overlapped.set(true);
                    return;
                }
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        });
        return overlapped;
    }

    /** Wait this long after creating an article before answering (widens the crash window). */
    public void postDelayMillis(long ms) {
        postDelayMillis = ms;
    }

    /** Wait this long before answering a GET (a probe that takes its time). */
    public void getDelayMillis(long ms) {
        getDelayMillis = ms;
    }

    /** How many times the article of {@code key} was created. */
    public int effects(String key) {
        AtomicInteger n = effects.get(key);
        return n == null ? 0 : n.get();
    }

    public Map<String, Integer> allEffects() {
        Map<String, Integer> out = new java.util.TreeMap<>();
        effects.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    public long posts() {
        return server.count("POST", "/api/articles");
    }

    public long gets() {
        return server.count("GET", "/api/articles");
    }

    private Reply handle(Request r) {
        if (r.path().equals("/login") && r.method().equals("GET")) {
            return new Reply.Respond(200, Map.of("Content-Type", "text/html"),
                    "<html><form method=post action=/login>user <input name=user></form></html>");
        }
        if (!r.path().equals("/api/articles")) {
            return Reply.status(404, "{\"error\":\"no such path\"}");
        }
        if (!authorized(r)) {
            return Reply.status(401, "{\"error\":\"login expired\"}");
        }
        if (r.method().equals("GET")) {
            if (getDelayMillis > 0) {
                try {
                    Thread.sleep(getDelayMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            Fault f = getFaults.poll();
            if (f != null) {
                return faultOnly(f);
            }
            String key = r.queryParam("date");
            return Reply.json("{\"total\":" + effects(key) + "}");
        }
        if (!r.method().equals("POST")) {
            return Reply.status(405, "{}");
        }
        String idem = r.header("Idempotency-Key");
        String key = idem == null ? r.bodyText() : idem.split(":")[1];
        Fault f = postFaults.poll();
        if (f == Fault.HANG_AFTER_ACTING || f == Fault.STATUS_500_AFTER_ACTING) {
            act(key, r);
            return f == Fault.HANG_AFTER_ACTING ? new Reply.Hang() : Reply.status(500, "{\"error\":\"oops after saving\"}");
        }
        if (f != null) {
            return faultOnly(f);
        }
        int id = act(key, r);
        return new Reply.Respond(201, Map.of("Content-Type", "application/json", "Location", "/api/articles/" + id),
                "{\"id\":" + id + ",\"key\":\"" + key + "\"}");
    }

    private int act(String key, Request r) {
        int n = effects.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        onPost.accept(r);
        if (postDelayMillis > 0) {
            try {
                Thread.sleep(postDelayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return Math.abs(key.hashCode() % 100000) * 10 + n;
    }

    private Reply faultOnly(Fault f) {
        return switch (f) {
            case HANG_BEFORE_ACTING, HANG_AFTER_ACTING -> new Reply.Hang();
            case RESET_AFTER_RECEIVE -> new Reply.Reset();
            case STATUS_503 -> new Reply.Respond(503, Map.of("Retry-After", Integer.toString(retryAfterSeconds),
                    "Content-Type", "application/json"), "{\"error\":\"maintenance\"}");
            case STATUS_502 -> Reply.status(502, "{\"error\":\"maintenance\"}");
            case REDIRECT_TO_LOGIN -> new Reply.Respond(302, Map.of("Location", "/login?next=%2Fapi%2Farticles",
                    "Content-Type", "text/html"), "<a href=/login>log in</a>");
            case STATUS_200_ERRCODE -> Reply.json("{\"code\":40001,\"msg\":\"invalid token\"}");
            case STATUS_500_AFTER_ACTING -> Reply.status(500, "{\"error\":\"oops\"}");
            case STATUS_401 -> Reply.status(401, "{\"error\":\"login expired\"}");
            case STATUS_404 -> Reply.status(404, "{\"error\":\"no such site\"}");
            case STATUS_422 -> Reply.status(422, "{\"error\":\"title missing\"}");
            case STATUS_429 -> new Reply.Respond(429, Map.of("Retry-After", Integer.toString(retryAfterSeconds),
                    "Content-Type", "application/json"), "{\"error\":\"slow down\"}");
        };
    }

    private boolean authorized(Request r) {
        String need = requiredCookie;
        if (need == null) {
            return true;
        }
        String cookie = r.header("Cookie");
        if (cookie == null) {
            return false;
        }
        for (String part : cookie.split(";")) {
            if (part.trim().equals(need)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
