package io.keyline.text;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A message to be put into words by whoever shows it: a bundle key and its arguments, said in the language in
 * use when it is shown ({@link #text}). Machine output keeps the English words: as JSON it is its English text
 * ({@link #english}), so {@code --json} reads the same in every language. An argument that is itself a
 * {@code Said} is said in the same language; other arguments are put in as {@link java.text.MessageFormat}
 * puts them (a {@code String} as it is).
 *
 * @param key  the bundle key, or {@code null} for a text that is shown as it is (an answer from outside, a
 *             sentence an older state stored)
 * @param args the arguments, or for a text shown as it is its one text
 */
public record Said(String key, List<Object> args) {

    public Said {
        args = args.stream().map(Said::kept).toList();
    }

    /**
     * An argument as a {@code Said} keeps it: another {@code Said}, a text, a number (a whole number as an
     * {@code Integer} where it fits), a date; anything else as its text, which is what {@link java.text.MessageFormat}
     * puts in for it. Words read back from where they were kept are then equal to the words that were kept.
     */
    private static Object kept(Object a) {
        if (a instanceof Integer || a instanceof Short || a instanceof Byte) {
            return ((Number) a).intValue();
        }
        if (a instanceof Long l) {
            return l == l.intValue() ? (Object) l.intValue() : l;
        }
        if (a instanceof Said || a instanceof String || a instanceof Number || a instanceof java.util.Date) {
            return a;
        }
        return String.valueOf(Objects.requireNonNull(a));
    }

    /** The message {@code key} with {@code args}. */
    public static Said of(String key, Object... args) {
        return new Said(Objects.requireNonNull(key), Arrays.stream(args).map(a -> a == null ? "" : a).toList());
    }

    /** A text shown as it is, in every language (data, not a sentence of the bundles). */
    public static Said plain(String text) {
        return new Said(null, List.of(text == null ? "" : text));
    }

    /**
     * The same words with {@code f} applied to every text among the arguments, nested words' too (a redaction:
     * what it hides never reaches any language).
     */
    public Said map(UnaryOperator<String> f) {
        return new Said(key, args.stream().map(a -> a instanceof String s ? f.apply(s)
                : a instanceof Said w ? w.map(f) : a).toList());
    }

    /** The words in the language in use. */
    public String text() {
        return in(Text.locale());
    }

    /** The words in English, as machine output keeps them. */
    @JsonValue
    public String english() {
        return in(Text.ENGLISH);
    }

    /** The words in {@code language}. */
    public String in(Locale language) {
        if (key == null) {
            return (String) args.get(0);
        }
        Object[] a = args.stream().map(x -> x instanceof Said s ? s.in(language) : x).toArray();
        return Text.in(language, key, a);
    }

    /** {@link #text}: a {@code Said} put into a message is said in the language in use. */
    @Override
    public String toString() {
        return text();
    }
}
