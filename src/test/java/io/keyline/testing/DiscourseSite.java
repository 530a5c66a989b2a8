package io.keyline.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A forum on loopback shaped like Discourse, as its controllers answer a browser's session:
 * <ul>
 * <li>{@code GET /session/csrf} (an XHR, or {@code .json}) answers {@code {"csrf": "…"}}: a masked token of the
 * session in the {@code _forum_session} cookie, which it sets when the request has none. Asked as a plain page it
 * answers Discourse's empty page with {@code 200}, as {@code check_xhr} does. It answers without a login too.</li>
 * <li>{@code POST /session} logs in (form {@code login}, {@code password}, header {@code X-CSRF-Token}) and sets the
 * auth cookie {@code _t}; {@link #logIn()} does it as a browser would and answers the Cookie: line.</li>
 * <li>{@code POST /posts.json} ({@code title}, {@code raw}, {@code category}) checks the CSRF token first
 * ({@code 403}, body {@code ["BAD CSRF"]}), then the login ({@code 403} with {@code error_type} {@code not_logged_in}),
 * then the rate limit ({@code 429}, {@code Retry-After}, {@code error_type} {@code rate_limit},
 * {@code extras.wait_seconds}) or read-only mode ({@code 503}, {@code read_only}), then the title: one already used by
 * a listed topic is {@code 422 {"action":"create_post","errors":["Title has already been used"]}}. A new topic answers
 * {@code 200} with the first post's JSON ({@code id}, {@code topic_id}, {@code topic_slug}, {@code post_number}).
 * {@code external_id} is kept only for a request with an {@code Api-Key} header: a browser session's is dropped, as
 * Discourse permits it only to the API.</li>
 * <li>{@code GET /t/external_id/ID.json} and {@code GET /t/SLUG.json} answer {@code 301} to
 * {@code /t/SLUG/ID.json} for a topic the requester may see, else {@code 404} with {@code error_type}
 * {@code not_found}; {@code GET /t/SLUG/ID.json} answers the topic.</li>
 * <li>A request with an auth cookie the site does not know (an expired login) is answered as anonymous, with the
 * header {@code Discourse-Logged-Out: 1}: a topic of a category only members read is then a {@code 404}.</li>
 * </ul>
 * Switches: {@link #expireLogins()}, {@link #endSessionsAtNextPost()}, {@link #busy}, {@link #holdAfterStore()} (the
 * next new topic is stored, then its answer waits for {@link #release()}), {@link #holdBeforeStore()} (the next new topic waits before it is stored),
 * {@link #allowDuplicateTitles()} (Discourse's {@code allow_duplicate_topic_titles}), {@link #requireApproval()}
 * (new topics wait for a moderator). {@link #created(String)} counts
 * the topics stored under a title: 2 is a double post.
 */
public final class DiscourseSite implements AutoCloseable {

    public static final String SESSION = "_forum_session";
    public static final String TOKEN = "_t";
    /** A category anyone reads, and one only logged-in members read. */
    public static final int PUBLIC_CATEGORY = 5;
    public static final int MEMBERS_CATEGORY = 7;
    public static final String API_KEY = "d1sc0urse-api-key";

    /** One request as the site saw it. */
    public record Seen(String method, String path, String query, String cookie, String csrf, String body) {
    }

    record Topic(int id, int postId, String title, String slug, String externalId, int category) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final SecureRandom random = new SecureRandom();
    private final HttpServer server;
    /** session id ({@code _forum_session}) to its CSRF secret. */
    private final Map<String, byte[]> sessions = new ConcurrentHashMap<>();
    /** auth token ({@code _t}) to its user. */
    private final Map<String, String> tokens = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> created = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
    private final List<Topic> topics = Collections.synchronizedList(new ArrayList<>());
    private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
    private volatile int busyStatus;
    private volatile int busyTimes;
    private volatile String busyRetryAfter;
    private volatile boolean duplicateTitles;
    private volatile boolean approval;
    private volatile boolean expireAtPost;
    private volatile boolean endSessionsAtPost;
    private volatile int spacing;
    private volatile long lastTopicNanos;
    private final Map<String, AtomicInteger> queued = new ConcurrentHashMap<>();
    private volatile CountDownLatch holdAfter;
    private volatile CountDownLatch holdBefore;
    private final List<CountDownLatch> holds = Collections.synchronizedList(new ArrayList<>());
    private volatile CountDownLatch reached = new CountDownLatch(1);

    public DiscourseSite() throws IOException {
        server = Loopback.serve("discourse-site", this::handle);
    }

    public String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Where a person logs in. */
    public String loginUrl() {
        return base() + "/login";
    }

    /**
     * Logs in as the browser does ({@code GET /session/csrf}, then {@code POST /session}) and answers the cookies
     * the browser then holds, as a Cookie: line.
     */
    public String logIn() {
        String session = newSession();
        byte[] b = new byte[16];
        random.nextBytes(b);
        String token = HexFormat.of().formatHex(b);
        tokens.put(token, "keyline-bot");
        return "Cookie: " + TOKEN + "=" + token + "; " + SESSION + "=" + session;
    }

    /** Every login ends (the auth tokens were revoked or expired): {@code _t} stops working, sessions stay. */
    public void expireLogins() {
        tokens.clear();
    }

    /**
     * Discourse's {@code rate_limit_create_topic} (15 seconds by default): a new topic sooner than {@code seconds}
     * after the last one is answered 429, {@code Retry-After} the seconds left, as the site's clock reads them.
     */
    public DiscourseSite spaceTopics(int seconds) {
        spacing = seconds;
        return this;
    }

    /** The logins end as the next POST arrives: between the token and the post (its probe saw the login alive). */
    public DiscourseSite expireAtNextPost() {
        expireAtPost = true;
        return this;
    }

    /**
     * The sessions end as the next POST arrives (their secrets are gone, as after the session store dropped them):
     * the token the key holds is stale and the POST is {@code 403 ["BAD CSRF"]}, while the login {@code _t} still
     * works and the next {@code /session/csrf} opens a new session for it.
     */
    public DiscourseSite endSessionsAtNextPost() {
        endSessionsAtPost = true;
        return this;
    }

    /** The next {@code times} new topics are answered {@code status} (429 or 503) with {@code Retry-After}. */
    public DiscourseSite busy(int status, int times, String retryAfter) {
        busyStatus = status;
        busyRetryAfter = retryAfter;
        busyTimes = times;
        return this;
    }

    /** The site setting {@code allow_duplicate_topic_titles}: a title already used no longer stops a topic. */
    public DiscourseSite allowDuplicateTitles() {
        duplicateTitles = true;
        return this;
    }

    /**
     * New topics wait for a moderator (a category that requires approval, a new account): the POST answers
     * {@code 200 {"action":"enqueued","pending_post":{…},"pending_count":N,"success":true}}, and nothing is a topic
     * yet, so nothing finds it by its slug.
     */
    public DiscourseSite requireApproval() {
        approval = true;
        return this;
    }

    /** How many posts with this title wait in the review queue: 2 is a double post the moderator meets. */
    public int queued(String title) {
        AtomicInteger n = queued.get(title.toLowerCase(Locale.ROOT));
        return n == null ? 0 : n.get();
    }

    /** The next new topic is stored, then its answer waits until {@link #release()}. */
    public DiscourseSite holdAfterStore() {
        reached = new CountDownLatch(1);
        holdAfter = new CountDownLatch(1);
        holds.add(holdAfter);
        return this;
    }

    /** The next new topic waits, before it is stored, until {@link #release()}. */
    public DiscourseSite holdBeforeStore() {
        reached = new CountDownLatch(1);
        holdBefore = new CountDownLatch(1);
        holds.add(holdBefore);
        return this;
    }

    /** Waits until a held POST has reached its hold. */
    public boolean awaitHeld(long seconds) throws InterruptedException {
        return reached.await(seconds, TimeUnit.SECONDS);
    }

    /** Lets every held POST go on. */
    public void release() {
        synchronized (holds) {
            holds.forEach(CountDownLatch::countDown);
            holds.clear();
        }
        holdAfter = null;
        holdBefore = null;
    }

    /** A topic made by someone else (a person, another tool), as if posted through the forum. */
    public void postByHand(String title, String externalId, int category) {
        store(title, externalId, category);
    }

    /** How many topics were stored with this title: 2 is a double post. */
    public int created(String title) {
        AtomicInteger n = created.get(title.toLowerCase(Locale.ROOT));
        return n == null ? 0 : n.get();
    }

    /** How many new topics with this title reached the site's checks (stored or refused). */
    public int attempts(String title) {
        AtomicInteger n = attempts.get(title.toLowerCase(Locale.ROOT));
        return n == null ? 0 : n.get();
    }

    public List<Seen> requests() {
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    private String newSession() {
        byte[] id = new byte[16];
        random.nextBytes(id);
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        String s = HexFormat.of().formatHex(id);
        sessions.put(s, secret);
        return s;
    }

    /** Rails's masked authenticity token: a one-time pad and the secret XORed with it, Base64. */
    private String masked(byte[] secret) {
        byte[] pad = new byte[secret.length];
        random.nextBytes(pad);
        byte[] out = new byte[secret.length * 2];
        for (int i = 0; i < secret.length; i++) {
            out[i] = pad[i];
            out[secret.length + i] = (byte) (pad[i] ^ secret[i]);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(out);
    }

    private boolean validCsrf(String session, String token) {
        byte[] secret = session == null ? null : sessions.get(session);
        if (secret == null || token == null) {
            return false;
        }
        byte[] raw;
        try {
            raw = Base64.getUrlDecoder().decode(token);
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (raw.length != secret.length * 2) {
            return false;
        }
        for (int i = 0; i < secret.length; i++) {
            if ((byte) (raw[i] ^ raw[secret.length + i]) != secret[i]) {
                return false;
            }
        }
        return true;
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String path = ex.getRequestURI().getPath();
            String query = ex.getRequestURI().getRawQuery();
            String cookie = ex.getRequestHeaders().getFirst("Cookie");
            Seen req = new Seen(ex.getRequestMethod(), path, query, cookie,
                    ex.getRequestHeaders().getFirst("X-CSRF-Token"), body);
            seen.add(req);
            Map<String, String> headers = new LinkedHashMap<>();
            String token = cookieValue(cookie, TOKEN);
            String user = token == null ? null : tokens.get(token);
            boolean api = API_KEY.equals(ex.getRequestHeaders().getFirst("Api-Key"));
            if (api) {
                user = ex.getRequestHeaders().getFirst("Api-Username");
            } else if (token != null && user == null) {
                // DefaultCurrentUserProvider: an auth cookie that finds no token is BAD_TOKEN, answered anonymously
                headers.put("Discourse-Logged-Out", "1");
            }
            boolean xhr = "XMLHttpRequest".equals(ex.getRequestHeaders().getFirst("X-Requested-With"))
                    || path.endsWith(".json")
                    || String.valueOf(ex.getRequestHeaders().getFirst("Accept")).contains("application/json");
            Answer a;
            if (path.equals("/session/csrf") || path.equals("/session/csrf.json")) {
                a = csrf(cookie, xhr, headers);
            } else if (path.equals("/posts") || path.equals("/posts.json")) {
                if (req.method().equals("POST") && endSessionsAtPost) {
                    endSessionsAtPost = false;
                    sessions.clear();
                }
                if (req.method().equals("POST") && expireAtPost) {
                    expireAtPost = false;
                    expireLogins();
                    user = api ? user : null;
                    headers.put("Discourse-Logged-Out", "1");
                }
                a = req.method().equals("POST") ? createPost(req, user, api, headers) : notFound();
            } else if (path.startsWith("/t/")) {
                a = topic(path, user);
                if (a.status() == 301) {
                    headers.put("Location", a.body());
                    a = new Answer(301, "text/html; charset=utf-8",
                            "<html><body>You are being <a href=\"" + a.body() + "\">redirected</a>.</body></html>");
                }
            } else {
                a = notFound();
            }
            byte[] bytes = a.body().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", a.type());
            headers.forEach((k, v) -> ex.getResponseHeaders().add(k, v));
            ex.sendResponseHeaders(a.status(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream o = ex.getResponseBody()) {
                    o.write(bytes);
                }
            }
        }
    }

    record Answer(int status, String type, String body) {
        static Answer json(int status, Object node) {
            return new Answer(status, "application/json; charset=utf-8", node.toString());
        }
    }

    /** SessionController#csrf behind ApplicationController#check_xhr. */
    private Answer csrf(String cookie, boolean xhr, Map<String, String> headers) {
        if (!xhr) {
            // RenderEmpty: the default/empty template, 200
            return new Answer(200, "text/html; charset=utf-8", "<!DOCTYPE html>\n<html><body></body></html>");
        }
        String session = cookieValue(cookie, SESSION);
        if (session == null || !sessions.containsKey(session)) {
            session = newSession();
            headers.put("Set-Cookie", SESSION + "=" + session + "; path=/; HttpOnly; SameSite=Lax");
        }
        return Answer.json(200, JSON.createObjectNode().put("csrf", masked(sessions.get(session))));
    }

    /** PostsController#create: protect_from_forgery, ensure_logged_in, the rate limiter, then the topic's validations. */
    private Answer createPost(Seen req, String user, boolean api, Map<String, String> headers) throws IOException {
        if (!api && !validCsrf(cookieValue(req.cookie(), SESSION), req.csrf())) {
            // ApplicationController#handle_unverified_request
            return new Answer(403, "text/plain; charset=utf-8", "[\"BAD CSRF\"]");
        }
        if (user == null) {
            ObjectNode n = JSON.createObjectNode();
            n.putArray("errors").add("You need to be logged in to do that.");
            n.put("error_type", "not_logged_in");
            return Answer.json(403, n);
        }
        if (busyTimes > 0) {
            busyTimes--;
            ObjectNode n = JSON.createObjectNode();
            if (busyStatus == 429) {
                int wait = Integer.parseInt(busyRetryAfter);
                headers.put("Retry-After", busyRetryAfter);
                headers.put("Discourse-Rate-Limit-Error-Code", "create_topic");
                n.putArray("errors").add("You’ve performed this action too many times. Please wait " + wait
                        + " seconds before trying again.");
                n.put("error_type", "rate_limit");
                n.putObject("extras").put("wait_seconds", wait).put("time_left", wait + " seconds");
            } else {
                if (busyRetryAfter != null) {
                    headers.put("Retry-After", busyRetryAfter);
                }
                n.putArray("errors").add("Your site is in read only mode. Interactions are disabled.");
                n.put("error_type", "read_only");
            }
            return Answer.json(busyStatus, n);
        }
        long since = System.nanoTime() - lastTopicNanos;
        if (spacing > 0 && lastTopicNanos != 0 && since < TimeUnit.SECONDS.toNanos(spacing)) {
            long wait = Math.max(1, (TimeUnit.SECONDS.toNanos(spacing) - since + 999_999_999L) / 1_000_000_000L);
            headers.put("Retry-After", String.valueOf(wait));
            headers.put("Discourse-Rate-Limit-Error-Code", "create_topic");
            ObjectNode n = JSON.createObjectNode();
            n.putArray("errors").add("You’ve performed this action too many times. Please wait " + wait
                    + " seconds before trying again.");
            n.put("error_type", "rate_limit");
            n.putObject("extras").put("wait_seconds", wait).put("time_left", wait + " seconds");
            return Answer.json(429, n);
        }
        JsonNode post = req.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(req.body());
        String title = post.path("title").asText("");
        String externalId = api && post.hasNonNull("external_id") ? post.get("external_id").asText() : null;
        int category = post.path("category").asInt(PUBLIC_CATEGORY);
        attempts.computeIfAbsent(title.toLowerCase(Locale.ROOT), t -> new AtomicInteger()).incrementAndGet();
        CountDownLatch before = holdBefore;
        if (before != null) {
            holdBefore = null;
            reached.countDown();
            await(before);
        }
        List<String> errors = new ArrayList<>();
        synchronized (topics) {
            for (Topic t : topics) {
                if (!duplicateTitles && t.title().equalsIgnoreCase(title)) {
                    errors.add("Title has already been used");
                }
                if (externalId != null && externalId.equalsIgnoreCase(t.externalId())) {
                    errors.add("External has already been taken");
                }
            }
        }
        if (!errors.isEmpty()) {
            ObjectNode n = JSON.createObjectNode().put("action", "create_post");
            errors.forEach(n.putArray("errors")::add);
            return Answer.json(422, n);
        }
        if (approval) {
            // NewPostManager#enqueue: a reviewable, not a topic; backwards_compatible_json keeps the result's shape
            int n = queued.computeIfAbsent(title.toLowerCase(Locale.ROOT), x -> new AtomicInteger()).incrementAndGet();
            ObjectNode r = JSON.createObjectNode().put("action", "enqueued").put("success", true)
                    .put("pending_count", n);
            r.putObject("pending_post").put("id", 700 + n).put("raw", post.path("raw").asText(""));
            return Answer.json(200, r);
        }
        Topic t = store(title, externalId, category);
        CountDownLatch after = holdAfter;
        if (after != null) {
            holdAfter = null;
            reached.countDown();
            await(after);
        }
        ObjectNode n = JSON.createObjectNode().put("id", t.postId()).put("name", (String) null)
                .put("username", user).put("created_at", "2026-11-29T09:00:01.000Z").put("post_number", 1)
                .put("post_type", 1).put("topic_id", t.id()).put("topic_slug", t.slug())
                .put("topic_title", t.title()).put("raw", post.path("raw").asText(""))
                .put("cooked", "<p>" + post.path("raw").asText("") + "</p>");
        return Answer.json(200, n);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(120, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Topic store(String title, String externalId, int category) {
        lastTopicNanos = System.nanoTime();
        synchronized (topics) {
            int id = 40 + topics.size();
            Topic t = new Topic(id, 900 + topics.size(), title, slug(title), externalId, category);
            topics.add(t);
            created.computeIfAbsent(title.toLowerCase(Locale.ROOT), s -> new AtomicInteger()).incrementAndGet();
            return t;
        }
    }

    /** TopicsController#show_by_external_id, #show by slug and by id; redirect_to_correct_topic answers 301. */
    private Answer topic(String path, String user) {
        String rest = path.substring(3);
        boolean json = rest.endsWith(".json");
        if (json) {
            rest = rest.substring(0, rest.length() - 5);
        }
        Topic found = null;
        String[] parts = rest.split("/");
        synchronized (topics) {
            if (parts.length == 2 && parts[0].equals("external_id")) {
                for (Topic t : topics) {
                    if (t.externalId() != null && t.externalId().equalsIgnoreCase(parts[1])) {
                        found = t;
                    }
                }
                if (found != null && visible(found, user)) {
                    return new Answer(301, "", "/t/" + found.slug() + "/" + found.id() + (json ? ".json" : ""));
                }
                return notFound();
            }
            if (parts.length == 1) {
                for (Topic t : topics) {
                    if (t.slug().equals(parts[0])) {
                        found = t;
                        break;
                    }
                }
                if (found != null && visible(found, user)) {
                    return new Answer(301, "", "/t/" + found.slug() + "/" + found.id() + (json ? ".json" : ""));
                }
                return notFound();
            }
            if (parts.length == 2 && parts[1].matches("\\d+")) {
                for (Topic t : topics) {
                    if (t.id() == Integer.parseInt(parts[1])) {
                        found = t;
                    }
                }
            }
        }
        if (found == null || !visible(found, user)) {
            return notFound();
        }
        ObjectNode n = JSON.createObjectNode().put("id", found.id()).put("title", found.title())
                .put("fancy_title", found.title()).put("slug", found.slug()).put("posts_count", 1)
                .put("category_id", found.category());
        if (found.externalId() != null) {
            n.put("external_id", found.externalId());
        }
        return Answer.json(200, n);
    }

    private static boolean visible(Topic t, String user) {
        return t.category() != MEMBERS_CATEGORY || user != null;
    }

    private static Answer notFound() {
        ObjectNode n = JSON.createObjectNode();
        n.putArray("errors").add("The requested URL or resource could not be found.");
        n.put("error_type", "not_found");
        return Answer.json(404, n);
    }

    /** Slug.for with the ascii generator, for titles of ASCII letters, digits and punctuation. */
    static String slug(String title) {
        String s = title.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        return s.isEmpty() || s.matches("\\d+") ? "topic" : s;
    }

    private static String cookieValue(String header, String name) {
        if (header == null) {
            return null;
        }
        for (String part : header.replaceFirst("^Cookie:\\s*", "").split(";")) {
            String p = part.strip();
            if (p.startsWith(name + "=")) {
                return URLDecoder.decode(p.substring(name.length() + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    @Override
    public void close() {
        release();
        server.stop(0);
    }
}
