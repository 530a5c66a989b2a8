package io.keyline.sandbox;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small publishing site on loopback for the demo workspace, so that the demo's runs are real:
 * a cookie login, an endpoint that creates the article of a key (the effect, counted per key), a
 * list endpoint the jobs use as their probe, and faults that can be switched on per key or for the
 * next requests.
 *
 * <ul>
 *   <li>{@code GET /} a page with a login form; {@code POST /login} (form {@code user=NAME}) answers
 *   {@code Set-Cookie: session=…} with an expiry, and the same cookie as a {@code cookies.txt} line
 *   to paste into Keyline.</li>
 *   <li>{@code POST /api/articles} creates the article of the key named by the
 *   {@code Idempotency-Key: job:key:step} header.</li>
 *   <li>{@code GET /api/articles?date=K} answers {@code {"total": n}}: how many articles key K has.</li>
 * </ul>
 *
 * Every API request needs a live session cookie, else 401. Sessions and article counts can be kept
 * in a file, so that a sandbox started again later (by the console, or {@code keyline sandbox})
 * is the same site. The file holds the SHA-256 of each session id, never the id itself (the id is
 * the cookie Keyline stores encrypted), and is written 0600. Plain JDK {@code com.sun.net.httpserver};
 * it never listens beyond loopback.
 */
public final class SandboxSite implements AutoCloseable {

    /** Marks every answer, so that a client can tell the sandbox from another server on the port. */
    public static final String MARKER_HEADER = "X-Keyline-Sandbox";
    /** The session cookie's name. */
    public static final String COOKIE = "session";
    /** How long a login lasts. */
    public static final Duration SESSION_LIFETIME = Duration.ofDays(7);

    /** A switchable fault. Those named POST_* hit article creation, PROBE_* the list endpoint. */
    public enum Fault {
        /** Read the request, then never answer; nothing is created (the client times out). */
        POST_TIMEOUT_BEFORE_SAVING,
        /** Create the article, then never answer (the client times out after the effect). */
        POST_TIMEOUT_AFTER_SAVING,
        /** 503, nothing created. */
        POST_503,
        /** 422: the site refuses the article; nothing created. */
        POST_422,
        /** 503 on the probe. */
        PROBE_503,
        /** 401 on any API request, as if the login had expired. */
        ANY_401;

        boolean onPost() {
            return name().startsWith("POST_") || this == ANY_401;
        }

        boolean onProbe() {
            return name().startsWith("PROBE_") || this == ANY_401;
        }
    }

    /** A login session: the cookie's value and when it expires. */
    public record Session(String value, Instant expires, String host) {
        /** The cookie as one Netscape {@code cookies.txt} line (what Keyline's credentials accept). */
        public String cookiesTxtLine() {
            return host + "\tFALSE\t/\tFALSE\t" + expires.getEpochSecond() + "\t" + COOKIE + "\t" + value;
        }

