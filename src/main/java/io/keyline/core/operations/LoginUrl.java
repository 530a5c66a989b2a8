package io.keyline.core.operations;

import io.keyline.domain.Printable;
import io.keyline.text.Text;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * A credential's login page address, as {@code keyline credentials set --login-url} and the console's
 * login window check it, and the address bar's reading of where the login window is.
 */
public final class LoginUrl {

    private LoginUrl() {
    }

    /**
     * Why {@code url} is not a login page address, or {@code null} when it is one: an absolute http(s)
     * URL with a host, without spaces, control characters or a user name in it. The text is checked as
     * given (the console strips what the operator typed first; the command line does not).
     */
    public static String problem(String url) {
        String u = url == null ? "" : url;
        if (u.isEmpty()) {
            return Text.t("core.loginUrl.hint");
        }
        if (u.chars().anyMatch(c -> c < 0x20 || c == 0x7f || c == ' ')) {
            return Text.t("core.loginUrl.spaces");
        }
        try {
            URI uri = new URI(u);
            String s = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(s.equals("http") || s.equals("https")) || uri.getHost() == null) {
                return Text.t("core.loginUrl.hint");
            }
            if (uri.getRawUserInfo() != null) {
                return Text.t("core.loginUrl.userInfo");
            }
            return null;
        } catch (URISyntaxException e) {
            return Text.t("core.loginUrl.hint");
        }
    }

    /**
     * Where a browser is, for a read-only address bar.
     *
     * @param origin   {@code https://example.org:8443}, printable on one line, or empty
     * @param secure   an https page
     * @param security "Encrypted connection (https)", the warning for http, or empty
     */
    public record Origin(String origin, boolean secure, String security) {
    }

    /** The origin of {@code url} and whether its connection is encrypted; empty for no page or {@code about:blank}. */
    public static Origin origin(String url) {
        if (url == null || url.isBlank() || url.equals("about:blank")) {
            return new Origin("", false, "");
        }
        try {
            URI u = new URI(url);
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            String host = u.getHost() == null ? "" : u.getHost();
            return new Origin(Printable.line(scheme + "://" + host + (u.getPort() < 0 ? "" : ":" + u.getPort())),
                    scheme.equals("https"), Text.t(scheme.equals("https") ? "core.loginUrl.encrypted"
                    : scheme.equals("http") ? "core.loginUrl.notEncrypted" : "core.loginUrl.notWeb"));
        } catch (URISyntaxException e) {
            return new Origin(Printable.line(url.length() > 80 ? url.substring(0, 80) + "…" : url), false,
                    Text.t("core.loginUrl.unreadable"));
        }
    }
}
