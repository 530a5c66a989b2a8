package io.keyline.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyline.testing.FaultServer.Reply;
import io.keyline.testing.FaultServer.Request;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Dropbox's HTTP API on loopback, as its documentation describes it, on two servers as Dropbox has two hosts:
 * <ul>
 * <li>{@code api} ({@code api.dropboxapi.com}): the OAuth 2.0 token endpoint {@code POST /oauth2/token} with
 * {@code grant_type=refresh_token&refresh_token=…&client_id=…&client_secret=…} (form), answering
 * {@code {"access_token": "sl.…", "token_type": "bearer", "expires_in": 14400}}; a refresh token it does not know
 * (revoked) is {@code 400 {"error": "invalid_grant", "error_description": …}}, a wrong app key or secret
 * {@code 400 {"error": "invalid_client", …}}. With {@link #rotate(boolean)} it answers a new {@code refresh_token}
 * too and forgets the old one, as Microsoft's endpoint may. And the RPC endpoint {@code POST /2/files/get_metadata}
 * (JSON {@code {"path": …}}): {@code 200} with the file's metadata ({@code ".tag": "file"}), or
 * {@code 409 {"error_summary": "path/not_found/…", …}}.</li>
 * <li>{@code content} ({@code content.dropboxapi.com}): {@code POST /2/files/upload}, the arguments as JSON in the
 * {@code Dropbox-API-Arg} header ({@code path}, {@code mode: "add"}, {@code autorename: false}), the file as the body:
 * {@code 200} with the file's metadata; a path that holds a file is
 * {@code 409 {"error_summary": "path/conflict/file/…", …}}.</li>
 * </ul>
 * Every API request needs {@code Authorization: Bearer ACCESS_TOKEN}: a token past its 4 hours on the site's clock is
 * {@code 401 {"error_summary": "expired_access_token/…", "error": {".tag": "expired_access_token"}}}, an unknown one
 * {@code 401 … invalid_access_token}. {@link #uploads(String)} counts the uploads that stored a file at a path.
 */
public final class DropboxSite implements AutoCloseable {

    public static final String APP_KEY = "k3yl1n3appk3y";
    public static final Duration LIFE = Duration.ofHours(4);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final FaultServer api;
    private final FaultServer content;
    private final Clock clock;
    private final String appSecret;
    private final SecureRandom random = new SecureRandom();
    private final Set<String> refreshTokens = ConcurrentHashMap.newKeySet();
    private final Map<String, Instant> accessTokens = new ConcurrentHashMap<>();
    private final Map<String, byte[]> files = new ConcurrentHashMap<>();
    private final Map<String, Integer> uploads = new ConcurrentHashMap<>();
    private final List<Request> seen = java.util.Collections.synchronizedList(new ArrayList<>());
    private final List<String> issued = java.util.Collections.synchronizedList(new ArrayList<>());
    private volatile boolean rotate;
    private volatile boolean tokenDown;
    private volatile boolean echo;
    private volatile boolean loseNextUploadAnswer;
    private volatile CountDownLatch holdAfterToken;
    private volatile CountDownLatch heldReached = new CountDownLatch(1);
    private volatile boolean tokenAnswered;
    private volatile boolean suspended;

    public DropboxSite(Clock clock) throws IOException {
        this.clock = clock;
        this.appSecret = secret(12);
        api = new FaultServer(this::handleApi);
        content = new FaultServer(this::handleContent);
    }

    /** {@code https://api.dropboxapi.com} on loopback. */
    public String api() {
        return api.base();
    }

    /** {@code https://content.dropboxapi.com} on loopback. */
    public String content() {
        return content.base();
    }

    public String tokenUrl() {
        return api.base() + "/oauth2/token";
    }

    public String appSecret() {
        return appSecret;
    }

    /** A refresh token, as the authorization code flow with {@code token_access_type=offline} gives one. */
    public String newRefreshToken() {
        String t = secret(48);
        refreshTokens.add(t);
        issued.add(t);
        return t;
    }

    /** The user unlinked the app: every refresh token and access token stops working. */
    public void revokeAll() {
        refreshTokens.clear();
        accessTokens.clear();
    }

    /** Every access token is past its end now (as if 4 hours had gone by on Dropbox's side). */
    public void expireAccessTokens() {
        accessTokens.replaceAll((t, until) -> Instant.MIN);
    }

    /** The account is suspended: every API request is 401 {@code user_suspended}, whatever its token. */
    public void suspend() {
        suspended = true;
    }

    /** Each exchange answers a new refresh token and forgets the one it was given. */
    public void rotate(boolean on) {
        rotate = on;
    }

    /** The token endpoint answers 503 (the other endpoints work). */
    public void tokenDown(boolean on) {
        tokenDown = on;
    }

    /** A refused refresh token's error description names it (a hostile or careless endpoint; Dropbox's does not). */
    public void echo(boolean on) {
        echo = on;
    }

    /** The next upload is stored, and its answer lost (the connection reset). */
    public void loseNextUploadAnswer() {
        loseNextUploadAnswer = true;
    }

    /**
     * The API requests after the next token answer wait until {@link #release()}, then their connections are reset
     * (unanswered): {@link #awaitHeld} returns once the client sends with the token it was given.
     */
    public void holdAfterToken() {
        tokenAnswered = false;
        heldReached = new CountDownLatch(1);
        holdAfterToken = new CountDownLatch(1);
    }

    public boolean awaitHeld(int seconds) throws InterruptedException {
        return heldReached.await(seconds, TimeUnit.SECONDS);
    }

    public void release() {
        CountDownLatch h = holdAfterToken;
        holdAfterToken = null;
        if (h != null) {
            h.countDown();
        }
    }

    /** Every secret the site issued: refresh tokens, access tokens, and the app secret. */
    public List<String> secrets() {
        List<String> all = new ArrayList<>(issued);
        all.add(appSecret);
        return all;
    }

    public int uploads(String path) {
        return uploads.getOrDefault(path.toLowerCase(Locale.ROOT), 0);
    }

    public byte[] file(String path) {
        return files.get(path.toLowerCase(Locale.ROOT));
    }

    public List<Request> requests() {
        return List.copyOf(seen);
    }

    /** Requests to a path ({@code /oauth2/token}, {@code /2/files/upload}, {@code /2/files/get_metadata}). */
    public long count(String path) {
        return requests().stream().filter(r -> r.path().equals(path)).count();
    }

    /** Token answers that gave an access token. */
    public long tokensGiven() {
        return accessTokens.size();
    }

    private String secret(int bytes) {
        byte[] b = new byte[bytes];
        random.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    private Reply handleApi(Request q) {
        seen.add(q);
        if (q.path().equals("/oauth2/token")) {
            return token(q);
        }
        Reply refused = authorize(q);
        if (refused != null) {
            return refused;
        }
        if (q.method().equals("POST") && q.path().equals("/2/files/get_metadata")) {
            JsonNode arg = read(q.bodyText());
            String path = arg == null ? null : arg.path("path").asText(null);
            if (path == null) {
                return Reply.status(400, "Error in call to API function \"files/get_metadata\": request body: "
                        + "missing required field 'path'");
            }
            byte[] f = files.get(path.toLowerCase(Locale.ROOT));
            if (f == null) {
                return Reply.status(409, "{\"error_summary\": \"path/not_found/..\", \"error\": {\".tag\": \"path\", "
                        + "\"path\": {\".tag\": \"not_found\"}}}");
            }
            ObjectNode m = metadata(path, f);
            m.put(".tag", "file");
            return Reply.json(m.toString());
        }
        return Reply.status(404, "Unknown API function: \"" + q.path() + "\"");
    }

    private Reply handleContent(Request q) {
        seen.add(q);
        Reply refused = authorize(q);
        if (refused != null) {
            return refused;
        }
        if (!(q.method().equals("POST") && q.path().equals("/2/files/upload"))) {
            return Reply.status(404, "Unknown API function: \"" + q.path() + "\"");
        }
        JsonNode arg = read(q.header("Dropbox-API-Arg"));
        if (arg == null || !arg.path("path").isTextual()) {
            return Reply.status(400, "Error in call to API function \"files/upload\": HTTP header \"Dropbox-API-Arg\": "
                    + "could not decode input as JSON");
        }
        if (!"add".equals(arg.path("mode").asText("add")) || arg.path("autorename").asBoolean(false)) {
            return Reply.status(400, "this loopback Dropbox knows mode add without autorename only");
        }
        String path = arg.get("path").asText();
        String lower = path.toLowerCase(Locale.ROOT);
        synchronized (files) {
            if (files.containsKey(lower)) {
                return Reply.status(409, "{\"error_summary\": \"path/conflict/file/..\", \"error\": {\".tag\": "
                        + "\"path\", \"reason\": {\".tag\": \"conflict\", \"conflict\": {\".tag\": \"file\"}}, "
                        + "\"upload_session_id\": \"pid_upload_session:" + secret(9) + "\"}}");
            }
            files.put(lower, q.body());
            uploads.merge(lower, 1, Integer::sum);
        }
        if (loseNextUploadAnswer) {
            loseNextUploadAnswer = false;
            return new Reply.Reset();
        }
        return Reply.json(metadata(path, q.body()).toString());
    }

    /** The request's access token is one the site gave and it has not ended; else the 401 Dropbox answers. */
    private Reply authorize(Request q) {
        CountDownLatch hold = holdAfterToken;
        if (hold != null && tokenAnswered) {
            // the client read the token answer and acted on it: it sends with the access token
            heldReached.countDown();
            try {
                hold.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Reply.Reset();
        }
        if (suspended) {
            return Reply.status(401, "{\"error_summary\": \"user_suspended/..\", \"error\": {\".tag\": "
                    + "\"user_suspended\"}}");
        }
        String auth = q.header("Authorization");
        String token = auth != null && auth.startsWith("Bearer ") ? auth.substring("Bearer ".length()) : null;
        Instant until = token == null ? null : accessTokens.get(token);
        if (until == null) {
            return Reply.status(401, "{\"error_summary\": \"invalid_access_token/..\", \"error\": {\".tag\": "
                    + "\"invalid_access_token\"}}");
        }
        if (!clock.instant().isBefore(until)) {
            return Reply.status(401, "{\"error_summary\": \"expired_access_token/..\", \"error\": {\".tag\": "
                    + "\"expired_access_token\"}}");
        }
        return null;
    }

    private Reply token(Request q) {
        if (tokenDown) {
            return Reply.status(503, "{\"error\": \"temporarily_unavailable\"}");
        }
        if (!q.method().equals("POST")) {
            return Reply.status(405, "");
        }
        Map<String, String> form = form(q.bodyText());
        if (!"refresh_token".equals(form.get("grant_type"))) {
            return Reply.status(400, "{\"error\": \"unsupported_grant_type\"}");
        }
        if (!APP_KEY.equals(form.get("client_id")) || !appSecret.equals(form.get("client_secret"))) {
            return Reply.status(400, "{\"error\": \"invalid_client\", \"error_description\": "
                    + "\"Invalid client_id or client_secret\"}");
        }
        String refresh = form.get("refresh_token");
        if (refresh == null || !refreshTokens.contains(refresh)) {
            return Reply.status(400, "{\"error\": \"invalid_grant\", \"error_description\": \"refresh token is invalid "
                    + "or revoked" + (echo ? ": " + refresh + " (client secret " + appSecret + ")" : "") + "\"}");
        }
        String access = "sl." + secret(60);
        issued.add(access);
        accessTokens.put(access, clock.instant().plus(LIFE));
        ObjectNode answer = JSON.createObjectNode();
        answer.put("access_token", access);
        answer.put("token_type", "bearer");
        answer.put("expires_in", LIFE.toSeconds());
        if (rotate) {
            refreshTokens.remove(refresh);
            answer.put("refresh_token", newRefreshToken());
        }
        if (holdAfterToken != null) {
            tokenAnswered = true;
        }
        return Reply.json(answer.toString());
    }

    private static ObjectNode metadata(String path, byte[] body) {
        ObjectNode m = JSON.createObjectNode();
        m.put("name", path.substring(path.lastIndexOf('/') + 1));
        m.put("path_lower", path.toLowerCase(Locale.ROOT));
        m.put("path_display", path);
        m.put("id", "id:" + Integer.toHexString(path.toLowerCase(Locale.ROOT).hashCode()));
        m.put("size", body.length);
        m.put("is_downloadable", true);
        return m;
    }

    private static JsonNode read(String text) {
        if (text == null) {
            return null;
        }
        try {
            JsonNode n = JSON.readTree(text);
            return n != null && n.isObject() ? n : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static Map<String, String> form(String body) {
        Map<String, String> out = new HashMap<>();
        for (String p : body.split("&")) {
            int eq = p.indexOf('=');
            if (eq > 0) {
                out.put(URLDecoder.decode(p.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(p.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        release();
        api.close();
        content.close();
    }
}
