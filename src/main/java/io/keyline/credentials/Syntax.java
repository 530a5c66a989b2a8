package io.keyline.credentials;

import io.keyline.domain.Printable;

import java.time.Instant;
import java.util.Optional;

/**
 * Character rules shared by the parsers (RFC 7230 tokens, RFC 6265 cookie values). Problems are
 * described without echoing the checked text, which may be secret.
 */
final class Syntax {
    /** The latest accepted cookie expiry; later ones are input errors. */
    static final Instant LATEST_EXPIRY = Instant.parse("9999-12-31T23:59:59Z");

    private static final String TOKEN_SYMBOLS = "!#$%&'*+-.^_`|~";

    private Syntax() {
    }

    /** Why {@code name} is not an RFC 7230 token (the RFC 6265 cookie-name rule), if it is not. */
    static Optional<String> tokenProblem(String name) {
        if (name.isEmpty()) {
            return Optional.of("empty");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!isTokenChar(c)) {
                return Optional.of("illegal character " + describe(c));
            }
        }
        return Optional.empty();
    }

    /** Why {@code value} cannot be sent inside a {@code Cookie} header, if it cannot. */
    static Optional<String> cookieValueProblem(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (isControl(c)) {
                return Optional.of("contains a control character");
            }
            if (c == ';') {
                return Optional.of("contains ';'");
            }
        }
        return Optional.empty();
    }

    /** Why {@code value} cannot be sent back in a request's {@code Cookie} header as it was given, if it cannot. */
    static Optional<String> sendableCookieValueProblem(String value) {
        return cookieValueProblem(value).or(() -> notAscii(value));
    }

    /**
     * Why {@code value} cannot go into a request header, if it holds a character outside ASCII: the
     * HTTP client writes a header in ASCII, so such a character would be refused when the request is
     * built or sent as {@code ?}, never as the browser sent it. Only the character's code is named.
     */
    static Optional<String> notAscii(String value) {
        int i = Printable.firstNotInHeader(value);
        return i < 0 ? Optional.empty() : Optional.of("contains a character outside ASCII ("
                + Printable.codePoint(value.codePointAt(i)) + "), which a request header cannot carry");
    }

    /**
     * Why a cookie's domain cannot be used, if it cannot: a domain may end in {@code :PORT} (as wget writes
     * it), and then the port must be a number from 1 to 65535.
     */
    static Optional<String> domainProblem(String domain) {
        String d = domain.strip();
        int colon = d.lastIndexOf(':');
        boolean bracketed = d.startsWith("[") && d.endsWith("]");
        boolean bareIpv6 = !d.startsWith("[") && d.indexOf(':') != colon;
        if (colon < 0 || bracketed || bareIpv6) {
            return Optional.empty();
        }
        if (Cookie.portOf(d) < 0) {
            return Optional.of("a domain may end in :PORT only with a port from 1 to 65535");
        }
        return Optional.empty();
    }

    static boolean isControl(char c) {
        return c < 0x20 || c == 0x7F;
    }

    /** 1-based line number of the character at {@code index} in {@code text}. */
    static int lineAt(String text, int index) {
        int line = 1;
        for (int i = 0; i < index; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    private static boolean isTokenChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || TOKEN_SYMBOLS.indexOf(c) >= 0;
    }

    private static String describe(char c) {
        return c > 0x20 && c < 0x7F ? "'" + c + "'" : String.format("U+%04X", (int) c);
    }
}
