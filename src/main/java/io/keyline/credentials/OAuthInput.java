package io.keyline.credentials;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads an OAuth 2.0 refresh-token credential as an operator gives it, from standard input or a file (never the
 * command line): the four fields of {@link OAuthGrant#FIELDS}, either one {@code name=value} (or {@code name: value})
 * per line, blank lines and {@code #} comments skipped, or one JSON object. A JSON object may also hold the fields of a
 * token endpoint's answer ({@code access_token}, {@code expires_in}, …), which are ignored, so that the answer to the
 * first authorization can be completed and given as it is. Any other field is refused by its name (a typo must not
 * pass silently). Messages name the line and the field, never a value.
 *
 * <p>The token endpoint must be {@code https}, or {@code http} to this machine (a loopback test): the client secret
 * and the refresh token travel in the request to it.
 */
public final class OAuthInput {

    /** Fields of a token endpoint's answer that a JSON input may carry; they are not stored. */
    private static final Set<String> ANSWER_FIELDS = Set.of("access_token", "token_type", "expires_in", "scope",
            "uid", "account_id", "team_id", "id_token", "ext_expires_in");

    private OAuthInput() {
    }

    /**
     * @throws CredentialFormatException when a field is missing, unknown, given twice or malformed
     */
    public static OAuthGrant parse(String input) {
        return parse(input, Map.of());
    }

    /**
     * {@link #parse(String)}, with fields given apart from the input (the command line's {@code --token-url} and
     * {@code --client-id}, which are no secrets); a field given both ways is refused.
     *
     * @param given fields by name, as {@link OAuthGrant#FIELDS} names them
     */
    public static OAuthGrant parse(String input, Map<String, String> given) {
        String text = input.strip();
        Map<String, String> fields = text.startsWith("{") ? json(text) : lines(input);
        given.forEach((name, value) -> {
            if (value != null) {
                put(fields, name, value.strip(), "");
            }
        });
        for (String name : OAuthGrant.FIELDS) {
            if (!fields.containsKey(name)) {
                throw new CredentialFormatException(name + ": missing (expected " + String.join(", ",
                        OAuthGrant.FIELDS) + ")");
            }
        }
        String url = fields.get("token_url");
        checkUrl(url);
        for (String name : OAuthGrant.FIELDS.subList(1, 4)) {
            checkToken(name, fields.get(name));
        }
        return new OAuthGrant(url, fields.get("client_id"), fields.get("client_secret"), fields.get("refresh_token"));
    }

    private static Map<String, String> lines(String input) {
        Map<String, String> fields = new LinkedHashMap<>();
        String[] lines = input.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            int colon = line.indexOf(':');
            int at = eq < 0 ? colon : colon < 0 ? eq : Math.min(eq, colon);
            String where = "line " + (i + 1);
            if (at <= 0) {
                throw new CredentialFormatException(where + ": expected \"name=value\" with a name of "
                        + String.join(", ", OAuthGrant.FIELDS));
            }
            String name = line.substring(0, at).strip().toLowerCase(Locale.ROOT).replace('-', '_');
            put(fields, name, line.substring(at + 1).strip(), where + ", ");
        }
        return fields;
    }

    private static Map<String, String> json(String text) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            long line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new CredentialFormatException("line " + line + ": not JSON");
        }
        if (root == null || !root.isObject()) {
            throw new CredentialFormatException("expected a JSON object");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        var it = root.fields();
        while (it.hasNext()) {
            var e = it.next();
            if (ANSWER_FIELDS.contains(e.getKey())) {
                continue;
            }
            if (!e.getValue().isTextual()) {
                throw new CredentialFormatException(e.getKey() + ": expected a string");
            }
            put(fields, e.getKey(), e.getValue().asText(), "");
        }
        return fields;
    }

    private static void put(Map<String, String> fields, String name, String value, String where) {
        if (!OAuthGrant.FIELDS.contains(name)) {
            throw new CredentialFormatException(where + "unknown field " + shown(name) + ": expected "
                    + String.join(", ", OAuthGrant.FIELDS));
        }
        if (fields.containsKey(name)) {
            throw new CredentialFormatException(where + name + ": given twice");
        }
        if (value.isEmpty()) {
            throw new CredentialFormatException(where + name + ": empty");
        }
        fields.put(name, value);
    }

    /** A field name as an error may show it: a line with a value but no name must not show the value. */
    private static String shown(String name) {
        return name.matches("[a-z_]{1,32}") ? "\"" + name + "\"" : "(not shown: not a field name)";
    }

    private static void checkToken(String name, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
                throw new CredentialFormatException(name + ": contains whitespace");
            }
            if (Syntax.isControl(c)) {
                throw new CredentialFormatException(name + ": contains a control character");
            }
        }
        Syntax.notAscii(value).ifPresent(problem -> {
            throw new CredentialFormatException(name + ": " + problem);
        });
    }

    private static void checkUrl(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new CredentialFormatException("token_url: not a URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (uri.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))) {
            throw new CredentialFormatException("token_url: expected an https URL");
        }
        if (scheme.equals("http") && !loopback(uri.getHost())) {
            throw new CredentialFormatException("token_url: expected https (the client secret and the refresh token "
                    + "travel to it); http is allowed only to this machine");
        }
        if (uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
            throw new CredentialFormatException("token_url: a user or a fragment is not allowed");
        }
    }

    private static boolean loopback(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return h.equals("localhost") || h.startsWith("127.") || h.equals("[::1]") || h.equals("::1");
    }
}
