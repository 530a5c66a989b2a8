package io.keyline.credentials;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Parses a Netscape {@code cookies.txt}: one cookie per line as 7 TAB-separated fields (domain,
 * include-subdomains, path, secure, expiry, name, value); {@code #} starts a comment except for the
 * {@code #HttpOnly_} domain prefix; blank lines are ignored.
 */
final class NetscapeCookieFormat {
    private static final String HTTP_ONLY_PREFIX = "#HttpOnly_";
    private static final int FIELDS = 7;

    private NetscapeCookieFormat() {
    }

    /** Whether {@code input} looks like a cookies.txt: a 7-field TAB-separated line or the file header comment. */
    static boolean detect(String input) {
        return input.lines().anyMatch(line -> line.split("\t", -1).length == FIELDS
                || line.startsWith("#") && line.toLowerCase(Locale.ROOT).contains("http cookie file"));
    }

    /** @param dropped where a cookie whose value a request cannot carry goes instead of the result */
    static List<Cookie> parse(String input, List<CredentialParser.Dropped> dropped) {
        List<Cookie> cookies = new ArrayList<>();
        List<String> lines = input.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            boolean httpOnly = line.startsWith(HTTP_ONLY_PREFIX);
            if (httpOnly) {
                line = line.substring(HTTP_ONLY_PREFIX.length());
            } else if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String where = "line " + (i + 1);
            Cookie cookie = parseLine(line, httpOnly, where);
            Optional<String> unsendable = Syntax.sendableCookieValueProblem(cookie.value());
            if (unsendable.isPresent()) {
                dropped.add(new CredentialParser.Dropped(cookie.name(), where + ", field 7 (value): " + unsendable.get()));
            } else {
                cookies.add(cookie);
            }
        }
        return cookies;
    }

    private static Cookie parseLine(String line, boolean httpOnly, String where) {
        String[] f = line.split("\t", -1);
        if (f.length != FIELDS) {
            throw new CredentialFormatException(where + ": expected " + FIELDS + " tab-separated fields, got " + f.length);
        }
        if (f[0].isBlank()) {
            throw new CredentialFormatException(where + ", field 1 (domain): empty");
        }
        Syntax.domainProblem(f[0]).ifPresent(problem -> {
            throw new CredentialFormatException(where + ", field 1 (domain): " + problem);
        });
        boolean includeSubdomains = bool(f[1], where + ", field 2 (include subdomains)");
        if (!f[2].startsWith("/")) {
            throw new CredentialFormatException(where + ", field 3 (path): must start with '/'");
        }
        boolean secure = bool(f[3], where + ", field 4 (secure)");
        Instant expires = expiry(f[4], where + ", field 5 (expiry)");
        Syntax.tokenProblem(f[5]).ifPresent(problem -> {
            throw new CredentialFormatException(where + ", field 6 (name): " + problem);
        });
        return new Cookie(f[5], f[6], f[0], includeSubdomains, f[2], secure, httpOnly, expires);
    }

    private static boolean bool(String field, String where) {
        if (field.equalsIgnoreCase("TRUE")) {
            return true;
        }
        if (field.equalsIgnoreCase("FALSE")) {
            return false;
        }
        throw new CredentialFormatException(where + ": expected TRUE or FALSE");
    }

    /** Unix seconds; 0 means a session cookie ({@code null}). */
    private static Instant expiry(String field, String where) {
        try {
            long seconds = Long.parseLong(field);
            if (seconds >= 0 && seconds <= Syntax.LATEST_EXPIRY.getEpochSecond()) {
                return seconds == 0 ? null : Instant.ofEpochSecond(seconds);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new CredentialFormatException(where + ": expected a non-negative integer (Unix seconds, 0 for a session cookie)");
    }
}
