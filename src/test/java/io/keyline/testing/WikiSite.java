package io.keyline.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A wiki on loopback that behaves like a browser-era web application (DokuWiki's URLs and forms): a login
 * form that sets a session cookie ({@code DokuWiki}) and a remember-me cookie ({@code DWremember}); pages
 * that carry a per-session CSRF token ({@code <input type="hidden" name="sectok" value="…">}); an edit page
 * ({@code ?do=edit}) that takes a 15-minute lock on the page; a form save ({@code POST do=save}) that answers
 * {@code 302} to the saved page, a {@code 200} preview with an error on a bad token, and the login form with
 * {@code 200} when logged out; a raw export ({@code ?do=export_raw}) for a probe; a JSON API with bearer
 * tokens ({@code /lib/exe/jsonrpc.php/core.savePage}). It re-issues the remember-me cookie on every request
 * of a logged-in user and, when told to, rotates it (the old value stops working). Saves are counted per page.
 * Every session id, remember-me value and API token it ever hands out is kept apart from the ones that log in
 * now ({@link #issued()}), so that a test can look for all of them, those the site has since ended too.
 */
public final class WikiSite implements AutoCloseable {

    public static final String USER = "alice";
    public static final String PASSWORD = "wonderland";
    /** What the login form carries: an authWhen can look for it. */
    public static final String LOGIN_FORM_MARK = "id=\"dw__login\"";
    static final Duration LOCK = Duration.ofMinutes(15);

    /** One request as the site saw it. */
    public record Seen(String method, String path, String query, String cookie, String authorization, String body) {
        public String param(String name) {
            return params(query).getOrDefault(name, List.of()).stream().findFirst().orElse(null);
        }

        public String form(String name) {
            return forms(name).stream().findFirst().orElse(null);
        }

        /** Every value of a form field, in the order sent. */
        public List<String> forms(String name) {
            return params(body).getOrDefault(name, List.of());
        }
    }

    private record Session(String user, String sectok) {
    }

    private record Lock(String user, Instant until) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final SecureRandom random = new SecureRandom();
    private final HttpServer server;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final Map<String, String> remembered = new ConcurrentHashMap<>();
    private final Map<String, String> apiTokens = new ConcurrentHashMap<>();
    private final Map<String, String> pages = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> saves = new ConcurrentHashMap<>();
    private final Map<String, Lock> locks = new ConcurrentHashMap<>();
    private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
    private final List<JsonNode> apiCalls = Collections.synchronizedList(new ArrayList<>());
    private final Set<String> issued = Collections.synchronizedSet(new LinkedHashSet<>());
    private volatile boolean publicRead = true;
    private volatile boolean rotateRemember;
    private volatile String hostileHeader;
    private volatile String rawExportBody;
    private volatile boolean redirectToLogin;
    private volatile boolean sessionsEndAfterEdit;
    private volatile boolean loginsEndAfterEdit;
    private final List<String> saveLog = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger editsOfExistingPages = new AtomicInteger();
    private volatile long saveHoldMillis;

    public WikiSite() throws IOException {
        server = Loopback.serve("wiki-site", this::handle);
    }

    public String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Where a person logs in: the credential's login URL. */
    public String loginUrl() {
        return base() + "/doku.php?do=login";
    }

    /** Whether pages and raw exports can be read without a login (default: yes, a public wiki). */
    public WikiSite publicRead(boolean yes) {
        publicRead = yes;
        return this;
    }

    /** Every request of a logged-in user gets a new remember-me value, and the old one stops working. */
    public WikiSite rotateRemember(boolean yes) {
        rotateRemember = yes;
        return this;
    }

    /**
     * A logged-out request for a page that needs a login is answered {@code 302} to
     * {@code /doku.php?id=PAGE&do=login} (else: the login form with {@code 200}).
     */
    public WikiSite redirectToLogin(boolean yes) {
        redirectToLogin = yes;
        return this;
    }

    /**
     * Right after an edit page is served, every session ends; remember-me cookies still log in, so a save opens a
     * new session, whose CSRF token is not the one of the edit page (the site restarted, say).
     */
    public WikiSite endSessionsAfterEdit(boolean yes) {
        sessionsEndAfterEdit = yes;
        return this;
    }

    /** Right after an edit page is served, every login ends (it expired between the token and the save). */
    public WikiSite endLoginsAfterEdit(boolean yes) {
        loginsEndAfterEdit = yes;
        return this;
    }

    /**
     * A save is applied at once and answered only after {@code millis}: a client killed in between never learns
     * that its page was saved (the outcome is unknown to it).
     */
    public WikiSite saveHold(long millis) {
        saveHoldMillis = millis;
        return this;
    }

    /** How many times the editor (which takes the page's edit lock) was opened for a page that already existed. */
    public int editsOfExistingPages() {
        return editsOfExistingPages.get();
    }

    /** The site's own log of saves: one line per page saved, in order ({@code PAGE}). */
    public List<String> saveLog() {
        synchronized (saveLog) {
            return List.copyOf(saveLog);
        }
    }

    /**
     * Every session id, remember-me value and API token the site ever handed out, in order: those that log in
     * now and those it has ended since (a rotated remember-me value, a session the site forgot). The CSRF tokens
     * are not among them: they are in the pages the site serves.
     */
    public List<String> issued() {
        synchronized (issued) {
            return List.copyOf(issued);
        }
    }

    /** Every answer carries {@code X-Served-By: value} (a hostile header for conditions to read). */
    public WikiSite hostileHeader(String value) {
        hostileHeader = value;
        return this;
    }

    /** The raw export answers this body (as JSON) instead of the page's text. */
    public WikiSite rawExportBody(String json) {
        rawExportBody = json;
        return this;
    }

    /**
     * Logs {@link #USER} in as a person does in a browser (the login form, "remember me" ticked).
     *
     * @return the cookies the browser holds afterwards, as a {@code Cookie:} line to store as a credential
     */
    public String logIn() {
        String sid = newSession(USER);
        String token = issue(token());
        remembered.put(token, USER);
        return "Cookie: DokuWiki=" + sid + "; DWremember=" + token;
    }

    /** A remember-me cookie alone (the session ended): the site opens a new session from it. */
    public String rememberOnly() {
        String token = issue(token());
        remembered.put(token, USER);
        return "Cookie: DWremember=" + token;
    }

    /** The site accepts this session id from now on (as if its owner had logged in with it). */
    public void adoptSession(String sid) {
        sessions.put(sid, new Session(USER, token().substring(0, 16)));
    }

    /** The CSRF token of the session in a {@code Cookie:} line ({@link #logIn()}), or {@code null}. */
    public String sectok(String cookieLine) {
        String sid = cookie(cookieLine.replaceFirst("^Cookie:\\s*", ""), "DokuWiki");
        Session s = sid == null ? null : sessions.get(sid);
        return s == null ? null : s.sectok();
    }

    /** A bearer token for the JSON API. */
    public String apiToken() {
        String token = issue("wk-" + token());
        apiTokens.put(token, USER);
        return token;
    }

    /** Every session and remember-me value ends (the login expired, or the user logged out elsewhere). */
    public void expireLogins() {
        sessions.clear();
        remembered.clear();
        apiTokens.clear();
    }

    /** A page as a person wrote it (already there before Keyline runs). */
    public void write(String page, String text) {
        pages.put(page, text);
    }

    public String text(String page) {
        return pages.get(page);
    }

    /** How many times the page was saved (by the form or the API). */
    public int saves(String page) {
        AtomicInteger n = saves.get(page);
        return n == null ? 0 : n.get();
    }

    /** Who holds the edit lock of a page now, or {@code null}. */
    public String lockHolder(String page) {
        Lock l = locks.get(page);
        return l == null || l.until().isBefore(Instant.now()) ? null : l.user();
    }

    public List<Seen> requests() {
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    /** The JSON bodies the API received, as parsed. */
    public List<JsonNode> apiCalls() {
        synchronized (apiCalls) {
            return List.copyOf(apiCalls);
        }
    }

    public long count(String method, String doParam) {
        return requests().stream().filter(r -> r.method().equals(method)
                && doParam.equals(r.method().equals("POST") ? r.form("do") : r.param("do"))).count();
    }

    /** Whether a remember-me value still logs in. */
    public boolean remembers(String token) {
        return remembered.containsKey(token);
    }

    private String newSession(String user) {
        String sid = issue(token());
        sessions.put(sid, new Session(user, token().substring(0, 16)));
        return sid;
    }

    /** Keeps a secret the site hands out in {@link #issued()}. */
    private String issue(String secret) {
        issued.add(secret);
        return secret;
    }

    private String token() {
        byte[] b = new byte[16];
        random.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** The answer being built: status, headers (several Set-Cookie), body. */
    private static final class Answer {
        int status = 200;
        final Map<String, List<String>> headers = new LinkedHashMap<>();
        String body = "";

        Answer header(String name, String value) {
            headers.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
            return this;
        }

        Answer html(int status, String body) {
            this.status = status;
            header("Content-Type", "text/html; charset=utf-8");
            this.body = body;
            return this;
        }
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String query = ex.getRequestURI().getRawQuery();
            Seen req = new Seen(ex.getRequestMethod(), ex.getRequestURI().getPath(), query,
                    ex.getRequestHeaders().getFirst("Cookie"), ex.getRequestHeaders().getFirst("Authorization"), body);
            seen.add(req);
            Answer a = new Answer();
            if (req.path().startsWith("/lib/exe/jsonrpc.php/")) {
                api(req, a);
            } else if (req.path().equals("/doku.php")) {
                wiki(req, a);
            } else {
                a.html(404, "<p>no such page</p>");
            }
            if (hostileHeader != null) {
                a.header("X-Served-By", hostileHeader);
            }
            byte[] bytes = a.body.getBytes(StandardCharsets.UTF_8);
            a.headers.forEach((k, vs) -> vs.forEach(v -> ex.getResponseHeaders().add(k, v)));
            ex.sendResponseHeaders(a.status, bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }
    }

    private void wiki(Seen req, Answer a) {
        String sid = cookie(req.cookie(), "DokuWiki");
        Session session = sid == null ? null : sessions.get(sid);
        String remember = cookie(req.cookie(), "DWremember");
        String user = session != null ? session.user() : remember == null ? null : remembered.get(remember);
        if (session == null && user != null) {
            // the remember-me cookie opens a new session
            sid = newSession(user);
            session = sessions.get(sid);
            a.header("Set-Cookie", "DokuWiki=" + sid + "; Path=/; HttpOnly");
        }
        if (user != null && remember != null) {
            String value = remember;
            if (rotateRemember) {
                remembered.remove(remember);
                value = issue(token());
                remembered.put(value, user);
            }
            a.header("Set-Cookie", "DWremember=" + value + "; Path=/; Max-Age=2592000; HttpOnly");
        }
        boolean post = req.method().equals("POST");
        String action = post ? req.form("do") : req.param("do");
        String page = post ? req.form("id") : req.param("id");
        if ("login".equals(action) && post) {
            login(req, a);
            return;
        }
        if ("login".equals(action)) {
            a.html(200, loginForm());
            return;
        }
        if (page == null || page.isEmpty()) {
            a.html(200, "<html><body><h1>Start</h1></body></html>");
            return;
        }
        if ("preview".equals(action) && post) {
            a.html(200, "<html><body><div class=\"preview\">" + escape(String.valueOf(req.form("wikitext")))
                    + "</div></body></html>");
            return;
        }
        if ("export_raw".equals(action) && !post) {
            if (user == null && !publicRead) {
                a.html(200, loginForm());
                return;
            }
            if (rawExportBody != null) {
                a.header("Content-Type", "application/json");
                a.body = rawExportBody;
                return;
            }
            a.header("Content-Type", "text/plain; charset=utf-8");
            a.body = pages.getOrDefault(page, "");
            return;
        }
        if ("edit".equals(action) && !post) {
            if (user == null) {
                loggedOut(page, a);
                return;
            }
            Lock held = locks.get(page);
            if (held != null && !held.user().equals(user) && held.until().isAfter(Instant.now())) {
                a.html(200, "<p>This page is currently locked for editing by " + held.user() + "</p>");
                return;
            }
            if (pages.containsKey(page)) {
                editsOfExistingPages.incrementAndGet();
            }
            locks.put(page, new Lock(user, Instant.now().plus(LOCK)));
            a.html(200, editForm(page, session.sectok(), pages.getOrDefault(page, ""), null));
            if (loginsEndAfterEdit) {
                expireLogins();
            } else if (sessionsEndAfterEdit) {
                sessions.clear();
            }
            return;
        }
        if ("save".equals(action) && post) {
            if (user == null) {
                loggedOut(page, a);
                return;
            }
            if (!session.sectok().equals(req.form("sectok"))) {
                a.html(200, editForm(page, session.sectok(), req.form("wikitext"),
                        "Security Token did not match. Possible CSRF attack."));
                return;
            }
            pages.put(page, req.form("wikitext") == null ? "" : req.form("wikitext"));
            saves.computeIfAbsent(page, p -> new AtomicInteger()).incrementAndGet();
            saveLog.add(page);
            locks.remove(page);
            hold(saveHoldMillis);
            a.status = 302;
            a.header("Location", base() + "/doku.php?id=" + page);
            return;
        }
        if (user == null && !publicRead) {
            a.html(200, loginForm());
            return;
        }
        a.html(pages.containsKey(page) ? 200 : 404, "<html><body><div class=\"page\">"
                + escape(pages.getOrDefault(page, "This topic does not exist yet")) + "</div></body></html>");
    }

    private static void hold(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void loggedOut(String page, Answer a) {
        if (redirectToLogin) {
            a.status = 302;
            a.header("Location", base() + "/doku.php?id=" + page + "&do=login");
        } else {
            a.html(200, loginForm());
        }
    }

    private void login(Seen req, Answer a) {
        if (!USER.equals(req.form("u")) || !PASSWORD.equals(req.form("p"))) {
            a.html(200, loginForm().replace("<form", "<div class=\"error\">Sorry, username or password was wrong."
                    + "</div><form"));
            return;
        }
        String sid = newSession(USER);
        a.header("Set-Cookie", "DokuWiki=" + sid + "; Path=/; HttpOnly");
        if ("1".equals(req.form("r"))) {
            String token = issue(token());
            remembered.put(token, USER);
            a.header("Set-Cookie", "DWremember=" + token + "; Path=/; Max-Age=2592000; HttpOnly");
        }
        a.status = 302;
        a.header("Location", base() + "/doku.php?id=start");
    }

    private void api(Seen req, Answer a) {
        a.header("Content-Type", "application/json");
        String auth = req.authorization();
        String user = auth == null || !auth.startsWith("Bearer ") ? null : apiTokens.get(auth.substring(7));
        if (user == null) {
            a.status = 401;
            a.body = "{\"error\":{\"code\":-32603,\"message\":\"not authorized\"}}";
            return;
        }
        JsonNode call;
        try {
            call = JSON.readTree(req.body());
        } catch (IOException e) {
            a.status = 400;
            a.body = "{\"error\":{\"code\":-32700,\"message\":\"parse error\"}}";
            return;
        }
        apiCalls.add(call);
        String method = req.path().substring("/lib/exe/jsonrpc.php/".length());
        String page = call.path("page").asText("");
        switch (method) {
            case "core.getPage" -> a.body = "{\"result\":" + JSON.valueToTree(pages.getOrDefault(page, "")) + "}";
            case "core.savePage" -> {
                pages.put(page, call.path("text").asText(""));
                saves.computeIfAbsent(page, p -> new AtomicInteger()).incrementAndGet();
                a.body = "{\"result\":true}";
            }
            default -> {
                a.status = 404;
                a.body = "{\"error\":{\"code\":-32601,\"message\":\"method not found\"}}";
            }
        }
    }

    private static String loginForm() {
        return """
                <html><body><h1>Login</h1>
                <form id="dw__login" method="post" action="/doku.php">
                  <input type="hidden" name="do" value="login">
                  <input type="text" name="u"> <input type="password" name="p">
                  <input type="checkbox" name="r" value="1"> Remember me
                  <button type="submit">Log In</button>
                </form></body></html>""";
    }

    private static String editForm(String page, String sectok, String text, String error) {
        return "<html><body>" + (error == null ? "" : "<div class=\"error\">" + error + "</div>")
                + "<form id=\"dw__editform\" method=\"post\" action=\"/doku.php\">"
                + "<input type=\"hidden\" name=\"sectok\" value=\"" + sectok + "\">"
                + "<input type=\"hidden\" name=\"id\" value=\"" + escape(page) + "\">"
                + "<textarea name=\"wikitext\">" + escape(text == null ? "" : text) + "</textarea>"
                + "<button name=\"do\" value=\"save\">Save</button></form></body></html>";
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String cookie(String header, String name) {
        if (header == null) {
            return null;
        }
        for (String part : header.split(";")) {
            String p = part.strip();
            if (p.startsWith(name + "=")) {
                return p.substring(name.length() + 1);
            }
        }
        return null;
    }

    static Map<String, List<String>> params(String encoded) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        if (encoded == null || encoded.isEmpty()) {
            return out;
        }
        for (String pair : encoded.split("&")) {
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
        }
        return out;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
