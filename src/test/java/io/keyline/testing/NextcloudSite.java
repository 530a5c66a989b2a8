package io.keyline.testing;

import io.keyline.testing.FaultServer.Reply;
import io.keyline.testing.FaultServer.Request;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A Nextcloud server's WebDAV endpoint on loopback, {@code /remote.php/dav/files/{user}/…}, one user, answering as
 * Nextcloud's Sabre server does:
 * <ul>
 * <li>HTTP Basic with an app password. A password it does not know (revoked, mistyped) is {@code 401} with
 * {@code WWW-Authenticate: Basic realm="Nextcloud", charset="UTF-8"} and a Sabre error document whose
 * {@code <s:exception>} is {@code Sabre\DAV\Exception\NotAuthenticated}. The brute-force protection counts every
 * failed login: after {@link #MAX_ATTEMPTS} of them it answers {@code 429} (TooManyRequests) to the address until
 * {@link #forgiveAttempts()}.</li>
 * <li>{@code MKCOL}: {@code 201 Created}; {@code 405 Method Not Allowed} ("The resource you tried to create already
 * exists") when it exists; {@code 409 Conflict} when its parent does not.</li>
 * <li>{@code PUT}: {@code 201 Created} for a new file, {@code 204 No Content} for an overwritten one (with
 * {@code ETag}, {@code OC-ETag}, {@code OC-FileId}); with {@code If-None-Match: *} a file that exists is
 * {@code 412 Precondition Failed}; a parent that does not exist is {@code 409}. A file locked by another client is
 * {@code 423 Locked} ({@code OCA\DAV\Connector\Sabre\Exception\FileLocked}); a body over the user's free quota is
 * {@code 507 Insufficient Storage}. The body is stored only once it arrived whole: Nextcloud writes a
 * {@code .part} file and renames it, so a broken upload leaves nothing.</li>
 * <li>{@code PROPFIND} with {@code Depth: 0}: {@code 207 Multi-Status} with {@code d:getcontentlength},
 * {@code d:getetag}; {@code 404} ({@code Sabre\DAV\Exception\NotFound}) when absent. {@code HEAD}: 200 or 404.</li>
 * <li>In maintenance mode every request is {@code 503} with {@code X-Nextcloud-Maintenance-Mode: 1} and
 * {@code Retry-After: 120}.</li>
 * </ul>
 * The user has a folder {@code Archive/} ({@link #removeArchiveFolder()} takes it away).
 * {@link #uploads(String)} counts the PUTs that stored a file at a path: 2 is a file uploaded twice.
 */
public final class NextcloudSite implements AutoCloseable {

    public static final String USER = "alice";
    public static final String ROOT = "/remote.php/dav/files/" + USER + "/";
    /** Brute-force protection: failed logins of an address before it answers 429. */
    public static final int MAX_ATTEMPTS = 10;

    private final FaultServer server;
    private final SecureRandom random = new SecureRandom();
    private final Set<String> passwords = ConcurrentHashMap.newKeySet();
    private final Set<String> folders = ConcurrentHashMap.newKeySet();
    private final Map<String, byte[]> files = new ConcurrentHashMap<>();
    private final Map<String, Integer> uploads = new ConcurrentHashMap<>();
    private final Set<String> locked = ConcurrentHashMap.newKeySet();
    private final List<Request> seen = java.util.Collections.synchronizedList(new ArrayList<>());
    private volatile long quota = Long.MAX_VALUE;
    private volatile boolean maintenance;
    private volatile boolean echoLogins;
    private volatile int failedLogins;
    private volatile CountDownLatch holdPut;
    private volatile CountDownLatch putReached = new CountDownLatch(1);

    public NextcloudSite() throws IOException {
        folders.add(ROOT);
        folders.add(ROOT + "Archive/");
        server = new FaultServer(this::handle);
    }

    public String base() {
        return server.base();
    }

    /** Makes an app password (Settings → Security → Create new app password) and answers it. */
    public String newAppPassword() {
        byte[] b = new byte[24];
        random.nextBytes(b);
        String alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
        StringBuilder p = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            if (i > 0) {
                p.append('-');
            }
            for (int j = 0; j < 5; j++) {
                p.append(alphabet.charAt((b[i * 4 + j % 4] & 0xff) % alphabet.length()));
            }
        }
        passwords.add(p.toString());
        return p.toString();
    }

    /** The {@code Authorization} header value a client sends with this app password. */
    public static String basic(String appPassword) {
        return "Basic " + Base64.getEncoder().encodeToString((USER + ":" + appPassword).getBytes(StandardCharsets.UTF_8));
    }

    public void removeArchiveFolder() {
        folders.removeIf(f -> f.startsWith(ROOT + "Archive/"));
    }

    public void revokeAll() {
        passwords.clear();
    }

    /**
     * Refusals of a login say what was sent: the {@code user:password}, the password's Base64 and the header, as a
     * debugging proxy or a misconfigured server may. Nextcloud itself does not.
     */
    public void echoLogins(boolean on) {
        echoLogins = on;
    }

    public void maintenance(boolean on) {
        maintenance = on;
    }

    public void lock(String path) {
        locked.add(ROOT + path);
    }

    public void unlock(String path) {
        locked.remove(ROOT + path);
    }

    /** The user's free space in bytes. */
    public void quota(long freeBytes) {
        quota = freeBytes;
    }

    public void forgiveAttempts() {
        failedLogins = 0;
    }

    public int failedLogins() {
        return failedLogins;
    }

    /** The next PUT is read whole, then waits before it is stored and answered, until {@link #release()}. */
    public void holdNextPut() {
        putReached = new CountDownLatch(1);
        holdPut = new CountDownLatch(1);
    }

    public boolean awaitHeld(int seconds) throws InterruptedException {
        return putReached.await(seconds, TimeUnit.SECONDS);
    }

    /** Lets a held PUT go on; its client may be gone, and then Nextcloud drops the {@code .part} file. */
    public void release() {
        CountDownLatch h = holdPut;
        if (h != null) {
            h.countDown();
        }
    }

    /** A file put there by hand (the web interface, the desktop client). */
    public void putByHand(String path, byte[] body) {
        files.put(ROOT + path, body);
    }

    public byte[] file(String path) {
        return files.get(ROOT + path);
    }

    public int uploads(String path) {
        return uploads.getOrDefault(ROOT + path, 0);
    }

    public boolean folder(String path) {
        return folders.contains(ROOT + path);
    }

    public List<Request> requests() {
        return List.copyOf(seen);
    }

    public long count(String method) {
        return requests().stream().filter(r -> r.method().equals(method)).count();
    }

    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private Reply handle(Request q) {
        seen.add(q);
        if (maintenance) {
            return error(503, "Sabre\\DAV\\Exception\\ServiceUnavailable", "System is in maintenance mode.",
                    Map.of("X-Nextcloud-Maintenance-Mode", "1", "Retry-After", "120"));
        }
        if (failedLogins >= MAX_ATTEMPTS) {
            return error(429, "OCA\\DAV\\Connector\\Sabre\\Exception\\TooManyRequests",
                    "Too many requests", Map.of());
        }
        String auth = q.header("Authorization");
        if (auth == null || passwords.stream().noneMatch(p -> basic(p).equals(auth))) {
            failedLogins++;
            return error(401, "Sabre\\DAV\\Exception\\NotAuthenticated", echo(auth)
                    + "No public access to this resource., Username or password was incorrect, "
                            + "No 'Authorization: Bearer' header found. Either the client didn't send one, "
                            + "or the server is misconfigured, Username or password was incorrect",
                    Map.of("WWW-Authenticate", "Basic realm=\"Nextcloud\", charset=\"UTF-8\""));
        }
        String path = URLDecoder.decode(q.path(), StandardCharsets.UTF_8);
        if (!path.startsWith(ROOT)) {
            return error(404, "Sabre\\DAV\\Exception\\NotFound", "Principal with name " + path + " not found", Map.of());
        }
        String parent = path.replaceAll("[^/]+/?$", "");
        return switch (q.method()) {
            case "MKCOL" -> {
                String p = path.endsWith("/") ? path : path + "/";
                if (folders.contains(p) || files.containsKey(path)) {
                    yield error(405, "Sabre\\DAV\\Exception\\MethodNotAllowed",
                            "The resource you tried to create already exists", Map.of("Allow", "OPTIONS, GET, HEAD, "
                                    + "DELETE, PROPFIND, PUT, PROPPATCH, COPY, MOVE, REPORT"));
                }
                if (!folders.contains(parent)) {
                    yield error(409, "Sabre\\DAV\\Exception\\Conflict", "Parent node does not exist", Map.of());
                }
                folders.add(p);
                yield new Reply.Respond(201, Map.of(), "");
            }
            case "PUT" -> put(q, path, parent);
            case "PROPFIND" -> {
                byte[] f = files.get(path);
                boolean folder = folders.contains(path.endsWith("/") ? path : path + "/");
                if (f == null && !folder) {
                    yield error(404, "Sabre\\DAV\\Exception\\NotFound",
                            "File with name " + path.substring(ROOT.length()) + " could not be located", Map.of());
                }
                String props = f == null ? "<d:resourcetype><d:collection/></d:resourcetype>"
                        : "<d:resourcetype/><d:getcontentlength>" + f.length + "</d:getcontentlength>"
                        + "<d:getcontenttype>application/gzip</d:getcontenttype>";
                yield new Reply.Respond(207, Map.of("Content-Type", "application/xml; charset=utf-8"),
                        "<?xml version=\"1.0\"?>\n<d:multistatus xmlns:d=\"DAV:\" xmlns:s=\"http://sabredav.org/ns\" "
                        + "xmlns:oc=\"http://owncloud.org/ns\" xmlns:nc=\"http://nextcloud.org/ns\"><d:response>"
                        + "<d:href>" + q.path() + "</d:href><d:propstat><d:prop>"
                        + "<d:getlastmodified>Sun, 29 Nov 2026 23:30:05 GMT</d:getlastmodified>" + props
                        + "<d:getetag>&quot;" + etag(path) + "&quot;</d:getetag></d:prop>"
                        + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>\n");
            }
            case "HEAD", "GET" -> {
                byte[] f = files.get(path);
                yield f == null ? error(404, "Sabre\\DAV\\Exception\\NotFound", "File not found", Map.of())
                        : new Reply.Respond(200, Map.of("ETag", "\"" + etag(path) + "\""), "");
            }
            default -> error(501, "Sabre\\DAV\\Exception\\NotImplemented", "There was no plugin in the system "
                    + "that was willing to handle this " + q.method() + " method.", Map.of());
        };
    }

    private Reply put(Request q, String path, String parent) {
        if (!folders.contains(parent)) {
            return error(409, "Sabre\\DAV\\Exception\\Conflict", "Could not write file contents", Map.of());
        }
        if ("*".equals(q.header("If-None-Match")) && files.containsKey(path)) {
            return error(412, "Sabre\\DAV\\Exception\\PreconditionFailed",
                    "An If-None-Match header was specified, but the ETag matched (or * was specified).", Map.of());
        }
        if (locked.contains(path)) {
            return error(423, "OCA\\DAV\\Connector\\Sabre\\Exception\\FileLocked",
                    "\"" + path.substring(ROOT.length()) + "\" is locked, existing lock on file: 1 shared locks",
                    Map.of());
        }
        if (q.body().length > quota) {
            return error(507, "Sabre\\DAV\\Exception\\InsufficientStorage",
                    "Insufficient space in " + parent.substring(ROOT.length() - 1) + ", "
                            + q.body().length + " required, " + quota + " available", Map.of());
        }
        CountDownLatch hold = holdPut;
        if (hold != null) {
            holdPut = null;
            putReached.countDown();
            try {
                hold.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Reply.Reset();
        }
        boolean existed = files.containsKey(path);
        files.put(path, q.body().clone());
        uploads.merge(path, 1, Integer::sum);
        Map<String, String> h = new LinkedHashMap<>();
        h.put("ETag", "\"" + etag(path) + "\"");
        h.put("OC-ETag", "\"" + etag(path) + "\"");
        h.put("OC-FileId", "00000042ocnca");
        return new Reply.Respond(existed ? 204 : 201, h, "");
    }

    /** What {@link #echoLogins} adds to a refusal: the login as it was sent, decoded and not. */
    private String echo(String auth) {
        if (!echoLogins || auth == null || !auth.startsWith("Basic ")) {
            return "";
        }
        String login = new String(Base64.getDecoder().decode(auth.substring("Basic ".length())), StandardCharsets.UTF_8);
        String password = login.substring(login.indexOf(':') + 1);
        return "echo of the login: " + login + " (password " + password + ", "
                + Base64.getEncoder().encodeToString(password.getBytes(StandardCharsets.UTF_8)) + "; header " + auth
                + "), ";
    }

    private String etag(String path) {
        byte[] f = files.get(path);
        return sha256(f == null ? path.getBytes(StandardCharsets.UTF_8) : f).substring(0, 32);
    }

    private static Reply error(int status, String exception, String message, Map<String, String> headers) {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.put("Content-Type", "application/xml; charset=utf-8");
        return new Reply.Respond(status, h, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
                + "<d:error xmlns:d=\"DAV:\" xmlns:s=\"http://sabredav.org/ns\">\n"
                + "  <s:exception>" + exception + "</s:exception>\n"
                + "  <s:message>" + message.replace("&", "&amp;").replace("<", "&lt;") + "</s:message>\n"
                + "</d:error>\n");
    }

    @Override
    public void close() throws IOException {
        release();
        server.close();
    }
}