        /** The cookie as a {@code Cookie:} header line. */
        public String headerLine() {
            return "Cookie: " + COOKIE + "=" + value;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    static {
        // The JDK server writes a response's headers and body in two segments; with Nagle's algorithm on, the
        // client's delayed ACK holds every keep-alive answer (the probes) for about 40 ms. Read once per JVM.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    private final HttpServer server;
    private final ExecutorService pool;
    private final Clock clock;
    private final Path worldFile;
    private final SecureRandom random = new SecureRandom();
    private final CountDownLatch closing = new CountDownLatch(1);
    /** Live sessions by the SHA-256 (hex) of their id. */
    private final Map<String, Instant> sessions = new HashMap<>();
    private final Map<String, Integer> articles = new TreeMap<>();
    private final Map<String, List<Fault>> keyFaults = new HashMap<>();
    private final AtomicInteger requests = new AtomicInteger();
    private volatile Duration hang = Duration.ofSeconds(60);

    private SandboxSite(int port, Clock clock, Path worldFile) throws IOException {
        this.clock = clock;
        this.worldFile = worldFile;
        load();
        AtomicInteger n = new AtomicInteger();
        pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "keyline-sandbox-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.setExecutor(pool);
        server.createContext("/", this::handle);
        server.start();
    }

    /**
     * Starts a sandbox on loopback.
     *
     * @param port      the port, or 0 for any free one
     * @param clock     the clock sessions expire by (the same clock Keyline runs on)
     * @param worldFile where sessions and articles are kept between starts, or {@code null} for memory only
     * @throws IOException if the port is taken or the world file is unreadable
     */
    public static SandboxSite start(int port, Clock clock, Path worldFile) throws IOException {
        return new SandboxSite(port, clock, worldFile);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String base() {
        return "http://" + host() + ":" + port();
    }

    private String host() {
        return server.getAddress().getAddress().getHostAddress();
    }

    /** Logs in without HTTP (what {@code POST /login} does): a new session that lasts {@link #SESSION_LIFETIME}. */
    public synchronized Session login() {
        byte[] b = new byte[18];
        random.nextBytes(b);
        String value = HexFormat.of().formatHex(b);
        Instant expires = clock.instant().plus(SESSION_LIFETIME).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        sessions.put(hash(value), expires);
        save();
        return new Session(value, expires, host());
    }

    /** Every current session ends (the site rotated its logins): requests with an old cookie get 401. */
    public synchronized void expireSessions() {
        sessions.clear();
        save();
    }

    /** The next request that concerns {@code key} and that the fault applies to suffers it (once). */
    public synchronized SandboxSite failKey(String key, Fault fault) {
        keyFaults.computeIfAbsent(key, k -> new ArrayList<>()).add(fault);
        return this;
    }

    /** Drops every pending fault. */
    public synchronized void clearFaults() {
        keyFaults.clear();
    }

    /** How long a request that times out is held before the connection is dropped (default 60 s, or until close). */
    public void hangFor(Duration d) {
        hang = d;
    }

    /** How many articles key {@code key} has (how many times its effect was applied). */
    public synchronized int effects(String key) {
        return articles.getOrDefault(key, 0);
    }

    /** Article counts by key. */
    public synchronized Map<String, Integer> allEffects() {
        return new TreeMap<>(articles);
    }

    /** API requests received. */
    public int requests() {
        return requests.get();
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        pool.shutdownNow();
        try {
            pool.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // --- HTTP

    private void handle(HttpExchange ex) throws IOException {
        try {
            byte[] body = ex.getRequestBody().readAllBytes();
            String path = ex.getRequestURI().getPath();
            String method = ex.getRequestMethod();
            if (path.equals("/") && method.equals("GET")) {
                home(ex);
            } else if (path.equals("/login") && method.equals("POST")) {
                loginPage(ex, new String(body, StandardCharsets.UTF_8));
            } else if (path.equals("/api/articles") && (method.equals("GET") || method.equals("POST"))) {
                requests.incrementAndGet();
                api(ex, method);
            } else {
                send(ex, 404, "application/json", "{\"error\":\"no such page: " + method + " " + path + "\"}", null);
            }
        } finally {
            ex.close();
        }
    }

    private void api(HttpExchange ex, String method) throws IOException {
        boolean post = method.equals("POST");
        String key = post ? keyOf(ex.getRequestHeaders().getFirst("Idempotency-Key"))
                : query(ex.getRequestURI().getRawQuery(), "date");
        if (key == null || key.isBlank()) {
            send(ex, 400, "application/json", post ? "{\"error\":\"Idempotency-Key job:key:step is required\"}"
                    : "{\"error\":\"?date=KEY is required\"}", null);
            return;
        }
        Fault fault = takeFault(key, post);
        if (fault == Fault.ANY_401 || !loggedIn(ex.getRequestHeaders().getFirst("Cookie"))) {
            send(ex, 401, "application/json", "{\"error\":\"login expired: log in again at " + base() + "/\"}", null);
            return;
        }
        if (!post) {
            if (fault == Fault.PROBE_503) {
                send(ex, 503, "application/json", "{\"error\":\"maintenance, try again shortly\"}", null);
                return;
            }
            send(ex, 200, "application/json", "{\"date\":\"" + key + "\",\"total\":" + effects(key) + "}", null);
            return;
        }
        if (fault != null) {
            switch (fault) {
                case POST_TIMEOUT_BEFORE_SAVING -> {
                    holdAndDrop();
                    return;
                }
                case POST_TIMEOUT_AFTER_SAVING -> {
                    create(key);
                    holdAndDrop();
                    return;
                }
                case POST_503 -> {
                    send(ex, 503, "application/json", "{\"error\":\"maintenance, try again shortly\"}", null);
                    return;
                }
                case POST_422 -> {
                    send(ex, 422, "application/json", "{\"error\":\"the editor locked " + key
                            + ": article refused\"}", null);
                    return;
                }
                default -> {
                    // probe faults do not concern a POST
                }
            }
        }
        int n = create(key);
        send(ex, 201, "application/json", "{\"key\":\"" + key + "\",\"id\":\"" + key + "-" + n + "\"}",
                Map.of("Location", "/api/articles/" + key));
    }

    private void home(HttpExchange ex) throws IOException {
        int total;
        synchronized (this) {
            total = articles.values().stream().mapToInt(Integer::intValue).sum();
        }
        String html = "<!doctype html><html><head><meta charset=\"utf-8\"><title>Keyline sandbox</title></head>"
                + "<body style=\"font-family:sans-serif;max-width:40em;margin:3em auto\">"
                + "<h1>Keyline sandbox site</h1><p>A pretend publishing site on your own machine for the Keyline "
                + "demo. It holds " + total + " article" + (total == 1 ? "" : "s") + ".</p>"
                + "<form method=\"post\" action=\"/login\"><input type=\"hidden\" name=\"user\" value=\"demo\">"
                + "<button type=\"submit\">Log in as demo</button></form>"
                + "<p>In Keyline's login window (Renew login… → Log in…) the session cookie is taken by "
                + "itself; in another browser, logging in shows a fresh cookie to paste into Keyline's credential "
                + "<code>sandbox-cookie</code>.</p></body></html>";
        send(ex, 200, "text/html; charset=utf-8", html, null);
    }

    private void loginPage(HttpExchange ex, String form) throws IOException {
        String user = query(form, "user");
        if (user == null || user.isBlank()) {
            send(ex, 400, "text/plain; charset=utf-8", "user is required (form field user=NAME)\n", null);
            return;
        }
        Session s = login();
        String cookie = COOKIE + "=" + s.value() + "; Path=/; HttpOnly; Expires="
                + DateTimeFormatter.RFC_1123_DATE_TIME.format(s.expires().atOffset(java.time.ZoneOffset.UTC));
        String accept = ex.getRequestHeaders().getFirst("Accept");
        if (accept != null && accept.contains("text/html")) {
            // a browser (Keyline's login window among them): the session is in the cookie; the lines to paste
            // stay folded, so that the page (and a screenshot of it) does not show the session id
            String html = "<!doctype html><html><head><meta charset=\"utf-8\"><title>Logged in - Keyline sandbox"
                    + "</title></head><body style=\"font-family:sans-serif;max-width:40em;margin:3em auto\">"
                    + "<h1>Logged in as " + html(user) + "</h1><p>Until " + s.expires() + ". In Keyline's login window "
                    + "the session cookie is captured now: press <b>Use these cookies</b>.</p>"
                    + "<details><summary>Show the cookie lines to paste into Keyline by hand</summary><pre>"
                    + s.cookiesTxtLine() + "\n" + s.headerLine() + "</pre></details></body></html>";
            send(ex, 200, "text/html; charset=utf-8", html, Map.of("Set-Cookie", cookie));
            return;
        }
        String text = "Logged in as " + user + " until " + s.expires() + ".\n"
                + "Paste one of these lines into Keyline (Credentials > sandbox-cookie > Renew,\n"
                + "or: keyline credentials set sandbox-cookie):\n\n"
                + s.cookiesTxtLine() + "\n" + s.headerLine() + "\n";
        send(ex, 200, "text/plain; charset=utf-8", text, Map.of("Set-Cookie", cookie));
    }

    private static String html(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private void holdAndDrop() {
        try {
            closing.await(hang.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // closing the exchange without a response drops the connection
    }

    private void send(HttpExchange ex, int status, String type, String body, Map<String, String> headers)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.getResponseHeaders().set(MARKER_HEADER, "1");
        if (headers != null) {
            headers.forEach((k, v) -> ex.getResponseHeaders().set(k, v));
        }
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    // --- the site's state

    private synchronized Fault takeFault(String key, boolean post) {
        List<Fault> own = keyFaults.get(key);
        if (own != null) {
            for (Iterator<Fault> it = own.iterator(); it.hasNext(); ) {
                Fault f = it.next();
                if (post ? f.onPost() : f.onProbe()) {
                    it.remove();
                    return f;
                }
            }
        }
        return null;
    }

    private synchronized boolean loggedIn(String cookieHeader) {
        if (cookieHeader == null) {
            return false;
        }
        Instant now = clock.instant();
        for (String part : cookieHeader.split(";")) {
            String p = part.trim();
            if (p.startsWith(COOKIE + "=")) {
                Instant until = sessions.get(hash(p.substring(COOKIE.length() + 1)));
                if (until != null && until.isAfter(now)) {
                    return true;
                }
            }
        }
        return false;
    }

    private synchronized int create(String key) {
        int n = articles.merge(key, 1, Integer::sum);
        save();
        return n;
    }

    /** SHA-256 of a session id, hex: what the world file keeps. */
    static String hash(String sessionId) {
        try {
            return HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(sessionId.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static String keyOf(String idempotencyKey) {
        if (idempotencyKey == null) {
            return null;
        }
        String[] parts = idempotencyKey.split(":");
        // job:key:step, or job:key:step:redoN for a step done again
        return parts.length == 3 || parts.length == 4 && parts[3].startsWith("redo") ? parts[1] : null;
    }

    private static String query(String query, String name) {
        if (query == null) {
            return null;
        }
        for (String p : query.split("&")) {
            int eq = p.indexOf('=');
            if (eq > 0 && p.substring(0, eq).equals(name)) {
                return URLDecoder.decode(p.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private synchronized void load() throws IOException {
        if (worldFile == null || !Files.exists(worldFile)) {
            return;
        }
        var root = JSON.readTree(worldFile.toFile());
        // a file written before ids were hashed holds the ids themselves: hashed here, rewritten on the next save
        root.path("sessions").fields().forEachRemaining(e -> sessions.put(
                e.getKey().matches("[0-9a-f]{64}") ? e.getKey() : hash(e.getKey()), Instant.parse(e.getValue().asText())));
        root.path("articles").fields().forEachRemaining(e -> articles.put(e.getKey(), e.getValue().asInt()));
    }

    private synchronized void save() {
        if (worldFile == null) {
            return;
        }
        ObjectNode root = JSON.createObjectNode();
        ObjectNode s = root.putObject("sessions");
        sessions.forEach((k, v) -> s.put(k, v.toString()));
        ObjectNode a = root.putObject("articles");
        new LinkedHashMap<>(articles).forEach(a::put);
        try {
            Files.createDirectories(worldFile.toAbsolutePath().getParent());
            Path tmp = worldFile.resolveSibling(worldFile.getFileName() + ".tmp");
            Files.deleteIfExists(tmp);
            if (Files.getFileStore(worldFile.toAbsolutePath().getParent())
                    .supportsFileAttributeView(java.nio.file.attribute.PosixFileAttributeView.class)) {
                Files.createFile(tmp, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
            }
            Files.write(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
            Files.move(tmp, worldFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot save the sandbox's state to " + worldFile, e);
        }
    }
}
