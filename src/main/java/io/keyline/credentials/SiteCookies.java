package io.keyline.credentials;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A cookie credential as the site keeps it up to date: the {@code Set-Cookie} headers of an answer to a request
 * that carried the credential, applied as a browser applies them, for the request's own host only. A cookie the
 * site sets again gets its new value and expiry; one it expires is removed; a new one of that host is added
 * (a session the remember-me cookie opened, a CSRF cookie). A {@code Set-Cookie} for another domain (one the
 * request's host is not inside, or a public suffix) is ignored.
 */
public final class SiteCookies {

    /**
     * The most cookies a site's answers may make a credential hold (a browser keeps about as many per domain):
     * a cookie set again is still updated, a new one beyond it is not added. What the operator stored is never
     * cut.
     */
    public static final int MAX_COOKIES = 180;

    private SiteCookies() {
    }

    /**
     * The credential after the answer's cookies, or empty when nothing changes (or the change would remove
     * every cookie: a credential is never emptied by a site, the operator renews it).
     *
     * @param uri        the request the answer came to (its host and path decide defaults)
     * @param setCookies the answer's {@code Set-Cookie} header values
     */
    public static Optional<ParsedCredential> apply(ParsedCredential current, URI uri, List<String> setCookies,
                                                   Instant now) {
        if (current.type() != CredentialType.COOKIE || setCookies.isEmpty() || uri.getHost() == null) {
            return Optional.empty();
        }
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        List<Cookie> cookies = new ArrayList<>(current.cookies());
        boolean changed = false;
        for (String header : setCookies) {
            SetCookie sc = SetCookie.parse(header);
            if (sc == null || sc.domain() != null && !ownDomain(host, sc.domain())
                    || Syntax.sendableCookieValueProblem(sc.value()).isPresent()) {
                // a value a request could not send back as the site set it (a control character, a byte
                // above 127, a ';') is not kept: the stored one goes on
                continue;
            }
            Instant expiry = sc.expiry(now);
            boolean expired = expiry != null && !expiry.isAfter(now);
            String path = sc.path() != null ? sc.path() : CookieScope.defaultPath(uri.getRawPath());
            int at = find(cookies, sc, host, path);
            if (at >= 0) {
                Cookie old = cookies.get(at);
                if (expired) {
                    cookies.remove(at);
                    changed = true;
                } else if (!old.value().equals(sc.value()) || !java.util.Objects.equals(old.expires(), expiry)) {
                    cookies.set(at, new Cookie(old.name(), sc.value(), old.domain(), old.includeSubdomains(),
                            old.path(), old.secure() || sc.secure(), old.httpOnly() || sc.httpOnly(), expiry));
                    changed = true;
                }
            } else if (!expired && cookies.size() < Math.max(MAX_COOKIES, current.cookies().size())) {
                String domain = sc.domain() != null ? sc.domain() : host;
                cookies.add(new Cookie(sc.name(), sc.value(), domain, sc.domain() != null, path, sc.secure(),
                        sc.httpOnly(), expiry));
                changed = true;
            }
        }
        if (!changed || cookies.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(ParsedCredential.ofCookies(cookies));
    }

    /**
     * Whether {@code after} changes the login of {@code before}: a cookie was removed, or a cookie the page's
     * scripts cannot read ({@code HttpOnly}, where sites keep sessions and logins) was added or given another value
     * or expiry. A cookie scripts can read (a setting such as WordPress's {@code wp-settings-time-1}, a CSRF cookie)
     * set or set again changes the stored value and not the login.
     */
    public static boolean loginChanged(ParsedCredential before, ParsedCredential after) {
        if (!all(after).keySet().containsAll(all(before).keySet())) {
            return true;
        }
        java.util.Map<String, Cookie> was = login(before);
        java.util.Map<String, Cookie> now = login(after);
        if (!was.keySet().equals(now.keySet())) {
            return true;
        }
        for (var e : now.entrySet()) {
            Cookie old = was.get(e.getKey());
            if (!old.value().equals(e.getValue().value())
                    || !java.util.Objects.equals(old.expires(), e.getValue().expires())) {
                return true;
            }
        }
        return false;
    }

    /** The HttpOnly cookies of a value by name, domain and path. */
    private static java.util.Map<String, Cookie> login(ParsedCredential value) {
        java.util.Map<String, Cookie> out = all(value);
        out.values().removeIf(c -> !c.httpOnly());
        return out;
    }

    private static java.util.Map<String, Cookie> all(ParsedCredential value) {
        java.util.Map<String, Cookie> out = new java.util.HashMap<>();
        for (Cookie c : value.cookies()) {
            out.put(c.name() + "\u0000" + c.domain() + "\u0000" + c.path(), c);
        }
        return out;
    }

    /**
     * The stored cookie a {@code Set-Cookie} sets again: the same name, for the request's host (a cookie stored
     * without a domain goes to every host of the credential's steps), and the same path; when no path is equal,
     * the only one of that name for the host (a site that re-issues its cookie without a {@code Path}).
     */
    private static int find(List<Cookie> cookies, SetCookie sc, String host, String path) {
        int sameName = -1;
        int count = 0;
        for (int i = 0; i < cookies.size(); i++) {
            Cookie c = cookies.get(i);
            if (!c.name().equals(sc.name()) || !forHost(c, host)) {
                continue;
            }
            if (c.path().equals(path)) {
                return i;
            }
            sameName = i;
            count++;
        }
        return count == 1 && sc.path() == null ? sameName : -1;
    }

    private static boolean forHost(Cookie c, String host) {
        if (c.domain() == null) {
            return true;
        }
        String d = c.domain();
        int colon = d.lastIndexOf(':');
        if (colon > 0 && Cookie.portOf(d) >= 0) {
            d = d.substring(0, colon);
        }
        return host.equals(d) || c.includeSubdomains() && host.endsWith("." + d);
    }

    /** Whether a {@code Domain} attribute may be set by {@code host}: itself or a parent, never a public suffix. */
    private static boolean ownDomain(String host, String domain) {
        if (!(host.equals(domain) || host.endsWith("." + domain))) {
            return false;
        }
        return host.equals(domain) || domain.contains(".") && CookieScope.registrableDomain(host).length() <= domain.length();
    }
}
