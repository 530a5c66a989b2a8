package io.keyline.credentials;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Parses what an operator pastes for a credential.
 *
 * <ul>
 *   <li>{@link CredentialType#COOKIE}: a JSON array as browser cookie exporters write it (input starting
 *   with {@code [}), Playwright's {@code storageState} object (<code>{"cookies": [...], "origins": [...]}</code>;
 *   any other object is reported as not an array), a Netscape {@code cookies.txt} (a 7-field TAB-separated
 *   line or the {@code # Netscape HTTP Cookie File} header; a domain may carry a port, as wget writes it), or
 *   else a single {@code Cookie:} header line, prefix optional. A cookie whose value a request cannot carry (a
 *   character outside ASCII, a control character, {@code ;}) is left out, its name in {@link Parsed#dropped()}; at
 *   least one cookie must remain, else the input is refused with what is wrong with the first one.</li>
 *   <li>{@link CredentialType#BEARER}: one token, {@code Bearer } prefix optional; a character outside ASCII is
 *   refused (a token has no part to leave out).</li>
 *   <li>{@link CredentialType#HEADER}: {@code Name: value}; the name must be a token other than {@code Cookie}.</li>
 *   <li>{@link CredentialType#BASIC}: one line {@code user:password}, split at the first colon (HTTP Basic's rule: a
 *   user name has none); both parts non-empty. The header HTTP Basic sends ({@code Basic dXNlcjpwYXNz}, with or
 *   without {@code Authorization: } in front) is read as the login it encodes.</li>
 *   <li>{@link CredentialType#OAUTH2}: the fields {@code token_url}, {@code client_id}, {@code client_secret} and
 *   {@code refresh_token}, one {@code name=value} per line or as a JSON object (see {@link OAuthInput}).</li>
 * </ul>
 *
 * Error messages name the 1-based line or the JSON array index and the field, never the secret.
 */
public final class CredentialParser {
    private static final Pattern BEARER_PREFIX = Pattern.compile("(?i)^bearer(\\s+|$)");
    private static final Pattern BASIC_HEADER = Pattern.compile("(?i)^(?:authorization:\\s*)?basic\\s+([A-Za-z0-9+/]+=*)$");

    /** Credential input (a cookie export, a token) is refused beyond this size: 1 MiB. */
    public static final int MAX_INPUT_BYTES = 1024 * 1024;

    private CredentialParser() {
    }

    /**
     * Credential input as read: the value to store, and the names of the cookies of a browser export that were
     * left out because a request cannot carry their values (never the values).
     *
     * @param credential the value to store
     * @param dropped    names of the cookies left out, in input order; empty for a token or a header
     */
    public record Parsed(ParsedCredential credential, List<String> dropped) {
        public Parsed {
            Objects.requireNonNull(credential, "credential");
            dropped = List.copyOf(dropped);
        }
    }

    /** A cookie left out of the input: its name, and what is wrong with its value (where, never the value). */
    record Dropped(String name, String problem) {
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
     * @return the value to store: without the cookies a request cannot carry ({@link #parseInput} names them)
     * @throws CredentialFormatException if {@code input} is empty or malformed, or holds no cookie a request can carry
     */
    public static ParsedCredential parse(CredentialType type, String input, String defaultDomain) {
        return parseInput(type, input, defaultDomain).credential();
    }

    /**
     * {@link #parse}, and the names of the cookies left out because a request cannot carry their values: what the
     * operator is told ("left out: nickname").
     *
     * @throws CredentialFormatException if {@code input} is empty or malformed, or holds no cookie a request can carry
     */
    public static Parsed parseInput(CredentialType type, String input, String defaultDomain) {
        Objects.requireNonNull(type, "type");
        requireInput(input);
        if (type != CredentialType.COOKIE) {
            return new Parsed(parse(type, input, defaultDomain, true), List.of());
        }
        List<Dropped> dropped = new ArrayList<>();
        List<Cookie> cookies = parseCookies(input, defaultDomain, true, dropped);
        if (cookies.isEmpty()) {
            if (dropped.size() == 1) {
                throw new CredentialFormatException(dropped.get(0).problem());
            }
            throw new CredentialFormatException("no cookie in the input can be sent: "
                    + dropped.stream().map(Dropped::problem).collect(Collectors.joining("; ")));
        }
        return new Parsed(ParsedCredential.ofCookies(cookies), dropped.stream().map(Dropped::name).toList());
    }

    /**
     * An OAuth 2.0 credential from its input and the fields given apart from it (see {@link OAuthInput}).
     *
     * @param tokenUrl the token endpoint, or {@code null} when the input holds it
     * @param clientId the client id, or {@code null} when the input holds it
     * @throws CredentialFormatException if a field is missing, unknown, given twice or malformed
     */
    public static ParsedCredential parseOAuth(String input, String tokenUrl, String clientId) {
        requireInput(input);
        java.util.Map<String, String> given = new java.util.HashMap<>();
        given.put("token_url", tokenUrl);
        given.put("client_id", clientId);
        return ParsedCredential.ofOAuth(OAuthInput.parse(input, given));
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
        requireInput(input);
        return switch (type) {
            case COOKIE -> ParsedCredential.ofCookies(parseCookies(input, defaultDomain, sendable, new ArrayList<>()));
            case BEARER -> ParsedCredential.ofToken(parseToken(input, sendable));
            case HEADER -> parseHeader(input, sendable);
            case BASIC -> parseBasic(input);
            case OAUTH2 -> ParsedCredential.ofOAuth(OAuthInput.parse(input));
        };
    }

    private static void requireInput(String input) {
        if (input == null || input.isBlank()) {
            throw new CredentialFormatException("input is empty");
        }
    }

    /**
     * The cookies of {@code input}; with {@code sendable}, those whose values a request cannot carry are added to
     * {@code dropped} instead (the others are checked in full first: a malformed export is refused whole).
     */
    private static List<Cookie> parseCookies(String input, String defaultDomain, boolean sendable,
                                             List<Dropped> dropped) {
        List<Cookie> cookies;
        if (JsonCookieFormat.detect(input.strip())) {
            cookies = JsonCookieFormat.parse(input, defaultDomain, sendable, dropped);
        } else if (NetscapeCookieFormat.detect(input)) {
            cookies = NetscapeCookieFormat.parse(input, dropped);
        } else {
            cookies = CookieHeaderFormat.parse(input, defaultDomain, dropped);
        }
        if (cookies.isEmpty() && dropped.isEmpty()) {
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

    private static ParsedCredential parseBasic(String input) {
        String where = "line " + Syntax.lineAt(input, firstNonWhitespace(input));
        String login = input.strip();
        Matcher header = BASIC_HEADER.matcher(login);
        if (header.matches()) {
            try {
                login = new String(java.util.Base64.getDecoder().decode(header.group(1)),
                        java.nio.charset.StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new CredentialFormatException(where + ", Basic: not Base64");
            }
        }
        for (int i = 0; i < login.length(); i++) {
            char c = login.charAt(i);
            if (c == '\r' || c == '\n') {
                throw new CredentialFormatException(where + ": expected one line \"user:password\" (contains CR or LF)");
            }
            if (Syntax.isControl(c)) {
                throw new CredentialFormatException(where + ": contains a control character");
            }
        }
        int colon = login.indexOf(':');
        if (colon < 0) {
            throw new CredentialFormatException(where + ": expected \"user:password\"");
        }
        if (colon == 0) {
            throw new CredentialFormatException(where + ", user: empty");
        }
        if (colon == login.length() - 1) {
            throw new CredentialFormatException(where + ", password: empty");
        }
        return ParsedCredential.ofBasic(login.substring(0, colon), login.substring(colon + 1));
    }

    private static int firstNonWhitespace(String input) {
        return input.length() - input.stripLeading().length();
    }
}
