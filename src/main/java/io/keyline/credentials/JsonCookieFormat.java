package io.keyline.credentials;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads cookie arrays as browser exporters write them (EditThisCookie, Cookie-Editor,
 * {@code chrome.cookies}, Puppeteer/Playwright), and Playwright's {@code storageState} object (its
 * {@code cookies} array; {@code origins} is local storage and ignored), and writes the canonical form, which is itself such an
 * array: {@code name, value, domain (omitted for any host), hostOnly, path, secure, httpOnly,
 * expires (ISO-8601, omitted for session cookies)}.
 *
 * <p>Reading: {@code name} and {@code value} are required strings; {@code domain} defaults to the
 * default domain and {@code path} to {@code /}; {@code hostOnly}, when present, decides host-only,
 * otherwise a leading dot on the domain means "with subdomains"; the expiry comes from
 * {@code expirationDate} (seconds, may be fractional) or else {@code expires} (seconds, {@code -1} for a
 * session cookie, or an ISO-8601 date-time); {@code session: true} makes it a session cookie. Other
 * fields are ignored.
 */
final class JsonCookieFormat {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final BigDecimal MAX_SECONDS = BigDecimal.valueOf(Syntax.LATEST_EXPIRY.getEpochSecond());
    private static final BigDecimal SESSION_MARKER = BigDecimal.ONE.negate();

    private JsonCookieFormat() {
    }

    /** Whether {@code trimmedInput} is meant as JSON (an array, or an object by mistake). */
    static boolean detect(String trimmedInput) {
        return trimmedInput.startsWith("[") || trimmedInput.startsWith("{");
    }

    /**
     * @param sendable whether a value must be one a request can send (input), or may be any stored one
     * @param dropped  where a cookie whose value a request cannot carry goes instead of the result (input only)
     */
    static List<Cookie> parse(String input, String defaultDomain, boolean sendable,
                              List<CredentialParser.Dropped> dropped) {
        JsonNode root = readTree(input);
        String prefix = "";
        if (root.isObject() && root.has("cookies")) {
            // Playwright's storageState: {"cookies": [...], "origins": [...]}; origins hold localStorage, not cookies
            root = root.get("cookies");
            prefix = "cookies";
            if (!root.isArray()) {
                throw new CredentialFormatException("cookies: expected a JSON array of cookie objects");
            }
        } else if (!root.isArray()) {
            throw new CredentialFormatException("line 1: expected a JSON array of cookie objects, or a Playwright "
                    + "storageState object with \"cookies\"");
        }
        List<Cookie> cookies = new ArrayList<>();
        for (int i = 0; i < root.size(); i++) {
            String where = prefix + "[" + i + "]";
            Cookie cookie = parseCookie(root.get(i), where, defaultDomain);
            // a stored value loads as long as it is a cookie value at all; input must be one a request can carry
            Optional<String> unsendable = sendable ? Syntax.sendableCookieValueProblem(cookie.value())
                    : Syntax.cookieValueProblem(cookie.value());
            if (unsendable.isPresent() && !sendable) {
                throw new CredentialFormatException(where + ".value: " + unsendable.get());
            }
            if (unsendable.isPresent()) {
                dropped.add(new CredentialParser.Dropped(cookie.name(), where + ".value: " + unsendable.get()));
            } else {
                cookies.add(cookie);
            }
        }
        return cookies;
    }

    /** The canonical JSON of {@code cookies}; stable field order, no whitespace. */
    static String write(List<Cookie> cookies) {
        ArrayNode array = MAPPER.createArrayNode();
        for (Cookie cookie : cookies) {
            ObjectNode node = array.addObject();
            node.put("name", cookie.name());
            node.put("value", cookie.value());
            if (cookie.domain() != null) {
                node.put("domain", cookie.domain());
            }
            node.put("hostOnly", !cookie.includeSubdomains());
            node.put("path", cookie.path());
            node.put("secure", cookie.secure());
            node.put("httpOnly", cookie.httpOnly());
            if (cookie.expires() != null) {
                node.put("expires", cookie.expires().toString());
            }
        }
        return array.toString();
    }

