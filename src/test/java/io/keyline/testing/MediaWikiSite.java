package io.keyline.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyline.testing.FaultServer.Reply;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A wiki on loopback shaped like MediaWiki's action API ({@code api.php}), as ApiMain, ApiQueryTokens and ApiEditPage
 * answer a browser's login:
 * <ul>
 * <li>The login is the browser's cookies: {@code my_wiki_session} (the session), {@code my_wikiUserID},
 * {@code my_wikiUserName} and {@code my_wikiToken} (the "keep me logged in" cookies of CookieSessionProvider). A
 * request whose session the server no longer holds, with a remember-me token that still matches, is logged in
 * again into a new session, set with {@code Set-Cookie: my_wiki_session=…; path=/; HttpOnly}; a token of the old
 * session does not match the new one. Without a matching remember-me token the request is anonymous.</li>
 * <li>{@code GET api.php?action=query&meta=tokens&type=csrf&format=json} answers
 * {@code {"batchcomplete":"","query":{"tokens":{"csrftoken":"<hex>+\\"}}}}: an HMAC of the session's secret, the
 * time in hex and the suffix {@code +\}. An anonymous request gets LoggedOutEditToken, exactly {@code +\}, with
 * {@code 200}, as any other answer.</li>
 * <li>{@code POST api.php} with {@code action=edit} (a form, decoded as PHP decodes it: a {@code +} is a space):
 * {@code assert=user} is checked first ({@code assertuserfailed}), then the token ({@code badtoken}; a missing one is
 * {@code missingparam}), then {@code maxlag} (the wiki's replicas lag: {@code Retry-After: max(maxlag, 5)},
 * {@code X-Database-Lag}, code {@code maxlag}), then {@code createonly} ({@code articleexists}), then the edit rate
 * limit ({@code ratelimited}). A new page answers
 * {@code {"edit":{"new":"","result":"Success","pageid":…,"title":…,"contentmodel":"wikitext","oldrevid":0,
 * "newrevid":…,"newtimestamp":…}}}.</li>
 * <li>Every error is {@code 200} with {@code {"error":{"code":…,"info":…,"*":…}}} ({@code "docref"} with
 * {@code formatversion=2}) and the header {@code MediaWiki-API-Error: CODE}.</li>
 * <li>{@code action=query&titles=T&format=json&formatversion=2} answers {@code pages[0]} with {@code pageid} for a
 * page that exists and {@code "missing": true} for one that does not. On a private wiki ({@link #makePrivate()}) an
 * anonymous query is {@code readapidenied}; tokens are still given ({@code meta=tokens} is not a read).</li>
 * </ul>
 * Switches: {@link #expireSessions()} (the server forgot its sessions: remember-me logs in again),
 * {@link #expireLogins()} (the remember-me tokens no longer match either), {@link #lagged}, {@link #laggedQueries},
 * {@link #rateLimited},
 * {@link #readOnly},
 * {@link #holdAfterSave()}, {@link #resetAfterSave()}, {@link #loseNextEdit()}, {@link #expireAtNextEdit()},
 * {@link #writeByHandBeforeNextEdit(String)}, {@link #makePrivate()}, {@link #requireCaptcha()}. {@link #saves(String)} counts
 * the edits that made a page: 2 is a double save.
 */
public final class MediaWikiSite implements AutoCloseable {

    public static final String PREFIX = "my_wiki";
    public static final String SESSION = PREFIX + "_session";
    public static final String USER_ID = PREFIX + "UserID";
    public static final String USER_NAME = PREFIX + "UserName";
    public static final String TOKEN = PREFIX + "Token";
    public static final String USER = "Keyline-bot";
    /** Token::SUFFIX: every CSRF token ends with it; LoggedOutEditToken is nothing else. */
    public static final String SUFFIX = "+\\";

    /** One request as the site saw it, with its parameters decoded as PHP decodes them. */
    public record Seen(String method, String query, String cookie, Map<String, String> params) {
        public String param(String name) {
            return params.get(name);
        }
    }

    /** A page: who wrote it (a user name, or an IP for an anonymous edit) and its text. */
    public record Page(int id, String title, String author, String text) {
    }

    record Session(int userId, byte[] secret) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final SecureRandom random = new SecureRandom();
    private final FaultServer server;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    /** user id to its remember-me token (user_token). */
    private final Map<Integer, String> rememberTokens = new ConcurrentHashMap<>();
    private final Map<String, Page> pages = new ConcurrentHashMap<>();
    private final Map<String, Integer> saves = new ConcurrentHashMap<>();
    private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean privateWiki;
    private volatile int lag;
    private volatile int lagTimes;
    private volatile int queryLagTimes;
    private volatile int rateLimitTimes;
    private volatile int readOnlyTimes;
    private volatile boolean captcha;
    private volatile boolean expireAtEdit;
    private volatile boolean resetAfter;
    private volatile boolean lose;
    private volatile String handWritten;
    private volatile CountDownLatch holdAfter;
    private volatile CountDownLatch reached = new CountDownLatch(1);
    private int nextRevision = 100;

    public MediaWikiSite() throws IOException {
        server = new FaultServer(this::handle);
    }

    public String base() {
        return server.base();
    }

    public String api() {
        return base() + "/w/api.php";
    }

    /** Where a person logs in. */
    public String loginUrl() {
        return base() + "/w/index.php?title=Special:UserLogin";
    }

    /**
     * Logs in as a browser does with "Keep me logged in" and answers the cookies it then holds, as a Netscape
     * cookies.txt: the session cookie ends with the browser (expiry 0), the others in 180 days.
     */
    public String logIn() {
        int userId = 1;
        byte[] t = new byte[16];
        random.nextBytes(t);
        String token = HexFormat.of().formatHex(t);
        rememberTokens.put(userId, token);
        String session = newSession(userId);
        long later = System.currentTimeMillis() / 1000 + 180L * 24 * 3600;
        return "# Netscape HTTP Cookie File\n"
                + "#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\t" + SESSION + "\t" + session + "\n"
                + "#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t" + later + "\t" + USER_ID + "\t" + userId + "\n"
                + "#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t" + later + "\t" + USER_NAME + "\t" + USER + "\n"
                + "#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t" + later + "\t" + TOKEN + "\t" + token + "\n";
    }

    /** The server forgot its sessions (they expire after an hour): a remember-me cookie opens a new one. */
    public void expireSessions() {
        sessions.clear();
    }

    /** Every login ends: sessions are gone and the remember-me tokens were reset (a password change, a logout). */
    public void expireLogins() {
        sessions.clear();
        rememberTokens.clear();
    }

    /** The login ends as the next edit arrives: after its token was given. */
    public MediaWikiSite expireAtNextEdit() {
        expireAtEdit = true;
        return this;
    }

    /** Anonymous users may not read ({@code $wgGroupPermissions['*']['read'] = false}). */
    public MediaWikiSite makePrivate() {
        privateWiki = true;
        return this;
    }

    /** The replicas lag {@code seconds} behind while the next {@code times} edits that ask {@code maxlag} arrive. */
    public MediaWikiSite lagged(int seconds, int times) {
        lag = seconds;
        lagTimes = times;
        return this;
    }

    /**
     * The replicas lag {@code seconds} behind while the next {@code times} queries that ask {@code maxlag} arrive (a
     * probe's: ApiMain checks maxlag for reads as for writes), answered as an edit is.
     */
    public MediaWikiSite laggedQueries(int seconds, int times) {
        lag = seconds;
        queryLagTimes = times;
        return this;
    }

    /** The next {@code times} edits exceed the user's edit rate limit. */
    public MediaWikiSite rateLimited(int times) {
        rateLimitTimes = times;
        return this;
    }

    /** The wiki is read-only ($wgReadOnly, a maintenance) for the next {@code times} edits. */
    public MediaWikiSite readOnly(int times) {
        readOnlyTimes = times;
        return this;
    }

    /**
     * Edits of this account need a CAPTCHA (the ConfirmEdit extension, for a new account or an edit that adds links):
     * the edit answers {@code {"edit": {"captcha": {…}, "result": "Failure"}}} with {@code 200}, and nothing is saved.
     */
    public MediaWikiSite requireCaptcha() {
        captcha = true;
        return this;
    }

    /** The next edit is saved, then its answer waits until {@link #release()}. */
    public MediaWikiSite holdAfterSave() {
        reached = new CountDownLatch(1);
        holdAfter = new CountDownLatch(1);
        return this;
    }

    /** The next edit is saved, then the connection is reset instead of answered. */
    public MediaWikiSite resetAfterSave() {
        resetAfter = true;
        return this;
    }

    /** The next edit never reaches the wiki: a proxy in front of it holds it and never answers. Nothing is saved. */
    public MediaWikiSite loseNextEdit() {
        lose = true;
        return this;
    }

    public boolean awaitHeld(long seconds) throws InterruptedException {
        return reached.await(seconds, TimeUnit.SECONDS);
    }

    public void release() {
        CountDownLatch h = holdAfter;
        holdAfter = null;
        if (h != null) {
            h.countDown();
        }
    }

    /** A page a person wrote in the browser. */
    public void writeByHand(String title, String text) {
        store(normalize(title), "Alice", text);
    }

    /** A person saves {@code title} in the browser just before the next edit arrives (after its probe looked). */
    public MediaWikiSite writeByHandBeforeNextEdit(String title) {
        handWritten = title;
        return this;
    }

    /** How many edits made or changed this page. */
    public int saves(String title) {
        return saves.getOrDefault(normalize(title), 0);
    }

    public Page page(String title) {
        return pages.get(normalize(title));
    }

    public List<Seen> requests() {
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    public long edits() {
        return requests().stream().filter(q -> "edit".equals(q.param("action"))).count();
    }

    private String newSession(int userId) {
        byte[] id = new byte[16];
        random.nextBytes(id);
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        String s = HexFormat.of().formatHex(id);
        sessions.put(s, new Session(userId, secret));
        return s;
    }

    /** Token::toStringAtTimestamp: hmac(secret, salt . timestamp) . dechex(timestamp) . SUFFIX. */
    private static String token(byte[] secret, long timestamp) {
        try {
            Mac mac = Mac.getInstance("HmacMD5");
            mac.init(new SecretKeySpec(secret, "HmacMD5"));
            String ts = Long.toHexString(timestamp);
            byte[] h = mac.doFinal(("" + timestamp).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(h) + ts + SUFFIX;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Token::match: the timestamp is read from the token, the rest must be this session's. */
    private static boolean matches(Session s, String given) {
        if (given == null || !given.endsWith(SUFFIX) || given.length() < 32 + SUFFIX.length() + 1) {
            return false;
        }
        String ts = given.substring(32, given.length() - SUFFIX.length());
        try {
            return token(s.secret(), Long.parseLong(ts, 16)).equals(given);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private Reply handle(FaultServer.Request req) {
        Map<String, String> params = new LinkedHashMap<>();
        parse(req.query(), params);
        String type = String.valueOf(req.header("Content-Type"));
        if (req.method().equals("POST") && type.startsWith("application/x-www-form-urlencoded")) {
            parse(req.bodyText(), params);
        }
        String cookie = req.header("Cookie");
        seen.add(new Seen(req.method(), req.query(), cookie, Map.copyOf(params)));
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json; charset=utf-8");
        if (!req.path().equals("/w/api.php")) {
            return new Reply.Respond(404, Map.of("Content-Type", "text/html"), "<html><body>Not Found</body></html>");
        }
        if ("edit".equals(params.get("action")) && lose) {
            lose = false;
            return new Reply.Hang();
        }
        if ("edit".equals(params.get("action")) && handWritten != null) {
            writeByHand(handWritten, "Written by Alice.");
            handWritten = null;
        }
        if ("edit".equals(params.get("action")) && expireAtEdit) {
            expireAtEdit = false;
            expireLogins();
        }
        Session s = session(cookie, headers);
        boolean fv2 = "2".equals(params.get("formatversion"));
        try {
            return answer(req, params, s, headers, fv2);
        } catch (ApiError e) {
            headers.put("MediaWiki-API-Error", e.code);
            ObjectNode err = JSON.createObjectNode();
            ObjectNode inner = err.putObject("error").put("code", e.code).put("info", e.info);
            inner.put(fv2 ? "docref" : "*", "See " + api() + " for API usage. Subscribe to the mediawiki-api-announce"
                    + " mailing list at &lt;https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce"
                    + ".lists.wikimedia.org/&gt; for notice of API deprecations and breaking changes.");
            return new Reply.Respond(200, headers, err.toString());
        }
    }

    /** CookieSessionProvider: the session cookie, else the remember-me cookies, else anonymous. */
    private Session session(String cookie, Map<String, String> headers) {
        String sid = cookieValue(cookie, SESSION);
        Session s = sid == null ? null : sessions.get(sid);
        if (s != null) {
            return s;
        }
        String userId = cookieValue(cookie, USER_ID);
        String token = cookieValue(cookie, TOKEN);
        if (userId != null && token != null && userId.matches("\\d+")
                && token.equals(rememberTokens.get(Integer.parseInt(userId)))) {
            String fresh = newSession(Integer.parseInt(userId));
            headers.put("Set-Cookie", SESSION + "=" + fresh + "; path=/; HttpOnly");
            return sessions.get(fresh);
        }
        return null;
    }

    static final class ApiError extends Exception {
        final String code;
        final String info;

        ApiError(String code, String info) {
            super(code, null, false, false);
            this.code = code;
            this.info = info;
        }
    }

    private Reply answer(FaultServer.Request req, Map<String, String> params, Session s, Map<String, String> headers,
                         boolean fv2) throws ApiError {
        // ApiMain::executeAction: asserts, then the module and its token, then maxlag, then the module itself
        if ("user".equals(params.get("assert")) && s == null) {
            throw new ApiError("assertuserfailed", "You are no longer logged in, so the action could not be completed.");
        }
        String action = params.getOrDefault("action", "help");
        if (action.equals("edit")) {
            if (!req.method().equals("POST")) {
                throw new ApiError("mustbeposted", "The \"edit\" module requires a POST request.");
            }
            if (!params.containsKey("token")) {
                throw new ApiError("missingparam", "The \"token\" parameter must be set.");
            }
            boolean valid = s == null ? SUFFIX.equals(params.get("token")) : matches(s, params.get("token"));
            if (!valid) {
                throw new ApiError("badtoken", "Invalid CSRF token.");
            }
        }
        if (action.equals("edit") && readOnlyTimes > 0) {
            // checkExecutePermissions: a write module on a read-only wiki, before maxlag
            readOnlyTimes--;
            throw new ApiError("readonly", "The wiki is currently in read-only mode.");
        }
        if (action.equals("edit") && lagTimes > 0 && lagged(params)) {
            lagTimes--;
            maxlag(params, headers);
        }
        if (action.equals("query") && queryLagTimes > 0 && lagged(params)) {
            queryLagTimes--;
            maxlag(params, headers);
        }
        if (action.equals("query")) {
            return query(params, s, headers, fv2);
        }
        if (action.equals("edit")) {
            return edit(params, s, headers, fv2);
        }
        throw new ApiError("badvalue", "Unrecognized value for parameter \"action\": " + action + ".");
    }

    /** Whether the request asks {@code maxlag} and the replicas lag more than it allows. */
    private boolean lagged(Map<String, String> params) {
        String maxlag = params.get("maxlag");
        return maxlag != null && maxlag.matches("\\d+") && lag > Integer.parseInt(maxlag);
    }

    /** ApiMain::checkMaxLag for a request that {@link #lagged} says waits for the replicas. */
    private void maxlag(Map<String, String> params, Map<String, String> headers) throws ApiError {
        String maxlag = params.get("maxlag");
        headers.put("Retry-After", Integer.toString(Math.max(Integer.parseInt(maxlag), 5)));
        headers.put("X-Database-Lag", Integer.toString(lag));
        throw new ApiError("maxlag", "Waiting for a database server: " + lag + " seconds lagged.");
    }

    private Reply query(Map<String, String> params, Session s, Map<String, String> headers, boolean fv2)
            throws ApiError {
        ObjectNode root = JSON.createObjectNode();
        if (fv2) {
            root.put("batchcomplete", true);
        } else {
            root.put("batchcomplete", "");
        }
        ObjectNode query = root.putObject("query");
        if (params.containsKey("titles")) {
            if (privateWiki && s == null) {
                throw new ApiError("readapidenied", "You need read permission to use this module.");
            }
            String title = normalize(params.get("titles"));
            Page p = pages.get(title);
            ObjectNode page = JSON.createObjectNode();
            if (p != null) {
                page.put("pageid", p.id());
            }
            page.put("ns", 0).put("title", title);
            if (p == null) {
                if (fv2) {
                    page.put("missing", true);
                } else {
                    page.put("missing", "");
                }
            }
            if (fv2) {
                query.putArray("pages").add(page);
            } else {
                query.putObject("pages").set(p == null ? "-1" : Integer.toString(p.id()), page);
            }
        }
        if ("tokens".equals(params.get("meta"))) {
            String types = params.getOrDefault("type", "csrf");
            ObjectNode tokens = query.putObject("tokens");
            for (String t : types.split("\\|")) {
                if (t.equals("csrf")) {
                    tokens.put("csrftoken", s == null ? SUFFIX : token(s.secret(), System.currentTimeMillis() / 1000));
                }
            }
        }
        return new Reply.Respond(200, headers, root.toString());
    }

    private Reply edit(Map<String, String> params, Session s, Map<String, String> headers, boolean fv2)
            throws ApiError {
        String title = normalize(params.getOrDefault("title", ""));
        if (title.isEmpty()) {
            throw new ApiError("missingparam", "One of the parameters \"title\" and \"pageid\" is required.");
        }
        if (params.get("text") == null) {
            throw new ApiError("missingparam",
                    "At least one of the parameters \"text\", \"appendtext\", \"prependtext\" and \"undo\" is required.");
        }
        if (params.containsKey("createonly") && pages.containsKey(title)) {
            throw new ApiError("articleexists", "The article you tried to create has been created already.");
        }
        if (rateLimitTimes > 0) {
            rateLimitTimes--;
            throw new ApiError("ratelimited",
                    "As an anti-abuse measure, you are limited from performing this action too many times in a short"
                            + " space of time, and you have exceeded this limit. Please try again in a few minutes.");
        }
        if (captcha) {
            // APIEditBeforeSave / EditFilterMergedContent: the hook's result, with result Failure, is the answer
            ObjectNode root = JSON.createObjectNode();
            ObjectNode e = root.putObject("edit");
            e.putObject("captcha").put("type", "image").put("mime", "image/png").put("id", "1914137561")
                    .put("url", "/w/index.php?title=Special:Captcha/image&wpCaptchaId=1914137561");
            e.put("result", "Failure");
            return new Reply.Respond(200, headers, root.toString());
        }
        boolean isNew = !pages.containsKey(title);
        Page p = store(title, s == null ? "127.0.0.1" : USER, params.get("text"));
        ObjectNode root = JSON.createObjectNode();
        ObjectNode e = root.putObject("edit");
        if (isNew) {
            if (fv2) {
                e.put("new", true);
            } else {
                e.put("new", "");
            }
        }
        e.put("result", "Success").put("pageid", p.id()).put("title", title).put("contentmodel", "wikitext")
                .put("oldrevid", 0).put("newrevid", nextRevision).put("newtimestamp", "2026-11-29T09:00:01Z");
        if (fv2) {
            e.put("watched", true);
        }
        CountDownLatch after = holdAfter;
        if (after != null) {
            reached.countDown();
            try {
                after.await(120, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        if (resetAfter) {
            resetAfter = false;
            return new Reply.Reset();
        }
        return new Reply.Respond(200, headers, root.toString());
    }

    private synchronized Page store(String title, String author, String text) {
        Page was = pages.get(title);
        Page p = new Page(was == null ? 10 + pages.size() : was.id(), title, author, text);
        pages.put(title, p);
        saves.merge(title, 1, Integer::sum);
        nextRevision++;
        return p;
    }

    /** Title normalization for the main namespace: underscores are spaces, the first letter is upper case. */
    static String normalize(String title) {
        String t = title.replace('_', ' ').strip();
        return t.isEmpty() ? t : Character.toUpperCase(t.charAt(0)) + t.substring(1);
    }

    /** PHP's parse_str: {@code +} is a space, {@code %XX} a byte. */
    private static void parse(String form, Map<String, String> into) {
        if (form == null || form.isEmpty()) {
            return;
        }
        for (String pair : form.split("&")) {
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            into.put(k, v);
        }
    }

    private static String cookieValue(String header, String name) {
        if (header == null) {
            return null;
        }
        for (String part : header.split(";")) {
            String p = part.strip();
            if (p.startsWith(name + "=")) {
                return URLDecoder.decode(p.substring(name.length() + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        release();
        server.close();
    }
}
