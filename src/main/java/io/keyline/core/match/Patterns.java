package io.keyline.core.match;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Regular expressions from job files, run on what servers answer: RE2 syntax on RE2/J, whose matching time
 * grows linearly with the text (no backtracking), so that no answer can make a pattern run for ever. Patterns
 * a backtracking engine needs (backreferences, lookaround, possessive quantifiers) are refused when the job
 * loads, with the position of the construct.
 */
public final class Patterns {

    /** A cache of compiled patterns: job files hold few, and a compiled RE2/J pattern is thread-safe. */
    private static final Map<String, Pattern> COMPILED = new ConcurrentHashMap<>();
    private static final int CACHE_LIMIT = 4096;

    private Patterns() {
    }

    /**
     * Why a pattern cannot be used.
     *
     * @param index 0-based index of the construct in the pattern, or -1 when it has no place
     * @param said  what is wrong (RE2's own words, in English) and what to write instead where there is a way
     */
    public record Problem(int index, io.keyline.text.Said said) {
    }

    /** Why {@code regex} does not compile as RE2, or {@code null} when it does. */
    public static Problem problem(String regex) {
        try {
            Pattern.compile(regex);
            return null;
        } catch (PatternSyntaxException e) {
            String what = e.getDescription();
            String msg = e.getMessage() == null ? "" : e.getMessage();
            int tick = msg.indexOf('`');
            String fragment = tick >= 0 && msg.endsWith("`") && msg.length() > tick + 1
                    ? msg.substring(tick + 1, msg.length() - 1) : null;
            int index = fragment == null || fragment.isEmpty() ? -1 : regex.indexOf(fragment);
            boolean whole = fragment == null || fragment.equals(regex);
            return new Problem(index, io.keyline.text.Said.of("core.regex.problem", what, whole ? "" : " " + fragment,
                    hint(whole ? null : fragment)));
        }
    }

    private static io.keyline.text.Said hint(String fragment) {
        if (fragment == null) {
            return io.keyline.text.Said.of("core.regex.re2");
        }
        if (fragment.matches("\\\\[0-9k].*")) {
            return io.keyline.text.Said.of("core.regex.backreference");
        }
        if (List.of("(?=", "(?!").contains(fragment) || fragment.startsWith("(?<=") || fragment.startsWith("(?<!")) {
            return io.keyline.text.Said.of("core.regex.lookaround", "{\"not\": ...}");
        }
        if (fragment.equals("++") || fragment.equals("*+") || fragment.equals("?+")) {
            return io.keyline.text.Said.of("core.regex.possessive");
        }
        return io.keyline.text.Said.of("core.regex.re2");
    }

    /** The compiled pattern; {@link #problem} has accepted it when the job loaded. */
    public static Pattern compile(String regex) {
        Pattern p = COMPILED.get(regex);
        if (p == null) {
            p = Pattern.compile(regex);
            if (COMPILED.size() < CACHE_LIMIT) {
                COMPILED.put(regex, p);
            }
        }
        return p;
    }

    /** Whether {@code regex} is found anywhere in {@code text}, ending by {@code deadline}. */
    public static boolean find(String regex, CharSequence text, Deadline deadline) {
        deadline.check();
        return compile(regex).matcher(deadline.guard(text)).find();
    }

    /**
     * The text of {@code group} of the first match of {@code regex} in {@code text}, or {@code null} when
     * there is none (or the group took no part in it).
     */
    public static String group(String regex, int group, CharSequence text, Deadline deadline) {
        deadline.check();
        Matcher m = compile(regex).matcher(deadline.guard(text));
        return m.find() ? m.group(group) : null;
    }

    /** How many capturing groups a valid pattern has. */
    public static int groups(String regex) {
        return compile(regex).groupCount();
    }

    /** {@code text} as a pattern that matches exactly it. */
    public static String quote(String text) {
        return Pattern.quote(text);
    }
}
