package io.keyline.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyline.testing.FaultServer.Reply;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GitHub's REST API on loopback for one repository, {@value #OWNER}/{@value #REPO}, as it answers a personal access
 * token: {@code api.github.com} and {@code uploads.github.com} are two servers, as they are two hosts.
 * <ul>
 * <li>A token is sent as {@code Authorization: Bearer …} (or {@code token …}). One GitHub does not know, or one
 * revoked or expired, is {@code 401 {"message": "Bad credentials", …}}, whatever the endpoint.</li>
 * <li>Every answer to a token carries the primary rate limit: {@code x-ratelimit-limit}, {@code -remaining},
 * {@code -used}, {@code -resource} and {@code x-ratelimit-reset} in UTC epoch seconds. A spent limit is {@code 403}
 * (as often as {@code 429}) with {@code x-ratelimit-remaining: 0} and {@code "API rate limit exceeded for user ID …"},
 * no {@code Retry-After} ({@link #spendRateLimitAfter}). A secondary limit is {@code 403} with {@code retry-after}
 * (seconds) and {@code "You have exceeded a secondary rate limit"} ({@link #secondaryLimitAtNextCreate}).</li>
 * <li>A token that cannot see the repository (not given it, or a private repository) gets {@code 404 Not Found} for
 * it and everything in it, never {@code 403}: GitHub does not say a private repository exists
 * ({@link #tokenWithoutAccess()}). A token that sees it without the permission to write its contents gets
 * {@code 403 {"message": "Resource not accessible by personal access token"}} on a write
 * ({@link #readOnlyToken()}).</li>
 * <li>{@code POST /repos/o/r/releases} (JSON {@code tag_name}, {@code name}, {@code body}, …) answers {@code 201}
 * with the release and its {@code upload_url}; a release with that tag exists already:
 * {@code 422 {"message": "Validation Failed", "errors": [{"resource": "Release", "code": "already_exists",
 * "field": "tag_name"}]}}. A release's tag is unique; GitHub does not read {@code Idempotency-Key}.</li>
 * <li>{@code GET /repos/o/r/releases/tags/:tag} answers the release, or {@code 404 Not Found} (the same words as a
 * repository the token cannot see). {@code GET /repos/o/r/releases/:id/assets} lists its assets.</li>
 * <li>{@code POST https://uploads.github.com/repos/o/r/releases/:id/assets?name=N} takes the file as the raw body
 * with its {@code Content-Type}, and answers {@code 201} with the asset ({@code "state": "uploaded"}); a name the
 * release has: {@code 422} with {@code {"resource": "ReleaseAsset", "code": "already_exists", "field": "name"}}.</li>
 * </ul>
 * Answers are indented JSON, as GitHub's are. The server's time is the test's clock. Switches:
 * {@link #holdAfterCreate()} (the release is made, its answer waits for {@link #release()}), {@link #holdAfterUpload()},
 * {@link #resetAfterCreate()}, {@link #spendRateLimitAfter}, {@link #secondaryLimitAtNextCreate},
 * {@link #secondaryLimitWithoutRetryAfterAtNextCreate}, {@link #byHandBeforeNextCreate()},
 * {@link #revokeAll()}, {@link #createByHand(String)}. {@link #releases(String)} counts the releases made with a
 * tag, {@link #createRequests()} the requests to make one.
 */
public final class GitHubSite implements AutoCloseable {

    public static final String OWNER = "octo-org";
    public static final String REPO = "weekly";
    public static final long USER_ID = 583231;
    public static final int LIMIT = 5000;

    /** One request as a server saw it. */
    public record Seen(String host, String method, String path, String query, String authorization, String body) {
    }

    /** A release of the repository. */
    public record Release(long id, String tag, String name, String body, Instant createdAt, List<Asset> assets) {
    }

    /** An asset of a release. */
    public record Asset(long id, String name, String contentType, int size) {
    }

    private enum Access { FULL, READ, NONE }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DOCS = "https://docs.github.com/rest";
    private final SecureRandom random = new SecureRandom();
    private final FaultServer api;
    private final FaultServer uploads;
    private final Clock clock;
    private final AtomicLong ids = new AtomicLong(186_000_000);
    private final Map<String, Access> tokens = new ConcurrentHashMap<>();
    private final Set<String> revoked = ConcurrentHashMap.newKeySet();
    private final List<Release> releases = Collections.synchronizedList(new ArrayList<>());
    private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
    private volatile int used;
    private volatile Instant window;
    private volatile int spendAfter = -1;
    private volatile Instant spentUntil;
    private volatile Duration spendFor;
    private volatile long secondaryAtCreate = -1;
    private volatile Instant secondaryUntil;
    private volatile boolean secondaryRetryAfter = true;
    private volatile boolean byHandFirst;
    private volatile boolean resetAfter;
    private volatile CountDownLatch holdAfter;
    private volatile CountDownLatch holdUpload;
    private volatile CountDownLatch reached = new CountDownLatch(1);

    /** @param clock the server's time: the test's clock, which it moves */
    public GitHubSite(Clock clock) throws IOException {
        this.clock = clock;
        api = new FaultServer(r -> handle("api", r));
        uploads = new FaultServer(r -> handle("uploads", r));
    }

    /** Where {@code https://api.github.com} is. */
    public String apiBase() {
        return api.base();
    }

    /** Where {@code https://uploads.github.com} is. */
    public String uploadsBase() {
        return uploads.base();
    }

    /** A fine-grained token with "Contents: Read and write" on the repository, as Settings → Developer settings makes it. */
    public String newToken() {
        return token(Access.FULL);
    }

    /** A token with "Contents: Read-only": it reads the releases, and may not make one. */
    public String readOnlyToken() {
        return token(Access.READ);
    }

    /** A token not given the repository (a private one): GitHub answers 404 for it, as if it did not exist. */
    public String tokenWithoutAccess() {
        return token(Access.NONE);
    }

    private String token(Access access) {
        byte[] b = new byte[30];
        random.nextBytes(b);
        StringBuilder t = new StringBuilder("github_pat_");
        for (byte x : b) {
            t.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
        }
        tokens.put(t.toString(), access);
        return t.toString();
    }

    /** The user revoked the tokens, or they expired: GitHub answers 401 Bad credentials. */
    public void revokeAll() {
        revoked.addAll(tokens.keySet());
    }

    /** After {@code requests} more requests, the hour's 5,000 are spent until {@code d} from then (403, remaining 0). */
    public GitHubSite spendRateLimitAfter(int requests, Duration d) {
        spentUntil = null;
        spendAfter = requests;
        spendFor = d;
        return this;
    }

    /** The next request to make a release meets a secondary rate limit: 403 with {@code retry-after: seconds}. */
    public GitHubSite secondaryLimitAtNextCreate(long seconds) {
        secondaryAtCreate = seconds;
        secondaryRetryAfter = true;
        return this;
    }

    /**
     * The next request to make a release meets a secondary rate limit for {@code seconds}, answered 403 without a
     * {@code retry-after} (GitHub then asks to wait at least a minute).
     */
    public GitHubSite secondaryLimitWithoutRetryAfterAtNextCreate(long seconds) {
        secondaryAtCreate = seconds;
        secondaryRetryAfter = false;
        return this;
    }

    /** A person publishes the release on the web page just before the next request to make it arrives. */
    public GitHubSite byHandBeforeNextCreate() {
        byHandFirst = true;
        return this;
    }

    /** The next release is made, then its answer waits until {@link #release()}. */
    public GitHubSite holdAfterCreate() {
        reached = new CountDownLatch(1);
        holdAfter = new CountDownLatch(1);
        return this;
    }

    /** The next file is attached, then its answer waits until {@link #release()}. */
    public GitHubSite holdAfterUpload() {
        reached = new CountDownLatch(1);
        holdUpload = new CountDownLatch(1);
        return this;
    }

    /** The next release is made, then the connection is reset instead of answered. */
    public GitHubSite resetAfterCreate() {
        resetAfter = true;
        return this;
    }

    public boolean awaitHeld(long seconds) throws InterruptedException {
        return reached.await(seconds, TimeUnit.SECONDS);
    }

    public void release() {
        CountDownLatch a = holdAfter;
        holdAfter = null;
        if (a != null) {
            a.countDown();
        }
        CountDownLatch u = holdUpload;
        holdUpload = null;
        if (u != null) {
            u.countDown();
        }
    }

    /** A person makes the release on the web page (Releases → Draft a new release → Publish). */
    public Release createByHand(String tag) {
        return store(tag, "Made by hand", "Made by hand.");
    }

    /** The releases made with {@code tag}: more than 1 would be a double post (GitHub refuses it with 422). */
    public int releases(String tag) {
        synchronized (releases) {
            return (int) releases.stream().filter(r -> r.tag().equals(tag)).count();
        }
    }

    public Release releaseByTag(String tag) {
        synchronized (releases) {
            return releases.stream().filter(r -> r.tag().equals(tag)).findFirst().orElse(null);
        }
    }

    public List<Seen> requests() {
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    /** The requests that asked to make a release. */
    public long createRequests() {
        return requests().stream().filter(q -> q.method().equals("POST") && q.host().equals("api")
                && q.path().equals("/repos/" + OWNER + "/" + REPO + "/releases")).count();
    }

    /** The uploads of an asset. */
    public long uploadRequests() {
        return requests().stream().filter(q -> q.host().equals("uploads")).count();
    }

    /** Every token the site gave: none may be shown. */
    public List<String> tokens() {
        return List.copyOf(tokens.keySet());
    }

    private Reply handle(String host, FaultServer.Request req) {
        String auth = req.header("Authorization");
        seen.add(new Seen(host, req.method(), req.path(), req.query(), auth, req.bodyText()));
        String token = auth == null ? null : auth.startsWith("Bearer ") ? auth.substring(7).strip()
                : auth.startsWith("token ") ? auth.substring(6).strip() : "";
        if (token == null) {
            return error(401, json(), "Requires authentication", DOCS);
        }
        Access access = tokens.get(token);
        if (access == null || revoked.contains(token)) {
            return error(401, json(), "Bad credentials", DOCS);
        }
        Map<String, String> headers = json();
        Instant now = clock.instant();
        if (window == null || !now.isBefore(window)) {
            window = now.truncatedTo(ChronoUnit.SECONDS).plus(Duration.ofHours(1));
            used = 0;
        }
        if (spendAfter >= 0 && spendAfter-- == 0) {
            spentUntil = now.plus(spendFor);
        }
        Instant spent = spentUntil;
        if (spent != null && now.isBefore(spent)) {
            headers.put("x-ratelimit-limit", Integer.toString(LIMIT));
            headers.put("x-ratelimit-remaining", "0");
            headers.put("x-ratelimit-used", Integer.toString(LIMIT));
            headers.put("x-ratelimit-reset", Long.toString(spent.getEpochSecond()));
            headers.put("x-ratelimit-resource", "core");
            return error(403, headers, "API rate limit exceeded for user ID " + USER_ID + ". If you reach out to"
                    + " GitHub Support for help, please include the request ID 0400:1B2C:3D4E5F:6A7B8C:69334A1F and"
                    + " timestamp " + DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS))
                    + ".", DOCS + "/overview/rate-limits-for-the-rest-api");
        }
        used++;
        headers.put("x-ratelimit-limit", Integer.toString(LIMIT));
        headers.put("x-ratelimit-remaining", Integer.toString(LIMIT - used));
        headers.put("x-ratelimit-used", Integer.toString(used));
        headers.put("x-ratelimit-reset", Long.toString(window.getEpochSecond()));
        headers.put("x-ratelimit-resource", "core");
        headers.put("x-github-api-version-selected", "2022-11-28");
        String repo = "/repos/" + OWNER + "/" + REPO;
        if (!req.path().startsWith(repo + "/") && !req.path().equals(repo) || access == Access.NONE) {
            return error(404, headers, "Not Found", DOCS);
        }
        String rest = req.path().substring(repo.length());
        if (host.equals("uploads")) {
            Matcher m = Pattern.compile("/releases/(\\d+)/assets").matcher(rest);
            if (!req.method().equals("POST") || !m.matches()) {
                return error(404, headers, "Not Found", DOCS);
            }
            return upload(Long.parseLong(m.group(1)), req, access, headers);
        }
        Matcher byTag = Pattern.compile("/releases/tags/(.+)").matcher(rest);
        Matcher assets = Pattern.compile("/releases/(\\d+)/assets").matcher(rest);
        if (req.method().equals("GET") && rest.isEmpty()) {
            ObjectNode r = JSON.createObjectNode().put("id", 719_245_610).put("name", REPO)
                    .put("full_name", OWNER + "/" + REPO).put("private", true);
            r.putObject("permissions").put("admin", false).put("push", access == Access.FULL).put("pull", true);
            return respond(200, headers, r);
        }
        if (req.method().equals("GET") && byTag.matches()) {
            Release r = releaseByTag(java.net.URLDecoder.decode(byTag.group(1), StandardCharsets.UTF_8));
            return r == null ? error(404, headers, "Not Found",
                    "https://docs.github.com/rest/releases/releases#get-a-release-by-tag-name") : respond(200, headers,
                    render(r));
        }
        if (req.method().equals("GET") && assets.matches()) {
            Release r = byId(Long.parseLong(assets.group(1)));
            if (r == null) {
                return error(404, headers, "Not Found", DOCS);
            }
            ArrayNode out = JSON.createArrayNode();
            r.assets().forEach(a -> out.add(render(a)));
            return respond(200, headers, out);
        }
        if (req.method().equals("POST") && rest.equals("/releases")) {
            return create(req, access, headers);
        }
        return error(404, headers, "Not Found", DOCS);
    }

    private Reply create(FaultServer.Request req, Access access, Map<String, String> headers) {
        if (access != Access.FULL) {
            headers.put("x-accepted-github-permissions", "contents=write");
            return error(403, headers, "Resource not accessible by personal access token",
                    "https://docs.github.com/rest/releases/releases#create-a-release");
        }
        Instant now = clock.instant();
        if (secondaryAtCreate >= 0) {
            secondaryUntil = now.plusSeconds(secondaryAtCreate);
            secondaryAtCreate = -1;
        }
        Instant until = secondaryUntil;
        if (until != null && now.isBefore(until)) {
            if (secondaryRetryAfter) {
                headers.put("retry-after", Long.toString(Math.max(1, Duration.between(now, until).toSeconds())));
            }
            return error(403, headers, "You have exceeded a secondary rate limit. Please wait a few minutes before"
                    + " you try again. If you reach out to GitHub Support for help, please include the request ID"
                    + " 0400:1B2C:3D4E5F:6A7B8C:69334A20.", DOCS
                    + "/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits");
        }
        JsonNode body;
        try {
            body = JSON.readTree(req.bodyText());
        } catch (IOException e) {
            return error(400, headers, "Problems parsing JSON", DOCS);
        }
        String tag = body.path("tag_name").asText("");
        if (tag.isEmpty()) {
            return validation(headers, "Release", "missing_field", "tag_name");
        }
        Release r;
        synchronized (this) {
            if (byHandFirst) {
                byHandFirst = false;
                createByHand(tag);
            }
            if (releaseByTag(tag) != null) {
                return validation(headers, "Release", "already_exists", "tag_name");
            }
            r = store(tag, body.path("name").asText(tag), body.path("body").asText(""));
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
        headers.put("Location", api.base() + "/repos/" + OWNER + "/" + REPO + "/releases/" + r.id());
        return respond(201, headers, render(r));
    }

    private Reply upload(long releaseId, FaultServer.Request req, Access access, Map<String, String> headers) {
        if (access != Access.FULL) {
            return error(403, headers, "Resource not accessible by personal access token", DOCS);
        }
        Release r = byId(releaseId);
        if (r == null) {
            return error(404, headers, "Not Found", DOCS);
        }
        String name = req.queryParam("name");
        if (name == null || name.isEmpty()) {
            return validation(headers, "ReleaseAsset", "missing_field", "name");
        }
        Asset a;
        synchronized (this) {
            if (r.assets().stream().anyMatch(x -> x.name().equals(name))) {
                return validation(headers, "ReleaseAsset", "already_exists", "name");
            }
            a = new Asset(ids.incrementAndGet(), name, String.valueOf(req.header("Content-Type")),
                    req.body().length);
            r.assets().add(a);
        }
        CountDownLatch after = holdUpload;
        if (after != null) {
            reached.countDown();
            await(after);
        }
        return respond(201, headers, render(a));
    }

    private synchronized Release store(String tag, String name, String body) {
        Release r = new Release(ids.incrementAndGet(), tag, name, body, clock.instant(),
                Collections.synchronizedList(new ArrayList<>()));
        releases.add(r);
        return r;
    }

    private Release byId(long id) {
        synchronized (releases) {
            return releases.stream().filter(r -> r.id() == id).findFirst().orElse(null);
        }
    }

    private ObjectNode render(Release r) {
        String repo = api.base() + "/repos/" + OWNER + "/" + REPO;
        ObjectNode o = JSON.createObjectNode();
        o.put("url", repo + "/releases/" + r.id()).put("assets_url", repo + "/releases/" + r.id() + "/assets")
                .put("upload_url", uploads.base() + "/repos/" + OWNER + "/" + REPO + "/releases/" + r.id()
                        + "/assets{?name,label}")
                .put("html_url", "https://github.com/" + OWNER + "/" + REPO + "/releases/tag/" + r.tag())
                .put("id", r.id()).put("tag_name", r.tag()).put("target_commitish", "main").put("name", r.name())
                .put("draft", false).put("prerelease", false)
                .put("created_at", DateTimeFormatter.ISO_INSTANT.format(r.createdAt().truncatedTo(ChronoUnit.SECONDS)))
                .put("published_at", DateTimeFormatter.ISO_INSTANT.format(r.createdAt().truncatedTo(ChronoUnit.SECONDS)));
        o.putObject("author").put("login", "keyline-bot").put("id", USER_ID).put("type", "User");
        ArrayNode a = o.putArray("assets");
        synchronized (r.assets()) {
            r.assets().forEach(x -> a.add(render(x)));
        }
        o.put("body", r.body());
        return o;
    }

    private ObjectNode render(Asset a) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", a.id()).put("name", a.name()).putNull("label").put("content_type", a.contentType())
                .put("state", "uploaded").put("size", a.size()).put("download_count", 0)
                .put("browser_download_url", "https://github.com/" + OWNER + "/" + REPO + "/releases/download/"
                        + a.name());
        return o;
    }

    private static Map<String, String> json() {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Type", "application/json; charset=utf-8");
        h.put("X-GitHub-Media-Type", "github.v3; format=json");
        return h;
    }

    private static Reply respond(int status, Map<String, String> headers, JsonNode body) {
        try {
            // GitHub indents its answers: "name": "x", not "name":"x"
            return new Reply.Respond(status, headers, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(body)
                    .replace("\" : ", "\": "));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Reply error(int status, Map<String, String> headers, String message, String docs) {
        return respond(status, headers, JSON.createObjectNode().put("message", message).put("documentation_url", docs)
                .put("status", Integer.toString(status)));
    }

    private static Reply validation(Map<String, String> headers, String resource, String code, String field) {
        ObjectNode o = JSON.createObjectNode().put("message", "Validation Failed");
        o.putArray("errors").addObject().put("resource", resource).put("code", code).put("field", field);
        o.put("documentation_url", "https://docs.github.com/rest/releases/releases#create-a-release")
                .put("status", "422");
        return respond(422, headers, o);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(120, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws IOException {
        release();
        api.close();
        uploads.close();
    }
}
