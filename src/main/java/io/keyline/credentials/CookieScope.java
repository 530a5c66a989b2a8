package io.keyline.credentials;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which cookies of a login belong to a credential: those of the login page's registrable domain
 * ({@code shop.example.co.uk} → {@code example.co.uk}) and those a browser would send to a host the
 * credential's steps send to. Everything else a login sets (an SSO provider's cookies, a CDN's, an
 * analytics tracker's) is used during the login and never stored.
 *
 * <p>The registrable domain is found with a short list of the public suffixes of two labels that
 * sites commonly live under ({@code co.uk}, {@code com.cn}, …), not the whole Public Suffix List: a
 * host under a suffix that is missing here yields a domain one label too short. Such a domain is
 * still never a bare suffix of one label ({@code com}), and a cookie set for a public suffix itself
 * is never taken.
 */
public final class CookieScope {

    /** Public suffixes of two labels (second level under a country code) that a registrable domain sits under. */
    private static final Set<String> TWO_LABEL_SUFFIXES = Set.of(
            "co.uk", "org.uk", "ac.uk", "gov.uk", "me.uk", "net.uk", "ltd.uk", "plc.uk",
            "com.cn", "net.cn", "org.cn", "gov.cn", "edu.cn", "ac.cn",
            "com.hk", "org.hk", "net.hk", "edu.hk", "gov.hk",
            "com.tw", "org.tw", "net.tw", "edu.tw", "gov.tw",
            "com.au", "net.au", "org.au", "edu.au", "gov.au",
            "co.nz", "org.nz", "net.nz", "govt.nz",
            "co.jp", "ne.jp", "or.jp", "ac.jp", "go.jp",
            "co.kr", "or.kr", "ne.kr", "go.kr",
            "com.br", "net.br", "org.br", "gov.br",
            "co.in", "net.in", "org.in", "gov.in",
            "com.sg", "edu.sg", "gov.sg", "com.my", "com.mx", "com.ar", "com.tr", "co.za", "co.il",
            "com.ru", "com.ua", "co.id", "com.vn", "com.ph", "co.th", "in.th",
            "github.io", "gitlab.io", "herokuapp.com", "azurewebsites.net", "cloudfront.net", "appspot.com",
            "pages.dev", "vercel.app", "netlify.app");

    private final List<String> domains;

    private CookieScope(List<String> domains) {
        this.domains = List.copyOf(domains);
    }

    /**
     * The scope of a credential.
     *
     * @param loginUrl where the operator logs in (its registrable domain is taken), or {@code null}
     * @param stepUrls the URLs the credential's steps and probes send to (their hosts are taken); templates
     *                 ({@code {key}}) in a path or query are fine, an URL whose host cannot be read is passed by
     */
    public static CookieScope of(String loginUrl, Collection<String> stepUrls) {
        Set<String> d = new LinkedHashSet<>();
        String loginHost = host(loginUrl);
        if (loginHost != null) {
            d.add(registrableDomain(loginHost));
        }
        for (String u : stepUrls) {
            String h = host(u);
            if (h != null) {
                d.add(h);
            }
        }
        // a host under a domain already listed adds nothing
        List<String> out = new ArrayList<>();
        for (String x : d) {
            if (d.stream().noneMatch(y -> !y.equals(x) && under(x, y))) {
                out.add(x);
            }
        }
        return new CookieScope(out);
    }

    /** The domains (and hosts) whose cookies are taken, as shown to the operator. */
    public List<String> domains() {
        return domains;
    }

    /**
     * Whether the credential takes {@code c}: its domain is one of ours or under one of ours, or it is a
     * domain cookie a browser would send to one of ours. A cookie without a domain, or one set for a public
     * suffix or a name of one label that is not itself ours, is never taken.
     */
    public boolean takes(Cookie c) {
        String cd = c.domain();
        if (cd == null) {
            return false;
        }
        int colon = cd.lastIndexOf(':');
        if (Cookie.portOf(cd) > 0) {
            cd = cd.substring(0, colon);
        }
        for (String d : domains) {
            if (cd.equals(d) || under(cd, d)) {
                return true;
            }
            if (c.includeSubdomains() && under(d, cd) && !isPublicSuffix(cd)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The registrable domain of {@code host} ("eTLD+1"): {@code www.example.com} → {@code example.com},
     * {@code a.b.example.co.uk} → {@code example.co.uk}; an IP address or a name of one label
     * ({@code localhost}) is its own.
     */
    public static String registrableDomain(String host) {
        String h = normalize(host);
        if (isIp(h) || !h.contains(".")) {
            return h;
        }
        String[] labels = h.split("\\.");
        int n = labels.length;
        if (n >= 3 && TWO_LABEL_SUFFIXES.contains(labels[n - 2] + "." + labels[n - 1])) {
            return labels[n - 3] + "." + labels[n - 2] + "." + labels[n - 1];
        }
        return labels[n - 2] + "." + labels[n - 1];
    }

    /**
     * A cookie's default path (RFC 6265 §5.1.4): the directory of the request's path, {@code /} when it has none.
     */
    static String defaultPath(String requestPath) {
        if (requestPath == null || !requestPath.startsWith("/")) {
            return "/";
        }
        int slash = requestPath.lastIndexOf('/');
        return slash <= 0 ? "/" : requestPath.substring(0, slash);
    }

    /** The host of an absolute http(s) URL, lower-case, or {@code null}. */
    public static String host(String url) {
        if (url == null || url.isBlank()) {
            return null;
        }
        try {
            // a template in the path or query ({key}) is not a valid URI character: cut what follows the authority
            String u = url.strip();
            int scheme = u.indexOf("://");
            if (scheme < 0) {
                return null;
            }
            int end = u.length();
            for (char ch : new char[]{'/', '?', '#'}) {
                int i = u.indexOf(ch, scheme + 3);
                if (i >= 0) {
                    end = Math.min(end, i);
                }
            }
            URI uri = new URI(u.substring(0, end));
            String s = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!s.equals("http") && !s.equals("https") || uri.getHost() == null) {
                return null;
            }
            return normalize(uri.getHost());
        } catch (URISyntaxException e) {
            return null;
        }
    }

    private static boolean isPublicSuffix(String domain) {
        return !domain.contains(".") || TWO_LABEL_SUFFIXES.contains(domain);
    }

    /** Whether {@code sub} is a subdomain of {@code parent} (not equal; never for IP addresses). */
    private static boolean under(String sub, String parent) {
        return sub.endsWith("." + parent) && !isIp(sub);
    }

    private static boolean isIp(String host) {
        return host.indexOf(':') >= 0 || host.startsWith("[") || host.matches("[0-9.]+");
    }

    private static String normalize(String host) {
        String h = host.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith(".")) {
            h = h.substring(1);
        }
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        return h;
    }

    @Override
    public String toString() {
        return "CookieScope" + domains;
    }
}