    private static JsonNode readTree(String input) {
        try {
            return MAPPER.readTree(input);
        } catch (JsonProcessingException e) {
            // Jackson's message may quote the offending text, which can be secret: report the position only.
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : "line " + at.getLineNr() + ", column " + at.getColumnNr() + ": ";
            throw new CredentialFormatException(where + "invalid JSON");
        }
    }

    private static Cookie parseCookie(JsonNode node, String where, String defaultDomain) {
        if (!node.isObject()) {
            throw new CredentialFormatException(where + ": expected a JSON object");
        }
        String name = requiredString(node, "name", where);
        Syntax.tokenProblem(name).ifPresent(problem -> {
            throw new CredentialFormatException(where + ".name: " + problem);
        });
        String value = requiredString(node, "value", where);
        String domain = optionalString(node, "domain", where, defaultDomain);
        if (domain != null && domain.isBlank()) {
            throw new CredentialFormatException(where + ".domain: empty");
        }
        if (domain != null) {
            Syntax.domainProblem(domain).ifPresent(problem -> {
                throw new CredentialFormatException(where + ".domain: " + problem);
            });
        }
        String path = optionalString(node, "path", where, "/");
        if (!path.startsWith("/")) {
            throw new CredentialFormatException(where + ".path: must start with '/'");
        }
        boolean includeSubdomains = node.hasNonNull("hostOnly")
                ? !bool(node, "hostOnly", where)
                : domain != null && domain.startsWith(".");
        Instant expires = bool(node, "session", where) ? null : expiry(node, where);
        return new Cookie(name, value, domain, includeSubdomains, path,
                bool(node, "secure", where), bool(node, "httpOnly", where), expires);
    }

    private static String requiredString(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw new CredentialFormatException(where + "." + field + ": missing");
        }
        if (!value.isTextual()) {
            throw new CredentialFormatException(where + "." + field + ": expected a string");
        }
        return value.textValue();
    }

    private static String optionalString(JsonNode node, String field, String where, String fallback) {
        return node.hasNonNull(field) ? requiredString(node, field, where) : fallback;
    }

    private static boolean bool(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return false;
        }
        if (!value.isBoolean()) {
            throw new CredentialFormatException(where + "." + field + ": expected true or false");
        }
        return value.booleanValue();
    }

    private static Instant expiry(JsonNode node, String where) {
        if (node.hasNonNull("expirationDate")) {
            JsonNode value = node.get("expirationDate");
            if (value.isNumber() && value.decimalValue().signum() >= 0) {
                return epochSeconds(value.decimalValue(), where + ".expirationDate");
            }
            throw new CredentialFormatException(where + ".expirationDate: expected a non-negative number of seconds");
        }
        if (node.hasNonNull("expires")) {
            return expires(node.get("expires"), where + ".expires");
        }
        return null;
    }

    private static Instant expires(JsonNode value, String where) {
        if (value.isNumber() && value.decimalValue().compareTo(SESSION_MARKER) == 0) {
            return null;
        }
        if (value.isNumber() && value.decimalValue().signum() >= 0) {
            return epochSeconds(value.decimalValue(), where);
        }
        if (value.isTextual()) {
            try {
                return OffsetDateTime.parse(value.textValue()).toInstant();
            } catch (DateTimeException e) {
                // reported below
            }
        }
        throw new CredentialFormatException(where
                + ": expected seconds since the epoch, -1 for a session cookie, or an ISO-8601 date-time");
    }

    private static Instant epochSeconds(BigDecimal seconds, String where) {
        if (seconds.compareTo(MAX_SECONDS) > 0) {
            throw new CredentialFormatException(where + ": later than " + Syntax.LATEST_EXPIRY);
        }
        long whole = seconds.longValue();
        long nanos = seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9).longValue();
        return Instant.ofEpochSecond(whole, nanos);
    }
}
