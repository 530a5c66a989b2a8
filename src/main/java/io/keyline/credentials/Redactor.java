package io.keyline.credentials;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Masks secrets in text that is shown or stored as a message or evidence, with {@code ***}. It is
 * given the secrets themselves (the values of a credential: a session cookie, a bearer token, a
 * header value; see {@link ParsedCredential#secretStrings()}), never words: a harmless value that
 * happens to occur in a text ({@code true}, {@code 2026}) is not one of them. It is never applied to
 * step outputs, which are data for later steps.
 *
 * <p>Each secret is found
 * <ul>
 *   <li>plain;</li>
 *   <li>in hex, lower or upper case, also with spaces between the bytes;</li>
 *   <li>in standard and URL-safe Base64, padded or not, also where it sits inside a longer encoded
 *   text at any byte offset (Base64 of {@code user:secret} as HTTP Basic sends it): the characters
 *   that depend on the secret alone are masked;</li>
 *   <li>with any of its characters percent-encoded ({@code %2F}, either case; {@code +} for a
 *   space) or JSON-escaped ({@code \u002f}, {@code \/}) - in every form above;</li>
 *   <li>split by whitespace or line breaks (also written {@code \n} as in JSON) between any two of
 *   its characters, as wrapped Base64 and log lines do.</li>
 * </ul>
 * The longest match at a position wins. Secrets shorter than 4 characters are ignored. Immutable
 * and thread-safe; fast on large texts (it looks only where a form can start).
 */
public final class Redactor {
    /** A redactor without secrets: {@link #redact} returns its input. */
    public static final Redactor NONE = new Redactor(Set.of());

    private static final String MASK = "***";
    private static final int MIN_SECRET_LENGTH = 4;
    /** A Base64 run inside a longer text is masked when at least this long (two groups). */
    private static final int MIN_EMBEDDED_BASE64 = 8;

    private final Set<String> secrets;
    /** The forms, by the character they start with (one list for every character that can start one). */
    private final Map<Character, List<char[]>> byFirst;
    /** The same for ASCII characters, without boxing: the common case on every position of a text. */
    private final char[][][] asciiFirst = new char[128][][];
    /** Forms that can start with an escape ({@code %} or a backslash) or a {@code +}: all of them. */
    private final List<char[]> all;

    private Redactor(Set<String> secrets) {
        this.secrets = secrets;
        Set<String> forms = secrets.stream().flatMap(Redactor::forms).collect(Collectors.toCollection(LinkedHashSet::new));
        this.all = forms.stream().map(String::toCharArray)
                .sorted((a, b) -> Integer.compare(b.length, a.length)).toList();
        Map<Character, List<char[]>> first = new HashMap<>();
        for (char[] f : all) {
            first.computeIfAbsent(f[0], c -> new ArrayList<>()).add(f);
        }
        this.byFirst = Map.copyOf(first);
        first.forEach((c, starting) -> {
            if (c < 128) {
                asciiFirst[c] = starting.toArray(new char[0][]);
            }
        });
    }

    /** A redactor for {@code secrets}; {@code null} entries and secrets shorter than 4 characters are ignored. */
    public static Redactor of(Collection<String> secrets) {
        Set<String> kept = secrets.stream()
                .filter(Objects::nonNull)
                .filter(secret -> secret.length() >= MIN_SECRET_LENGTH)
                .collect(Collectors.toCollection(LinkedHashSet::new));
        return kept.isEmpty() ? NONE : new Redactor(Set.copyOf(kept));
    }

    /** A redactor for this one's secrets and {@code more}. */
    public Redactor plus(Collection<String> more) {
        if (more.isEmpty()) {
            return this;
        }
        return of(Stream.concat(secrets.stream(), more.stream()).toList());
    }

    /** {@code text} with every form of every secret replaced by {@code ***}; {@code null} stays {@code null}. */
    public String redact(String text) {
        if (all.isEmpty() || text == null) {
            return text;
        }
        StringBuilder out = null;
        int copied = 0;
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            int end = -1;
            if (c == '%' || c == '\\' || c == '+') {
                for (char[] form : all) {
                    end = Math.max(end, match(text, i, form));
                }
            } else if (c < 128) {
                char[][] candidates = asciiFirst[c];
                if (candidates != null) {
                    for (char[] form : candidates) {
                        end = Math.max(end, match(text, i, form));
                    }
                }
            } else {
                List<char[]> candidates = byFirst.get(c);
                if (candidates != null) {
                    for (char[] form : candidates) {
                        end = Math.max(end, match(text, i, form));
                    }
                }
            }
            if (end > i) {
                if (out == null) {
                    out = new StringBuilder(n);
                }
                out.append(text, copied, i).append(MASK);
                copied = end;
                i = end;
            } else {
                i++;
            }
        }
        return out == null ? text : out.append(text, copied, n).toString();
    }

    /**
     * Where {@code form} ends if it starts at {@code at} in {@code text} (each character literal,
     * percent-encoded or JSON-escaped; whitespace allowed between characters), else -1.
     */
    private static int match(String text, int at, char[] form) {
        int i = at;
        for (int k = 0; k < form.length; k++) {
            int e = one(text, i, form[k]);
            if (e < 0 && k > 0) {
                int j = separators(text, i);
                if (j > i) {
                    e = one(text, j, form[k]);
                }
            }
            if (e < 0) {
                return -1;
            }
            i = e;
        }
        return i;
    }

    /** The end of character {@code c} at {@code i}: itself, {@code %XX} (UTF-8), {@code \\uXXXX}, {@code \/}, {@code +}. */
    private static int one(String text, int i, char c) {
        int n = text.length();
        if (i >= n) {
            return -1;
        }
        char t = text.charAt(i);
        if (t == c) {
            return i + 1;
        }
        if (t == '+' && c == ' ') {
            return i + 1;
        }
        if (t == '%') {
            byte[] bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
            int j = i;
            for (byte b : bytes) {
                if (j + 3 > n || text.charAt(j) != '%' || hex(text.charAt(j + 1)) != (b >> 4 & 0xF)
                        || hex(text.charAt(j + 2)) != (b & 0xF)) {
                    return -1;
                }
                j += 3;
            }
            return j;
        }
        if (t == '\\' && i + 1 < n) {
            char u = text.charAt(i + 1);
            if (u == c && (c == '/' || c == '"' || c == '\\')) {
                return i + 2;
            }
            if (u == 'u' && i + 6 <= n) {
                int v = 0;
                for (int k = i + 2; k < i + 6; k++) {
                    int h = hex(text.charAt(k));
                    if (h < 0) {
                        return -1;
                    }
                    v = v << 4 | h;
                }
                return v == c ? i + 6 : -1;
            }
        }
        return -1;
    }

    /** After whitespace and the JSON escapes {@code \n}, {@code \r}, {@code \t} that follow {@code i}. */
    private static int separators(String text, int i) {
        int n = text.length();
        int j = i;
        while (j < n) {
            char t = text.charAt(j);
            if (t == ' ' || t == '\n' || t == '\r' || t == '\t') {
                j++;
            } else if (t == '\\' && j + 1 < n && (text.charAt(j + 1) == 'n' || text.charAt(j + 1) == 'r'
                    || text.charAt(j + 1) == 't')) {
                j += 2;
            } else {
                break;
            }
        }
        return j;
    }

    private static int hex(char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

    /** The encodings a secret is looked for in (each also percent-/JSON-escaped and split, see {@link #match}). */
    static Stream<String> forms(String secret) {
        byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        out.add(secret);
        out.add(HexFormat.of().formatHex(bytes));
        out.add(HexFormat.of().withUpperCase().formatHex(bytes));
        for (Base64.Encoder enc : List.of(Base64.getEncoder(), Base64.getUrlEncoder())) {
            out.add(enc.encodeToString(bytes));
            out.add(enc.withoutPadding().encodeToString(bytes));
            // inside a longer Base64 text the secret starts at byte offset 0, 1 or 2 of a 3-byte group:
            // the groups that hold only its bytes encode the same way wherever it sits
            for (int skip = 0; skip < 3; skip++) {
                int groups = (bytes.length - skip) / 3;
                if (groups * 4 >= MIN_EMBEDDED_BASE64) {
                    byte[] middle = java.util.Arrays.copyOfRange(bytes, skip, skip + groups * 3);
                    out.add(enc.withoutPadding().encodeToString(middle));
                }
            }
        }
        return out.stream().filter(f -> !f.isEmpty()).distinct();
    }

    /**
     * Whether a cookie value is worth masking: not trivially short or low in entropy. {@code en},
     * {@code true}, {@code 2026}, {@code dark}, {@code en-US}, {@code accepted}, a date or a time are
     * not; session ids, tokens, hex, Base64, JWTs and UUIDs are. A value shorter than 8 characters
     * never is; digits alone only from 16 digits on; a value of letters and punctuation only when it
     * mixes upper and lower case, or is long and varied (20 characters, 3.5 bits of entropy each).
     */
    public static boolean worthMasking(String value) {
        if (value == null) {
            return false;
        }
        String v = value.strip();
        if (v.length() < 8) {
            return false;
        }
        if (v.chars().allMatch(Character::isDigit)) {
            return v.length() >= 16;
        }
        if (v.chars().allMatch(c -> Character.isDigit(c) || "TZ:+-./ ".indexOf(c) >= 0)) {
            return false; // dates, times, version numbers
        }
        boolean digit = v.chars().anyMatch(Character::isDigit);
        boolean lower = v.chars().anyMatch(Character::isLowerCase);
        boolean upper = v.chars().anyMatch(Character::isUpperCase);
        if (digit && (lower || upper) || lower && upper) {
            return true;
        }
        return v.length() >= 20 && entropyBits(v) >= 3.5 * v.length();
    }

    /** Shannon entropy of the value's character distribution, times its length. */
    static double entropyBits(String v) {
        Map<Integer, Integer> counts = new HashMap<>();
        v.chars().forEach(c -> counts.merge(c, 1, Integer::sum));
        double h = 0;
        for (int count : counts.values()) {
            double p = (double) count / v.length();
            h -= p * Math.log(p) / Math.log(2);
        }
        return h * v.length();
    }
}
