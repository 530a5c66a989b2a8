package io.keyline.credentials;

import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses what an operator pastes for a credential.
 *
 * <ul>
 *   <li>{@link CredentialType#COOKIE}: a JSON array as browser cookie exporters write it (input starting
 *   with {@code [}), Playwright's {@code storageState} object (<code>{"cookies": [...], "origins": [...]}</code>;
 *   any other object is reported as not an array), a Netscape {@code cookies.txt} (a 7-field TAB-separated
 *   line or the {@code # Netscape HTTP Cookie File} header; a domain may carry a port, as wget writes it), or
 *   else a single {@code Cookie:} header line, prefix optional. At least one cookie is required.</li>
 *   <li>{@link CredentialType#BEARER}: one token, {@code Bearer } prefix optional.</li>
 *   <li>{@link CredentialType#HEADER}: {@code Name: value}; the name must be a token other than {@code Cookie}.</li>
 * </ul>
 *
 * Error messages name the 1-based line or the JSON array index and the field, never the secret.
 */
public final class CredentialParser {
    private static final Pattern BEARER_PREFIX = Pattern.compile("(?i)^bearer(\\s+|$)");

    /** Credential input (a cookie export, a token) is refused beyond this size: 1 MiB. */
    public static final int MAX_INPUT_BYTES = 1024 * 1024;

    private CredentialParser() {
    }

    /**
     * Reads credential input (a file, standard input) as UTF-8, at most {@link #MAX_INPUT_BYTES}: a
     * larger input (or an endless one, {@code /dev/zero}) is refused after that many bytes.
     *
     * @param source how messages name the input, e.g. the file name or "standard input"
     * @throws CredentialFormatException when the input is larger than 1 MiB
     */
    public static String readInput(java.io.InputStream in, String source) throws java.io.IOException {
        byte[] bytes = in.readNBytes(MAX_INPUT_BYTES + 1);
        if (bytes.length > MAX_INPUT_BYTES) {
            throw new CredentialFormatException(source + " is larger than 1 MiB: a cookie export or a token is "
                    + "a few KiB (is it the right file?)");
        }
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * @param type          what kind of credential {@code input} holds
     * @param input         the pasted text
     * @param defaultDomain domain for cookies that carry none (a {@code Cookie:} header line, JSON without
     *                      {@code domain}), or {@code null} to send them to any host
     * @throws CredentialFormatException if {@code input} is empty or malformed
     */
    public static ParsedCredential parse(CredentialType type, String input, String defaultDomain) {
        return parse(type, input, defaultDomain, true);
    }

    /**
     * A credential as it was stored: also a value that an earlier version accepted and a request cannot carry
     * (a character outside ASCII), so that it loads and the step that would send it says to renew it.
     */
    static ParsedCredential parseStored(CredentialType type, String canonical) {
        return parse(type, canonical, null, false);
    }

    private static ParsedCredential parse(CredentialType type, String input, String defaultDomain, boolean sendable) {
        Objects.requireNonNull(type, "type");
        if (input == null || input.isBlank()) {
            throw new CredentialFormatException("input is empty");
        }
        return switch (type) {
            case COOKIE -> ParsedCredential.ofCookies(parseCookies(input, defaultDomain, sendable));
            case BEARER -> ParsedCredential.ofToken(parseToken(input, sendable));
            case HEADER -> parseHeader(input, sendable);
        };
    }

    private static List<Cookie> parseCookies(String input, String defaultDomain, boolean sendable) {
        List<Cookie> cookies;
        if (JsonCookieFormat.detect(input.strip())) {
            cookies = JsonCookieFormat.parse(input, defaultDomain, sendable);
        } else if (NetscapeCookieFormat.detect(input)) {
            cookies = NetscapeCookieFormat.parse(input);
        } else {
            cookies = CookieHeaderFormat.parse(input, defaultDomain);
        }
        if (cookies.isEmpty()) {
            throw new CredentialFormatException("no cookies found in the input");
        }
        return cookies;
    }

    private static String parseToken(String input, boolean sendable) {
        int start = firstNonWhitespace(input);
        String token = input.strip();
        Matcher prefix = BEARER_PREFIX.matcher(token);
        if (prefix.find()) {
            start += prefix.end();
            token = token.substring(prefix.end());
        }
        String where = "line " + Syntax.lineAt(input, start) + ", token: ";
        if (token.isEmpty()) {
            throw new CredentialFormatException(where + "empty");
        }
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
                throw new CredentialFormatException("line " + Syntax.lineAt(input, start + i) + ", token: contains whitespace");
            }
            if (Syntax.isControl(c)) {
                throw new CredentialFormatException(where + "contains a control character");
            }
        }
        if (sendable) {
            Syntax.notAscii(token).ifPresent(problem -> {
                throw new CredentialFormatException(where + problem);
            });
        }
        return token;
    }

    private static ParsedCredential parseHeader(String input, boolean sendable) {
        int start = firstNonWhitespace(input);
        String header = input.strip();
        String where = "line " + Syntax.lineAt(input, start);
        int colon = header.indexOf(':');
        if (colon < 0) {
            throw new CredentialFormatException(where + ": expected \"Name: value\"");
        }
        String name = header.substring(0, colon);
        Syntax.tokenProblem(name).ifPresent(problem -> {
            throw new CredentialFormatException(where + ", header name: " + problem);
        });
        if (name.equalsIgnoreCase("Cookie")) {
            throw new CredentialFormatException(where + ", header name: Cookie is not allowed here, use a cookie credential");
        }
        String value = header.substring(colon + 1).strip();
        if (value.isEmpty()) {
            throw new CredentialFormatException(where + ", header value: empty");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\r' || c == '\n') {
                throw new CredentialFormatException(where + ", header value: must be a single line (contains CR or LF)");
            }
            if (Syntax.isControl(c) && c != '\t') {
                throw new CredentialFormatException(where + ", header value: contains a control character");
            }
        }
        if (sendable) {
            Syntax.notAscii(value).ifPresent(problem -> {
                throw new CredentialFormatException(where + ", header value: " + problem);
            });
        }
        return ParsedCredential.ofHeader(name, value);
    }

    private static int firstNonWhitespace(String input) {
        return input.length() - input.stripLeading().length();
    }
}
