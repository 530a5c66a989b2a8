package io.keyline.credentials;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Parses a single {@code Cookie:} header line, {@code name=value; name2=value2}, prefix optional. */
final class CookieHeaderFormat {
    private static final String PREFIX = "cookie:";

    private CookieHeaderFormat() {
    }

    /**
     * @param input         non-blank input that holds exactly one non-blank line
     * @param defaultDomain domain given to every cookie, or {@code null} for any host
     * @param dropped       where a cookie whose value a request cannot carry goes instead of the result
     */
    static List<Cookie> parse(String input, String defaultDomain, List<CredentialParser.Dropped> dropped) {
        List<String> lines = input.lines().toList();
        int lineNo = 0;
        String header = null;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            if (header != null) {
                throw new CredentialFormatException("line " + (i + 1)
                        + ": a Cookie header must be a single line (cookies.txt fields must be separated by TABs)");
            }
            header = lines.get(i).strip();
            lineNo = i + 1;
        }
        if (header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            header = header.substring(PREFIX.length());
        }
        return parsePairs(header, "line " + lineNo, defaultDomain, dropped);
    }

    private static List<Cookie> parsePairs(String header, String line, String defaultDomain,
                                           List<CredentialParser.Dropped> dropped) {
        List<Cookie> cookies = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (String rawPair : header.split(";")) {
            String pair = rawPair.strip();
            if (pair.isEmpty()) {
                continue;
            }
            String where = line + ", cookie " + (names.size() + 1);
            int eq = pair.indexOf('=');
            if (eq < 0) {
                throw new CredentialFormatException(where + ": missing '='");
            }
            String name = pair.substring(0, eq).strip();
            String value = pair.substring(eq + 1).strip();
            Syntax.tokenProblem(name).ifPresent(problem -> {
                throw new CredentialFormatException(where + ", name: " + problem);
            });
            if (!names.add(name)) {
                throw new CredentialFormatException(where + ", name: duplicate \"" + name + "\"");
            }
            Optional<String> unsendable = Syntax.sendableCookieValueProblem(value);
            if (unsendable.isPresent()) {
                dropped.add(new CredentialParser.Dropped(name, where + ", value: " + unsendable.get()));
                continue;
            }
            cookies.add(new Cookie(name, value, defaultDomain, false, "/", false, false, null));
        }
        return cookies;
    }
}
