package io.keyline.core.match;

/**
 * {@code {key}} and {@code {job}} in a condition's values and patterns: inserted as literal text, quoted
 * inside a pattern (a key {@code 2026-11-29} matches itself, never "any character"). Any other text in braces
 * stays as written (in a pattern, {@code [0-9]{4}} is a repetition).
 */
public final class ConditionText {

    private ConditionText() {
    }

    /** What a condition is evaluated for: the key and the job. {@link #NONE} inserts nothing. */
    public record Vars(String key, String job) {
        public static final Vars NONE = new Vars(null, null);
    }

    /** Whether a text holds {@code {key}} or {@code {job}}. */
    public static boolean hasPlaceholder(String text) {
        return text.contains("{key}") || text.contains("{job}");
    }

    /** {@code text} with {@code {key}} and {@code {job}} replaced by their values. */
    public static String literal(String text, Vars vars) {
        if (vars.key() == null || !hasPlaceholder(text)) {
            return text;
        }
        return text.replace("{key}", vars.key()).replace("{job}", vars.job());
    }

    /** {@code regex} with {@code {key}} and {@code {job}} replaced by patterns that match exactly their values. */
    public static String pattern(String regex, Vars vars) {
        if (!hasPlaceholder(regex)) {
            return regex;
        }
        String key = vars.key() == null ? "{key}" : vars.key();
        String job = vars.job() == null ? "{job}" : vars.job();
        return regex.replace("{key}", Patterns.quote(key)).replace("{job}", Patterns.quote(job));
    }
}
