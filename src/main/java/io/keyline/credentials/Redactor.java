package io.keyline.credentials;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Replaces secrets in text (logs, outputs, error messages) with {@code ***}. Each secret is also
 * found in its standard and URL-safe Base64 forms (with and without padding) and its URL-encoded forms
 * ({@link URLEncoder} and percent-encoding of every non-unreserved character). Longer forms win over
 * shorter ones; secrets shorter than 4 characters are ignored. Immutable and thread-safe.
 */
public final class Redactor {
    /** A redactor without secrets: {@link #redact} returns its input. */
    public static final Redactor NONE = new Redactor(Set.of());

    private static final String MASK = "***";
    private static final int MIN_SECRET_LENGTH = 4;
    private static final String UNRESERVED = "-._~";

    private final Set<String> secrets;
    private final Pattern pattern;

    private Redactor(Set<String> secrets) {
        this.secrets = secrets;
        this.pattern = secrets.isEmpty() ? null : Pattern.compile(secrets.stream()
                .flatMap(Redactor::forms)
                .distinct()
                .sorted(Comparator.comparingInt(String::length).reversed().thenComparing(Comparator.naturalOrder()))
                .map(Pattern::quote)
                .collect(Collectors.joining("|")));
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
        return of(Stream.concat(secrets.stream(), more.stream()).toList());
    }

    /** {@code text} with every form of every secret replaced by {@code ***}; {@code null} stays {@code null}. */
    public String redact(String text) {
        if (pattern == null || text == null) {
            return text;
        }
        return pattern.matcher(text).replaceAll(Matcher.quoteReplacement(MASK));
    }

    private static Stream<String> forms(String secret) {
        byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
        return Stream.of(
                secret,
                Base64.getEncoder().encodeToString(bytes),
                Base64.getEncoder().withoutPadding().encodeToString(bytes),
                Base64.getUrlEncoder().encodeToString(bytes),
                Base64.getUrlEncoder().withoutPadding().encodeToString(bytes),
                URLEncoder.encode(secret, StandardCharsets.UTF_8),
                percentEncode(bytes));
    }

    /** RFC 3986 percent-encoding of every byte that is not an unreserved character. */
    private static String percentEncode(byte[] bytes) {
        StringBuilder encoded = new StringBuilder(bytes.length * 3);
        for (byte b : bytes) {
            char c = (char) (b & 0xFF);
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || UNRESERVED.indexOf(c) >= 0) {
                encoded.append(c);
            } else {
                encoded.append('%').append(String.format("%02X", b & 0xFF));
            }
        }
        return encoded.toString();
    }
}
