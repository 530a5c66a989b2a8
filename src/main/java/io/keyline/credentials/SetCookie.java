package io.keyline.credentials;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * One {@code Set-Cookie} header as RFC 6265 §5.2 reads it: the name and value before the first {@code ;},
 * then attributes, unknown ones ignored. {@link java.net.HttpCookie} is not used: it takes a cookie with
 * {@code Max-Age} for an RFC 2965 one and counts {@code Expires} from the system clock.
 * {@link #toString()} masks the value.
 *
 * @param name     cookie name
 * @param value    cookie value (secret)
 * @param domain   the {@code Domain} attribute, lower-case without a leading dot, or {@code null} (host-only)
 * @param path     the {@code Path} attribute, or {@code null} (the request's default path)
 * @param maxAge   the {@code Max-Age} attribute in seconds, or {@code null}
 * @param expires  the {@code Expires} attribute, or {@code null}
 * @param secure   whether {@code Secure} was given
 * @param httpOnly whether {@code HttpOnly} was given
 */
public record SetCookie(String name, String value, String domain, String path, Long maxAge, Instant expires,
                        boolean secure, boolean httpOnly) {

    private static final DateTimeFormatter[] DATES = {
        DateTimeFormatter.RFC_1123_DATE_TIME,
        DateTimeFormatter.ofPattern("EEE, dd-MMM-yyyy HH:mm:ss zzz", Locale.ROOT),
        DateTimeFormatter.ofPattern("EEE, dd-MMM-yy HH:mm:ss zzz", Locale.ROOT),
        DateTimeFormatter.ofPattern("EEE MMM d HH:mm:ss yyyy", Locale.ROOT).withZone(java.time.ZoneOffset.UTC),
    };

    /** The header's cookie, or {@code null} when it has no name (RFC 6265: ignored). */
    public static SetCookie parse(String header) {
        if (header == null) {
            return null;
        }
        String[] parts = header.split(";");
        String pair = parts[0];
        int eq = pair.indexOf('=');
        if (eq <= 0) {
            return null;
        }
        String name = pair.substring(0, eq).strip();
        String value = pair.substring(eq + 1).strip();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            value = value.substring(1, value.length() - 1);
        }
        if (name.isEmpty() || name.chars().anyMatch(c -> c <= 0x20 || c == 0x7f || "()<>@,;:\\\"/[]?={}".indexOf(c) >= 0)) {
            return null;
        }
        String domain = null;
        String path = null;
        Long maxAge = null;
        Instant expires = null;
        boolean secure = false;
        boolean httpOnly = false;
        for (int i = 1; i < parts.length; i++) {
            String attr = parts[i].strip();
            int e = attr.indexOf('=');
            String key = (e < 0 ? attr : attr.substring(0, e)).strip().toLowerCase(Locale.ROOT);
            String val = e < 0 ? "" : attr.substring(e + 1).strip();
            switch (key) {
                case "domain" -> {
                    String d = val.startsWith(".") ? val.substring(1) : val;
                    domain = d.isEmpty() ? null : d.toLowerCase(Locale.ROOT);
                }
                case "path" -> path = val.startsWith("/") ? val : null;
                case "max-age" -> {
                    if (val.matches("-?[0-9]{1,18}")) {
                        maxAge = Long.parseLong(val);
                    }
                }
                case "expires" -> expires = date(val);
                case "secure" -> secure = true;
                case "httponly" -> httpOnly = true;
                default -> {
                    // SameSite, Priority, Partitioned, …: nothing Keyline acts on
                }
            }
        }
        return new SetCookie(name, value, domain, path, maxAge, expires, secure, httpOnly);
    }

    private static Instant date(String text) {
        for (DateTimeFormatter f : DATES) {
            try {
                return ZonedDateTime.parse(text, f).toInstant();
            } catch (java.time.DateTimeException ignored) {
                // the next form
            }
        }
        return null;
    }

    /**
     * When the cookie expires, counted from {@code now}: {@code Max-Age} wins over {@code Expires}
     * (RFC 6265 §5.3); {@code null} for a session cookie.
     */
    public Instant expiry(Instant now) {
        if (maxAge != null) {
            return maxAge <= 0 ? Instant.EPOCH : now.plusSeconds(Math.min(maxAge, 400L * 24 * 3600));
        }
        return expires;
    }

    @Override
    public String toString() {
        return "SetCookie[" + name + "=***" + (domain == null ? "" : "; Domain=" + domain)
                + (path == null ? "" : "; Path=" + path) + "]";
    }
}
