package io.keyline.credentials;

import java.net.URI;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * One login cookie. {@link #toString()} masks the value.
 *
 * @param name              cookie name (an RFC 6265 token)
 * @param value             cookie value, secret
 * @param domain            host or domain the cookie belongs to, lower-case and without a leading dot
 *                          (both are normalized here); {@code null} means any host. It may end in
 *                          {@code :PORT} (wget writes {@code 127.0.0.1:35303} for a server on another port
 *                          than the scheme's): then the cookie goes to that port only
 * @param includeSubdomains whether subdomains of {@code domain} also receive the cookie; {@code false}
 *                          makes it a host-only cookie
 * @param path              path prefix the cookie applies to, starting with {@code /}
 * @param secure            whether the cookie is sent over https only
 * @param httpOnly          whether the browser hid the cookie from scripts (informational)
 * @param expires           when the cookie expires, or {@code null} for a session cookie
 */
public record Cookie(String name, String value, String domain, boolean includeSubdomains, String path,
                     boolean secure, boolean httpOnly, Instant expires) {

    /** Normalizes {@code domain} and checks that name, value and path are present. */
    public Cookie {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(path, "path");
        domain = normalizeDomain(domain);
    }

    /** Whether the cookie has expired at {@code now}; session cookies never expire. */
    public boolean isExpired(Instant now) {
        return expires != null && !expires.isAfter(now);
    }

    /**
     * Whether a browser would send this cookie with a request to {@code uri} at {@code now}: not expired,
     * domain-match (RFC 6265 §5.1.3, or any host when the domain is {@code null}), path-match (§5.1.4),
     * and https only if {@linkplain #secure() secure}.
     */
    public boolean matches(URI uri, Instant now) {
        if (isExpired(now) || secure && !"https".equalsIgnoreCase(uri.getScheme())) {
            return false;
        }
        return domainMatches(uri) && pathMatches(uri.getRawPath());
    }

    /** {@code name=value} as it appears in a {@code Cookie} header. */
    String pair() {
        return name + "=" + value;
    }

    /** Set-Cookie-like description with the value masked, e.g. {@code sid=***; Domain=.example.com; Path=/; Secure}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(name).append("=***");
        if (domain != null) {
            text.append(includeSubdomains ? "; Domain=." : "; Host=").append(domain);
        }
        text.append("; Path=").append(path);
        if (secure) {
            text.append("; Secure");
        }
        if (httpOnly) {
            text.append("; HttpOnly");
        }
        if (expires != null) {
            text.append("; Expires=").append(expires);
        }
        return text.toString();
    }

    private boolean domainMatches(URI uri) {
        if (domain == null) {
            return true;
        }
        if (uri.getHost() == null) {
            return false;
        }
        String host = normalizeDomain(uri.getHost());
        String cookieHost = domain;
        int port = portOf(domain);
        if (port >= 0) {
            cookieHost = domain.substring(0, domain.lastIndexOf(':'));
            int uriPort = uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
            if (uriPort != port) {
                return false;
            }
        }
        if (host.equals(cookieHost)) {
            return true;
        }
        return includeSubdomains && host.endsWith("." + cookieHost) && !isIpAddress(host);
    }

    /** The port a domain like {@code 127.0.0.1:35303} or {@code [::1]:8080} names, or -1. */
    static int portOf(String domain) {
        int colon = domain.lastIndexOf(':');
        if (colon <= 0 || colon == domain.length() - 1) {
            return -1;
        }
        String host = domain.substring(0, colon);
        String port = domain.substring(colon + 1);
        boolean bracketedV6 = host.startsWith("[") && host.endsWith("]");
        if (!port.chars().allMatch(c -> c >= '0' && c <= '9') || port.length() > 5
                || host.indexOf(':') >= 0 && !bracketedV6) {
            return -1;
        }
        int n = Integer.parseInt(port);
        return n > 0 && n <= 65535 ? n : -1;
    }

    private boolean pathMatches(String rawRequestPath) {
        String requestPath = rawRequestPath == null || !rawRequestPath.startsWith("/") ? "/" : rawRequestPath;
        if (!requestPath.startsWith(path)) {
            return false;
        }
        return requestPath.length() == path.length()
                || path.endsWith("/")
                || requestPath.charAt(path.length()) == '/';
    }

    private static boolean isIpAddress(String host) {
        return host.indexOf(':') >= 0 || host.matches("[0-9.]+");
    }

    private static String normalizeDomain(String domain) {
        if (domain == null) {
            return null;
        }
        String trimmed = domain.strip();
        if (trimmed.startsWith(".")) {
            trimmed = trimmed.substring(1);
        }
        return trimmed.isEmpty() ? null : trimmed.toLowerCase(Locale.ROOT);
    }
}
