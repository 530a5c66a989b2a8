package io.keyline.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A blog on loopback shaped like WordPress: a login ({@link #logIn()}) gives the auth cookie
 * ({@code wordpress_HASH}, sent to {@code /wp-admin}) and the logged-in cookie ({@code wordpress_logged_in_HASH},
 * sent everywhere); an admin page ({@code /wp-admin/post-new.php}) carries the REST nonce of the session in a
 * script ({@code var wpApiSettings = {"root":…,"nonce":"…"}}) and answers a lost login with {@code 302} to
 * {@code wp-login.php?redirect_to=…&reauth=1}; the REST API ({@code /wp-json/wp/v2/posts}) checks the
 * {@code X-WP-Nonce} header as WordPress's cookie authentication does: a nonce that is not the session's (an old
 * session's, or any nonce without a login) answers {@code 403 rest_cookie_invalid_nonce}, no nonce makes the request
 * anonymous ({@code 401 rest_cannot_create} for a new post, {@code 400 rest_invalid_param} for {@code status=any}).
 * A new post answers {@code 201} with its JSON; a slug that is taken gets {@code -2} appended, as WordPress does, and
 * the posts asked for under each slug are counted ({@link #posts(String)}: 2 is a double post). When told to, the
 * site answers the next new posts with a status and {@code Retry-After} ({@link #busy}). An admin page sets
 * {@code wp-settings-time-1} as WordPress does, so a stored login is refreshed by the site on every run.
 */
public final class WordPressSite implements AutoCloseable {

    public static final String HASH = "4430e80fe9fbe2d93c9631c7dc80223f";
    public static final String AUTH = "wordpress_" + HASH;
    public static final String LOGGED_IN = "wordpress_logged_in_" + HASH;

    /** One request as the site saw it. */
    public record Seen(String method, String path, String query, String cookie, String nonce, String body) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final SecureRandom random = new SecureRandom();
    private final HttpServer server;
    private final Map<String, String> sessions = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();
    private final List<String> slugs = Collections.synchronizedList(new ArrayList<>());
    private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger settingsTime = new AtomicInteger(1796600000);
    private volatile int busyStatus;
    private volatile int busyTimes;
    private volatile String busyRetryAfter;
    private volatile java.util.concurrent.CountDownLatch[] hold;

    public WordPressSite() throws IOException {
        server = Loopback.serve("wordpress-site", this::handle);
    }

    public String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Where a person logs in: the credential's login URL. */
    public String loginUrl() {
        return base() + "/wp-login.php";
    }

    /** Logs in as a browser would and answers the cookies it then sends to the admin page, as a Cookie: line. */
    public String logIn() {
        byte[] b = new byte[16];
        random.nextBytes(b);
        String token = HexFormat.of().formatHex(b);
        sessions.put(token, "admin");
        String value = URLEncoder.encode("admin|1796661893|" + token + "|" + sha256("mac" + token),
                StandardCharsets.UTF_8);
        return "Cookie: " + LOGGED_IN + "=" + value + "; " + AUTH + "=" + value
                + "; wordpress_test_cookie=WP%20Cookie%20check";
    }

    /** Ends every login (the sessions expired or were destroyed): their cookies and nonces stop working. */
    public void expireLogins() {
        sessions.clear();
    }

    /** The nonce of the session a {@link #logIn()} line opened. */
    public String nonce(String cookieLine) {
        return nonceOf(token(cookieValue(cookieLine, LOGGED_IN)));
    }

    /** The next {@code times} new posts are answered {@code status} with {@code Retry-After: retryAfter}. */
    public WordPressSite busy(int status, int times, String retryAfter) {
        busyStatus = status;
        busyRetryAfter = retryAfter;
        busyTimes = times;
        return this;
    }

    /**
     * The next new post that passes the nonce check waits before it is stored: {@code arrived} is counted down when
     * it arrives, and once {@code release} is counted down (at most 60 s) it is dropped unstored, as a request whose
     * client went away before WordPress saved it.
     */
    public WordPressSite holdNextPost(java.util.concurrent.CountDownLatch arrived,
                                      java.util.concurrent.CountDownLatch release) {
        hold = new java.util.concurrent.CountDownLatch[] {arrived, release};
        return this;
    }

    /** How many posts were made with this slug asked for: 2 is a double post. */
    public int posts(String slug) {
        AtomicInteger n = asked.get(slug);
        return n == null ? 0 : n.get();
    }

    public List<Seen> requests() {
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String query = ex.getRequestURI().getRawQuery();
            Seen req = new Seen(ex.getRequestMethod(), ex.getRequestURI().getPath(), query,
                    ex.getRequestHeaders().getFirst("Cookie"), ex.getRequestHeaders().getFirst("X-WP-Nonce"), body);
            seen.add(req);
            int status;
            String type = "application/json; charset=UTF-8";
            String out;
            Map<String, String> headers = new LinkedHashMap<>();
            if (req.path().startsWith("/wp-admin")) {
                String token = token(cookieValue(req.cookie(), AUTH));
                if (token == null) {
                    String here = base() + req.path() + (query == null ? "" : "?" + query);
                    headers.put("Location", loginUrl() + "?redirect_to=" + URLEncoder.encode(here,
                            StandardCharsets.UTF_8) + "&reauth=1");
                    status = 302;
                    out = "";
                } else {
                    status = 200;
                    type = "text/html; charset=UTF-8";
                    // wp_user_settings(): every admin page sets the time of the user's settings, not a login
                    headers.put("Set-Cookie", "wp-settings-time-1=" + settingsTime.incrementAndGet()
                            + "; expires=Sun, 05-Dec-2027 00:00:00 GMT; Max-Age=31536000; path=/");
                    out = "<html><head><script id=\"wp-api-request-js-extra\">\nvar wpApiSettings = {\"root\":\""
                            + base().replace("/", "\\/") + "\\/wp-json\\/\",\"nonce\":\"" + nonceOf(token)
                            + "\",\"versionString\":\"wp\\/v2\\/\"};\n</script></head><body class=\"wp-admin\">"
                            + "<input type=\"hidden\" id=\"_wpnonce\" name=\"_wpnonce\" value=\"0badc0ffee\" />"
                            + "</body></html>";
                }
            } else if (req.path().equals("/wp-json/wp/v2/posts")) {
                ObjectNode answer = JSON.createObjectNode();
                status = posts(req, answer, headers);
                out = answer.has("list") ? answer.get("list").toString() : answer.toString();
            } else {
                status = 404;
                out = "{\"code\":\"rest_no_route\"}";
            }
            byte[] bytes = out.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", type);
            headers.forEach((k, v) -> ex.getResponseHeaders().add(k, v));
            ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream o = ex.getResponseBody()) {
                    o.write(bytes);
                }
            }
        }
    }

    /** WordPress's rest_cookie_check_errors, then the posts controller. */
    private int posts(Seen req, ObjectNode answer, Map<String, String> headers) throws IOException {
        String token = token(cookieValue(req.cookie(), LOGGED_IN));
        boolean user = false;
        if (req.nonce() != null) {
            if (token == null || !req.nonce().equals(nonceOf(token))) {
                answer.put("code", "rest_cookie_invalid_nonce").put("message", "Cookie check failed")
                        .putObject("data").put("status", 403);
                return 403;
            }
            user = true;
        }
        if (req.method().equals("GET")) {
            String slug = param(req.query(), "slug");
            String status = param(req.query(), "status");
            if (status != null && !status.equals("publish") && !user) {
                answer.put("code", "rest_invalid_param").put("message", "Invalid parameter(s): status")
                        .putObject("data").put("status", 400);
                return 400;
            }
            var list = answer.putArray("list");
            synchronized (slugs) {
                for (int i = 0; i < slugs.size(); i++) {
                    if (slugs.get(i).equals(slug)) {
                        list.addObject().put("id", 100 + i).put("slug", slugs.get(i));
                    }
                }
            }
            return 200;
        }
        if (!user) {
            answer.put("code", "rest_cannot_create")
                    .put("message", "Sorry, you are not allowed to create posts as this user.")
                    .putObject("data").put("status", 401);
            return 401;
        }
        if (busyTimes > 0) {
            busyTimes--;
            headers.put("Retry-After", busyRetryAfter);
            answer.put("code", "busy").putObject("data").put("status", busyStatus);
            return busyStatus;
        }
        java.util.concurrent.CountDownLatch[] held = hold;
        if (held != null) {
            hold = null;
            held[0].countDown();
            try {
                held[1].await(60, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            answer.put("code", "dropped").putObject("data").put("status", 500);
            return 500;
        }
        JsonNode post = JSON.readTree(req.body());
        String want = post.path("slug").asText();
        asked.computeIfAbsent(want, s -> new AtomicInteger()).incrementAndGet();
        int id;
        String slug;
        synchronized (slugs) {
            slug = want;
            for (int n = 2; slugs.contains(slug); n++) {
                slug = want + "-" + n;
            }
            slugs.add(slug);
            id = 100 + slugs.size() - 1;
        }
        headers.put("Location", base() + "/wp-json/wp/v2/posts/" + id);
        answer.put("id", id).put("slug", slug).put("status", post.path("status").asText("draft"))
                .put("link", base() + "/" + slug + "/");
        return 201;
    }

    private String token(String cookie) {
        if (cookie == null) {
            return null;
        }
        String[] parts = URLDecoder.decode(cookie, StandardCharsets.UTF_8).split("\\|");
        return parts.length == 4 && sessions.containsKey(parts[2]) ? parts[2] : null;
    }

    private static String nonceOf(String token) {
        return token == null ? null : sha256("wp_rest|" + token).substring(0, 10);
    }

    private static String cookieValue(String header, String name) {
        if (header == null) {
            return null;
        }
        for (String part : header.replaceFirst("^Cookie:\\s*", "").split(";")) {
            String p = part.strip();
            if (p.startsWith(name + "=")) {
                return p.substring(name.length() + 1);
            }
        }
        return null;
    }

    private static String param(String query, String name) {
        if (query == null) {
            return null;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8).equals(name)) {
                return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
