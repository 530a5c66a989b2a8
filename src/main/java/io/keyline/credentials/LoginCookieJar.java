package io.keyline.credentials;

import java.io.IOException;
import java.net.CookieHandler;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The private cookie jar of one login window: a fresh in-memory {@link CookieManager} (never the
 * system's, never written anywhere) that the window's browser stores its cookies in, and that
 * hands them out as {@link Cookie}s with what {@link HttpCookie} loses: whether a cookie is
 * host-only (no {@code Domain} attribute) and its absolute expiry.
 *
 * <p>It receives cookies through {@link CookieRouting} while its window is open. {@link #put} and
 * {@link #get} run on the browser's network threads; the change listener is called on them too.
 */
public final class LoginCookieJar extends CookieHandler {

    /** What a {@code Set-Cookie} said that the stored {@link HttpCookie} does not keep. */
    private record Origin(String host, Instant expires) {
    }

    private final CookieManager jar = new CookieManager();
    /** By {@code name \n stored domain \n path}; {@code host} set for host-only cookies. */
    private final Map<String, Origin> origins = new ConcurrentHashMap<>();
    private final Clock clock;
    private volatile Runnable onChange = () -> { };

    /** @param clock the time {@code Max-Age} and {@code Expires} are counted from (the system clock: the browser's) */
    public LoginCookieJar(Clock clock) {
        this.clock = clock;
    }

    public LoginCookieJar() {
        this(Clock.systemUTC());
    }

    /** Called after every response or script that set cookies (on the thread that set them). */
    public void onChange(Runnable r) {
        onChange = r == null ? () -> { } : r;
    }

    @Override
    public Map<String, List<String>> get(URI uri, Map<String, List<String>> requestHeaders) throws IOException {
        return jar.get(uri, requestHeaders);
    }

    @Override
    public void put(URI uri, Map<String, List<String>> responseHeaders) throws IOException {
        boolean any = false;
        Instant now = clock.instant();
        for (Map.Entry<String, List<String>> e : responseHeaders.entrySet()) {
            if (e.getKey() == null || !(e.getKey().equalsIgnoreCase("Set-Cookie")
                    || e.getKey().equalsIgnoreCase("Set-Cookie2"))) {
                continue;
            }
            for (String header : e.getValue()) {
                any = true;
                List<HttpCookie> parsed;
                try {
                    parsed = HttpCookie.parse(header);
                } catch (IllegalArgumentException bad) {
                    continue; // the manager passes it by too
                }
                for (HttpCookie c : parsed) {
                    boolean hostOnly = c.getDomain() == null;
                    String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
                    // what CookieManager.put stores as the domain of a host-only cookie
                    String stored = hostOnly ? (host.contains(".") || host.contains(":") ? host : host + ".local")
                            : c.getDomain().toLowerCase(Locale.ROOT);
                    String path = c.getPath() == null ? CookieScope.defaultPath(uri.getPath()) : c.getPath();
                    Instant expires = c.getMaxAge() < 0 ? null : now.plusSeconds(c.getMaxAge());
                    origins.put(key(c.getName(), stored, path), new Origin(hostOnly ? host : null, expires));
                }
            }
        }
        jar.put(uri, responseHeaders);
        if (any) {
            // HttpCookie takes a Set-Cookie with Max-Age (and no Expires) for an RFC 2965 cookie, and the manager
            // then sends it back as $Version="1"; name="value";$Path=... - which sites (and the page's own
            // document.cookie) do not read. Browsers send name=value (RFC 6265): so does this jar.
            for (HttpCookie c : jar.getCookieStore().getCookies()) {
                if (c.getVersion() != 0) {
                    c.setVersion(0);
                }
            }
            onChange.run();
        }
    }

    /** Every cookie the jar holds now (expired ones are dropped), as Keyline stores cookies. */
    public List<Cookie> cookies() {
        List<Cookie> out = new ArrayList<>();
        for (HttpCookie c : jar.getCookieStore().getCookies()) {
            String domain = c.getDomain() == null ? null : c.getDomain().toLowerCase(Locale.ROOT);
            Origin o = domain == null ? null : origins.get(key(c.getName(), domain, c.getPath()));
            boolean hostOnly = o != null ? o.host() != null : domain != null && !domain.startsWith(".");
            String d = o != null && o.host() != null ? o.host() : domain;
            Instant expires = o != null ? o.expires() : null;
            out.add(new Cookie(c.getName(), c.getValue(), d, !hostOnly && d != null, c.getPath() == null ? "/"
                    : c.getPath(), c.getSecure(), c.isHttpOnly(), expires));
        }
        return out;
    }

    /** Forgets every cookie (the window closes). */
    public void clear() {
        jar.getCookieStore().removeAll();
        origins.clear();
    }

    private static String key(String name, String domain, String path) {
        return name + "\n" + domain + "\n" + path;
    }

    @Override
    public String toString() {
        return "LoginCookieJar[" + jar.getCookieStore().getCookies().size() + " cookies]"; // never the values
    }
}
