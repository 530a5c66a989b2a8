package io.keyline.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyline.testing.FaultServer.Reply;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Mastodon server on loopback, one local account, shaped as its REST API answers an application's bearer token:
 * <ul>
 * <li>The token is Doorkeeper's: {@code Authorization: Bearer …}. One the server does not know, or one revoked (the
 * user removed the application, changed the password), is {@code 401} with
 * {@code WWW-Authenticate: Bearer realm="Doorkeeper", error="invalid_token", error_description="…"} and
 * {@code {"error": "The access token is invalid"}} ({@code "…was revoked"} for a revoked one), as
 * InvalidTokenResponse and Api::BaseController#doorkeeper_unauthorized_render_options say it.</li>
 * <li>{@code POST /api/v2/media} (multipart, {@code file} and {@code description}) answers the MediaAttachment:
 * {@code 200} when it was processed at once, {@code 202} with {@code "url": null} when it is processed later
 * ({@link #processing(int)}). {@code GET /api/v1/media/:id} answers {@code 206} until it is processed, then
 * {@code 200}; an attachment already attached to a status, or not the account's, is {@code 404}
 * {@code {"error": "Record not found"}} (MediaController#set_media_attachment).</li>
 * <li>{@code POST /api/v1/statuses} (JSON or a form: {@code status}, {@code media_ids[]}, {@code visibility}) runs
 * PostStatusService: with an {@code Idempotency-Key}, under a lock per account and key (a second request with the
 * same key while the first runs is {@code 503}, Mastodon::RaceConditionError), a key seen within the last hour
 * answers the status it made, {@code 200}, without making another; then the media are checked
 * ({@code 422 "Media … not found or already attached to another post"}, {@code 422 "Cannot attach files that have not
 * finished processing. Try again in a moment!"}), then the text ({@code 422 "Validation failed: Text character limit of
 * 500 exceeded"}), then the per-account rate limit ({@code 429 {"error": "Too many requests"}} with
 * {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining: 0} and {@code X-RateLimit-Reset} as an ISO-8601 time,
 * and no {@code Retry-After}). The key is kept for an hour ({@code setex 3600}) after the status is made.</li>
 * <li>{@code GET /api/v1/accounts/:id/statuses?tagged=T} answers the account's statuses that carry the hashtag
 * {@code T} (normalized as HashtagNormalizer does: lower case, characters other than letters, digits and {@code _}
 * dropped, so {@code daily2026-11-29} asks for {@code #daily20261129}), newest first; an account id the server does
 * not know is {@code 404}. {@code GET /api/v1/accounts/verify_credentials} answers the token's account.</li>
 * <li>Every authenticated answer carries {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining} and
 * {@code X-RateLimit-Reset} (RateLimitHeaders).</li>
 * </ul>
 * The server's time is the test's clock: the hour of an Idempotency-Key and the end of a rate limit pass when the
 * test moves it. Switches: {@link #processing(int)}, {@link #throttleStatusesFor(Duration)},
 * {@link #holdAfterPost()} (the status is made, then its answer waits for {@link #release()}),
 * {@link #holdBeforePost()} (the request waits, holding its key's lock, before the status is made),
 * {@link #resetAfterPost()}, {@link #loseNextPost()}, {@link #revokeAtNextPost()}, {@link #postByHand(String)},
 * {@link #deleteByHand(String)}. {@link #posted(String)} counts the statuses made with a hashtag: 2 is a double post.
 */
public final class MastodonSite implements AutoCloseable {

    public static final String ACCOUNT_ID = "109348834771298765";
    public static final String USERNAME = "keyline";
    /** StatusLengthValidator::MAX_CHARS. */
    public static final int MAX_CHARS = 500;
    /** PostStatusService: redis.setex(idempotency_key, 3_600, status.id). */
    public static final Duration IDEMPOTENCY_TTL = Duration.ofHours(1);

    /** One request as the server saw it. */
    public record Seen(String method, String path, String query, String authorization, String idempotencyKey,
                       String body) {
    }

    /** A media attachment: its file, and how many more times it answers "still processing". */
    public record Media(String id, String description, int bytes, int pollsLeft, String statusId) {
    }

    /** A status of the account. */
    public record Status(String id, String text, List<String> tags, List<String> mediaIds, String visibility,
                         Instant createdAt, String idempotencyKey) {
    }

    record Remembered(String statusId, Instant until) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Tag::HASHTAG_RE, near enough: a {@code #} after a space or the start, then word characters with a letter. */
    private static final Pattern HASHTAG = Pattern.compile("(?<=^|\\s)[#＃]([\\w·・\u200c]*\\p{L}[\\w·・\u200c]*)",
            Pattern.UNICODE_CHARACTER_CLASS);
    private final SecureRandom random = new SecureRandom();
    private final FaultServer server;
    private final Clock clock;
    private final AtomicLong ids = new AtomicLong(113_456_789_012_345_678L);
    private final Set<String> tokens = ConcurrentHashMap.newKeySet();
    private final Set<String> revoked = ConcurrentHashMap.newKeySet();
    private final Map<String, Media> media = new ConcurrentHashMap<>();
    private final List<Status> statuses = Collections.synchronizedList(new ArrayList<>());
    private final Set<String> deleted = ConcurrentHashMap.newKeySet();
    private final Map<String, Remembered> idempotency = new ConcurrentHashMap<>();
    private final Set<String> locks = ConcurrentHashMap.newKeySet();
    private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
    private volatile int processingPolls;
    private volatile Instant throttledUntil;
    private volatile int apiThrottleAfter = -1;
    private volatile Duration apiThrottleFor;
    private volatile Instant apiThrottledUntil;
    private volatile boolean resetAfter;
    private volatile boolean lose;
    private volatile boolean revokeAtPost;
    private volatile boolean finishOnResend;
    private volatile boolean finishAfterRefusing;
    private volatile CountDownLatch holdAfter;
    private volatile CountDownLatch holdBefore;
    private volatile CountDownLatch reached = new CountDownLatch(1);

    /** @param clock the server's time: the test's clock, which it moves */
    public MastodonSite(Clock clock) throws IOException {
        this.clock = clock;
        server = new FaultServer(this::handle);
    }

    public String base() {
        return server.base();
    }

    /**
     * Registers an application and authorizes it for the account (write:media, write:statuses, read:statuses), as
     * the settings page "Development → New application" does, and answers its access token.
     */
    public String newToken() {
        byte[] b = new byte[32];
        random.nextBytes(b);
        String t = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(b);
        tokens.add(t);
        return t;
    }

    /** The user revoked the application (Settings → Authorized apps), or changed the password: every token goes. */
    public void revokeAll() {
        revoked.addAll(tokens);
    }

    /** The tokens go as the next status arrives: after the upload went through. */
    public MastodonSite revokeAtNextPost() {
        revokeAtPost = true;
        return this;
    }

    /** The next upload is processed later: {@code polls} GETs of it answer 206 before one answers 200. */
    public MastodonSite processing(int polls) {
        processingPolls = polls;
        return this;
    }

    /** The account posted its limit: statuses are refused 429 until {@code d} from now passes on the clock. */
    public MastodonSite throttleStatusesFor(Duration d) {
        throttledUntil = clock.instant().plus(d);
        return this;
    }

    /**
     * After {@code requests} more requests with the token, the token has made its 300 requests of five minutes
     * (Rack::Attack's throttle_per_token_api): every request with it is refused 429 for {@code d}, with
     * {@code X-RateLimit-Reset} and no {@code Retry-After} (its throttled_responder).
     */
    public MastodonSite throttleApiAfter(int requests, Duration d) {
        apiThrottleFor = d;
        apiThrottleAfter = requests;
        return this;
    }

    /** The next status is made, then its answer waits until {@link #release()}. */
    public MastodonSite holdAfterPost() {
        reached = new CountDownLatch(1);
        holdAfter = new CountDownLatch(1);
        return this;
    }

    /**
     * The next status request waits, holding the lock of its Idempotency-Key, before anything is made (Mastodon still
     * resolving a mention on another server); {@link #release()} lets it go on.
     */
    public MastodonSite holdBeforePost() {
        reached = new CountDownLatch(1);
        holdBefore = new CountDownLatch(1);
        return this;
    }

    /** The next status is made, then the connection is reset instead of answered. */
    public MastodonSite resetAfterPost() {
        resetAfter = true;
        return this;
    }

    /** The next status request never reaches the server: a proxy holds it and never answers. Nothing is made. */
    public MastodonSite loseNextPost() {
        lose = true;
        return this;
    }

    /**
     * The request {@link #holdBeforePost()} holds goes on, and ends, as a second request with its Idempotency-Key
     * arrives, which then runs: the first request finished between the probe that found nothing and the resend.
     */
    public MastodonSite finishHeldPostWhenResent() {
        finishOnResend = true;
        return this;
    }

    /**
     * A second request with the Idempotency-Key of the request {@link #holdBeforePost()} holds is refused 503 (the lock
     * is taken), and then the held one goes on and ends.
     */
    public MastodonSite finishHeldPostAfterRefusingResend() {
        finishAfterRefusing = true;
        return this;
    }

    public boolean awaitHeld(long seconds) throws InterruptedException {
        return reached.await(seconds, TimeUnit.SECONDS);
    }

    public void release() {
        CountDownLatch a = holdAfter;
        CountDownLatch b = holdBefore;
        holdAfter = null;
        holdBefore = null;
        if (a != null) {
            a.countDown();
        }
        if (b != null) {
            b.countDown();
        }
    }

    /** A person posts a status in the web interface. */
    public Status postByHand(String text) {
        return store(text, List.of(), "public", null);
    }

    /** A person deletes a status (it is discarded: the API finds it no more). */
    public void deleteByHand(String statusId) {
        deleted.add(statusId);
    }

    /** The statuses that carry {@code tag} (as written, normalized), deleted ones included: 2 is a double post. */
    public int posted(String tag) {
        String t = normalize(tag);
        synchronized (statuses) {
            return (int) statuses.stream().filter(s -> s.tags().contains(t)).count();
        }
    }

    public List<Status> statuses() {
        synchronized (statuses) {
            return List.copyOf(statuses);
        }
    }

    public Media media(String id) {
        return media.get(id);
    }

    public int uploads() {
        return media.size();
    }

    public List<Seen> requests() {
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    public long statusRequests() {
        return requests().stream().filter(q -> q.method().equals("POST") && q.path().equals("/api/v1/statuses"))
                .count();
    }

    private Reply handle(FaultServer.Request req) {
        String auth = req.header("Authorization");
        seen.add(new Seen(req.method(), req.path(), req.query(), auth, req.header("Idempotency-Key"), req.bodyText()));
        String path = req.path();
        boolean post = req.method().equals("POST") && path.equals("/api/v1/statuses");
        if (post && lose) {
            lose = false;
            return new Reply.Hang();
        }
        if (post && revokeAtPost) {
            revokeAtPost = false;
            revokeAll();
        }
        String token = auth != null && auth.startsWith("Bearer ") ? auth.substring("Bearer ".length()).strip() : null;
        boolean known = token != null && tokens.contains(token);
        if (token != null && (!known || revoked.contains(token))) {
            // Doorkeeper: an invalid token is refused, whatever the endpoint
            return unauthorized(known ? "The access token was revoked" : "The access token is invalid");
        }
        if (known && apiThrottleAfter >= 0 && apiThrottleAfter-- == 0) {
            apiThrottledUntil = clock.instant().plus(apiThrottleFor);
        }
        Instant apiUntil = apiThrottledUntil;
        if (known && apiUntil != null && clock.instant().isBefore(apiUntil)) {
            Map<String, String> h = json();
            h.put("X-RateLimit-Limit", "300");
            h.put("X-RateLimit-Remaining", "0");
            h.put("X-RateLimit-Reset", iso6(apiUntil));
            return error(429, h, "Too many requests");
        }
        Map<String, String> headers = json();
        if (known) {
            rateLimitHeaders(headers, 300, 299, Duration.ofMinutes(5));
        }
        Matcher accountStatuses = Pattern.compile("/api/v1/accounts/([^/]+)/statuses").matcher(path);
        Matcher mediaPath = Pattern.compile("/api/v1/media/([^/]+)").matcher(path);
        if (req.method().equals("GET") && accountStatuses.matches()) {
            return accountStatuses(accountStatuses.group(1), req, headers);
        }
        if (req.method().equals("GET") && path.equals("/api/v1/accounts/verify_credentials")) {
            return known ? new Reply.Respond(200, headers, account().toString()) : unauthorized("The access token is invalid");
        }
        if (!known) {
            if (path.startsWith("/api/")) {
                // doorkeeper_authorize! without a token
                return unauthorized("The access token is invalid");
            }
            return new Reply.Respond(404, Map.of("Content-Type", "text/html"), "<html><body>Not Found</body></html>");
        }
        if (req.method().equals("POST") && path.equals("/api/v2/media")) {
            return upload(req, headers);
        }
        if (req.method().equals("GET") && mediaPath.matches()) {
            return showMedia(mediaPath.group(1), headers);
        }
        if (post) {
            return postStatus(req, headers);
        }
        return error(404, headers, "Record not found");
    }

    private static Map<String, String> json() {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Type", "application/json; charset=utf-8");
        h.put("Cache-Control", "no-cache, no-store, max-age=0, must-revalidate");
        return h;
    }

    private void rateLimitHeaders(Map<String, String> headers, int limit, int remaining, Duration period) {
        Instant now = clock.instant();
        long p = period.toSeconds();
        Instant reset = now.truncatedTo(ChronoUnit.SECONDS).plusSeconds(p - now.getEpochSecond() % p);
        headers.put("X-RateLimit-Limit", Integer.toString(limit));
        headers.put("X-RateLimit-Remaining", Integer.toString(remaining));
        headers.put("X-RateLimit-Reset", iso6(reset));
    }

    /** Time#iso8601(6): {@code 2026-11-29T09:05:00.000000Z}. */
    private static String iso6(Instant t) {
        return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
                .withZone(java.time.ZoneOffset.UTC).format(t);
    }

    private static Reply unauthorized(String description) {
        Map<String, String> h = json();
        h.put("WWW-Authenticate", "Bearer realm=\"Doorkeeper\", error=\"invalid_token\", error_description=\""
                + description + "\"");
        return new Reply.Respond(401, h, JSON.createObjectNode().put("error", description).toString());
    }

    private static Reply error(int status, Map<String, String> headers, String message) {
        return new Reply.Respond(status, headers, JSON.createObjectNode().put("error", message).toString());
    }

    private ObjectNode account() {
        ObjectNode a = JSON.createObjectNode();
        a.put("id", ACCOUNT_ID).put("username", USERNAME).put("acct", USERNAME).put("display_name", "Keyline")
                .put("locked", false).put("bot", true).put("url", base() + "/@" + USERNAME)
                .put("statuses_count", statuses().size());
        return a;
    }

    private Reply accountStatuses(String id, FaultServer.Request req, Map<String, String> headers) {
        if (!id.equals(ACCOUNT_ID)) {
            return error(404, headers, "Record not found");
        }
        String tagged = req.queryParam("tagged");
        String limitParam = req.queryParam("limit");
        int limit = 20;
        if (limitParam != null && limitParam.matches("\\d{1,4}")) {
            limit = Math.min(Integer.parseInt(limitParam), 40);
        }
        List<Status> found = new ArrayList<>(statuses());
        Collections.reverse(found);
        ArrayNode out = JSON.createArrayNode();
        for (Status s : found) {
            if (deleted.contains(s.id()) || (tagged != null && !s.tags().contains(normalize(tagged)))) {
                continue;
            }
            if (out.size() >= limit) {
                break;
            }
            out.add(render(s));
        }
        return new Reply.Respond(200, headers, out.toString());
    }

    private ObjectNode renderMedia(Media m) {
        boolean done = m.pollsLeft() <= 0;
        ObjectNode o = JSON.createObjectNode();
        o.put("id", m.id()).put("type", "image");
        if (done) {
            o.put("url", base() + "/system/media_attachments/files/" + m.id() + "/original/image.png");
        } else {
            o.putNull("url");
        }
        o.put("preview_url", base() + "/system/media_attachments/files/" + m.id() + "/small/image.png");
        o.putNull("remote_url").putNull("preview_remote_url").putNull("text_url");
        o.putObject("meta").putObject("original").put("width", 1).put("height", 1);
        o.put("description", m.description()).put("blurhash", "UFBWY:8_0Jxv4mx]t8t64.%M-:IUWGWAt6M}");
        return o;
    }

    private Reply upload(FaultServer.Request req, Map<String, String> headers) {
        Map<String, byte[]> parts = multipart(req);
        byte[] file = parts.get("file");
        if (file == null) {
            return error(422, headers, "Validation failed: File content type is invalid, File is invalid");
        }
        String id = Long.toString(ids.incrementAndGet());
        byte[] d = parts.get("description");
        Media m = new Media(id, d == null ? null : new String(d, StandardCharsets.UTF_8), file.length,
                processingPolls, null);
        processingPolls = 0;
        media.put(id, m);
        // Api::V2::MediaController#create: 202 while not processed
        return new Reply.Respond(m.pollsLeft() > 0 ? 202 : 200, headers, renderMedia(m).toString());
    }

    private Reply showMedia(String id, Map<String, String> headers) {
        Media m = media.get(id);
        if (m == null || m.statusId() != null) {
            return error(404, headers, "Record not found");
        }
        ObjectNode body = renderMedia(m);
        if (m.pollsLeft() > 0) {
            media.put(id, new Media(m.id(), m.description(), m.bytes(), m.pollsLeft() - 1, null));
            return new Reply.Respond(206, headers, body.toString());
        }
        return new Reply.Respond(200, headers, body.toString());
    }

    private Reply postStatus(FaultServer.Request req, Map<String, String> headers) {
        String text;
        List<String> mediaIds = new ArrayList<>();
        String visibility;
        String type = String.valueOf(req.header("Content-Type"));
        if (type.startsWith("application/json")) {
            JsonNode body;
            try {
                body = JSON.readTree(req.bodyText());
            } catch (IOException e) {
                return error(400, headers, "Error occurred while parsing request parameters");
            }
            text = body.path("status").isTextual() ? body.path("status").asText() : null;
            body.path("media_ids").forEach(n -> mediaIds.add(n.asText()));
            visibility = body.path("visibility").isTextual() ? body.path("visibility").asText() : "public";
        } else {
            Map<String, List<String>> form = form(req.bodyText());
            text = form.containsKey("status") ? form.get("status").get(0) : null;
            mediaIds.addAll(form.getOrDefault("media_ids[]", List.of()));
            visibility = form.containsKey("visibility") ? form.get("visibility").get(0) : "public";
        }
        String key = req.header("Idempotency-Key");
        if (key == null || key.isBlank()) {
            return create(text, mediaIds, visibility, null, headers);
        }
        // PostStatusService#with_idempotency: with_redis_lock, then the key's status, then the work, then setex
        String lock = ACCOUNT_ID + ":" + key;
        if (!locks.add(lock) && !(finishOnResend && firstEnds(lock))) {
            // with_redis_lock could not take the lock: Mastodon::RaceConditionError
            if (finishAfterRefusing) {
                finishAfterRefusing = false;
                finishHeld(lock);
            }
            return error(503, headers, "There was a temporary problem serving your request, please try again");
        }
        try {
            CountDownLatch before = holdBefore;
            if (before != null) {
                reached.countDown();
                await(before);
            }
            Remembered r = idempotency.get(lock);
            if (r != null && clock.instant().isBefore(r.until())) {
                Status s = status(r.statusId());
                if (s == null || deleted.contains(s.id())) {
                    // @account.statuses.find(id) of a discarded status
                    return error(404, headers, "Record not found");
                }
                return new Reply.Respond(200, headers, render(s).toString());
            }
            return create(text, mediaIds, visibility, key, headers);
        } finally {
            locks.remove(lock);
        }
    }

    private Reply create(String text, List<String> mediaIds, String visibility, String key,
                         Map<String, String> headers) {
        // validate_media!
        if (mediaIds.size() > 4) {
            return error(422, headers, "Cannot attach more than 4 files");
        }
        List<String> missing = new ArrayList<>();
        for (String id : mediaIds) {
            Media m = media.get(id);
            if (m == null || m.statusId() != null) {
                missing.add(id);
            }
        }
        if (!missing.isEmpty()) {
            return error(422, headers, "Media " + String.join(", ", missing) + " not found or already attached to"
                    + " another post");
        }
        if (mediaIds.stream().anyMatch(id -> media.get(id).pollsLeft() > 0)) {
            return error(422, headers, "Cannot attach files that have not finished processing. Try again in a moment!");
        }
        String t = text == null ? "" : text;
        if (t.isBlank() && mediaIds.isEmpty()) {
            return error(422, headers, "Validation failed: Text can't be blank");
        }
        if (t.codePointCount(0, t.length()) > MAX_CHARS) {
            return error(422, headers, "Validation failed: Text character limit of " + MAX_CHARS + " exceeded");
        }
        Instant until = throttledUntil;
        if (until != null && clock.instant().isBefore(until)) {
            // RateLimiter#record! raises Mastodon::RateLimitExceededError: no Retry-After, the reset as a time
            Map<String, String> h = json();
            h.put("X-RateLimit-Limit", "300");
            h.put("X-RateLimit-Remaining", "0");
            h.put("X-RateLimit-Reset", iso6(until));
            return error(429, h, "Too many requests");
        }
        Status s = store(t, mediaIds, visibility, key);
        if (key != null) {
            idempotency.put(ACCOUNT_ID + ":" + key, new Remembered(s.id(), clock.instant().plus(IDEMPOTENCY_TTL)));
        }
        CountDownLatch after = holdAfter;
        if (after != null) {
            reached.countDown();
            await(after);
        }
        if (resetAfter) {
            resetAfter = false;
            return new Reply.Reset();
        }
        return new Reply.Respond(200, headers, render(s).toString());
    }

    /** Lets the held request go on, waits until it gave up its lock, and takes it. */
    private boolean firstEnds(String lock) {
        finishOnResend = false;
        finishHeld(lock);
        return locks.add(lock);
    }

    /** Lets the held request go on and waits (10 s at most) until it has ended and given up its lock. */
    private void finishHeld(String lock) {
        CountDownLatch b = holdBefore;
        holdBefore = null;
        if (b != null) {
            b.countDown();
        }
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (locks.contains(lock) && System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(120, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized Status store(String text, List<String> mediaIds, String visibility, String key) {
        String id = Long.toString(ids.incrementAndGet());
        Set<String> tags = new LinkedHashSet<>();
        Matcher m = HASHTAG.matcher(text);
        while (m.find()) {
            tags.add(normalize(m.group(1)));
        }
        for (String mid : mediaIds) {
            Media was = media.get(mid);
            media.put(mid, new Media(was.id(), was.description(), was.bytes(), 0, id));
        }
        Status s = new Status(id, text, List.copyOf(tags), List.copyOf(mediaIds), visibility, clock.instant(), key);
        statuses.add(s);
        return s;
    }

    private Status status(String id) {
        synchronized (statuses) {
            return statuses.stream().filter(s -> s.id().equals(id)).findFirst().orElse(null);
        }
    }

    private ObjectNode render(Status s) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", s.id()).put("created_at", iso6(s.createdAt()).substring(0, 23) + "Z").putNull("in_reply_to_id")
                .put("sensitive", false).put("spoiler_text", "").put("visibility", s.visibility())
                .put("language", "en").put("uri", base() + "/users/" + USERNAME + "/statuses/" + s.id())
                .put("url", base() + "/@" + USERNAME + "/" + s.id()).put("replies_count", 0)
                .put("reblogs_count", 0).put("favourites_count", 0);
        String html = s.text().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        Matcher m = HASHTAG.matcher(html);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, Matcher.quoteReplacement("<a href=\"" + base() + "/tags/" + normalize(m.group(1))
                    + "\" class=\"mention hashtag\" rel=\"tag\">#<span>" + m.group(1) + "</span></a>"));
        }
        m.appendTail(sb);
        o.put("content", "<p>" + sb.toString().replace("\n", "<br />") + "</p>");
        o.set("account", account());
        ArrayNode att = o.putArray("media_attachments");
        for (String mid : s.mediaIds()) {
            att.add(renderMedia(media.get(mid)));
        }
        o.putArray("mentions");
        ArrayNode tags = o.putArray("tags");
        s.tags().forEach(t -> tags.addObject().put("name", t).put("url", base() + "/tags/" + t));
        o.putArray("emojis");
        o.putNull("card").putNull("poll");
        return o;
    }

    /** HashtagNormalizer: NFKC, lower case, then only letters, digits and the separators {@code _ · ・ ZWNJ} stay. */
    static String normalize(String tag) {
        String t = java.text.Normalizer.normalize(tag, java.text.Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        return t.replaceAll("[^\\p{IsAlphabetic}\\p{IsDigit}_·・\u200c]", "");
    }

    private static Map<String, List<String>> form(String body) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        if (body == null || body.isEmpty()) {
            return out;
        }
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
        }
        return out;
    }

    /** The parts of a {@code multipart/form-data} body, by name. */
    private static Map<String, byte[]> multipart(FaultServer.Request req) {
        Map<String, byte[]> parts = new LinkedHashMap<>();
        String type = String.valueOf(req.header("Content-Type"));
        Matcher b = Pattern.compile("boundary=\"?([^\";]+)\"?").matcher(type);
        if (!type.startsWith("multipart/form-data") || !b.find()) {
            return parts;
        }
        byte[] body = req.body();
        String latin = new String(body, StandardCharsets.ISO_8859_1);
        String delimiter = "--" + b.group(1);
        int at = latin.indexOf(delimiter);
        while (at >= 0) {
            int start = at + delimiter.length();
            if (latin.startsWith("--", start)) {
                break;
            }
            int headEnd = latin.indexOf("\r\n\r\n", start);
            int next = latin.indexOf("\r\n" + delimiter, headEnd < 0 ? start : headEnd);
            if (headEnd < 0 || next < 0) {
                break;
            }
            String head = latin.substring(start, headEnd);
            Matcher name = Pattern.compile("name=\"([^\"]*)\"").matcher(head);
            if (name.find()) {
                parts.put(name.group(1), Arrays.copyOfRange(body, headEnd + 4, next));
            }
            at = next + 2;
        }
        return parts;
    }

    /** Every token the server gave: none may be shown. */
    public List<String> tokens() {
        return List.copyOf(tokens);
    }

    @Override
    public void close() throws IOException {
        release();
        server.close();
    }
}
