package io.keyline.domain;

import io.keyline.text.Said;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Strings with placeholders: {@code {key}}, {@code {job}}, {@code {runId}} and
 * {@code {steps.ID.outputs.NAME}} (ID and NAME made of {@code [A-Za-z0-9_-]}). {@code {{} and
 * {@code }}} stand for literal braces; any other brace is a syntax error.
 */
public final class Template {

    /** Placeholder names a template may use. */
    private static final Pattern NAME = Pattern.compile("key|job|runId|steps\\.[A-Za-z0-9_-]+\\.outputs\\.[A-Za-z0-9_-]+");

    private Template() {
    }

    /**
     * A placeholder occurrence.
     *
     * @param name   the name without braces, e.g. {@code key} or {@code steps.write.outputs.path}
     * @param column 1-based column of its opening brace in the template
     */
    public record Placeholder(String name, int column) {

        /** The step id of a {@code steps.ID.outputs.NAME} placeholder, else {@code null}. */
        public String stepId() {
            return name.startsWith("steps.") ? name.substring(6, name.indexOf(".outputs.")) : null;
        }

        /** The output name of a {@code steps.ID.outputs.NAME} placeholder, else {@code null}. */
        public String outputName() {
            return name.startsWith("steps.") ? name.substring(name.indexOf(".outputs.") + ".outputs.".length()) : null;
        }
    }

    /**
     * A malformed template.
     */
    public static final class SyntaxException extends IllegalArgumentException {
        private final int column;
        private final transient Said reason;

        SyntaxException(int column, Said reason) {
            super(reason.english() + " at column " + column);
            this.column = column;
            this.reason = reason;
        }

        /** @return 1-based column of the offending brace */
        public int column() {
            return column;
        }

        /** @return the message without the column */
        public String reason() {
            return reason.english();
        }

        /** The message without the column, said in the language of who shows it. */
        public Said said() {
            return reason;
        }
    }

    /**
     * The placeholders with their columns, in order of appearance (repeats included).
     *
     * @throws SyntaxException for an unterminated {@code {}, a lone {@code }} or an empty or unknown placeholder
     */
    public static List<Placeholder> scan(String template) {
        List<Placeholder> found = new ArrayList<>();
        parse(template, found);
        return found;
    }

    /**
     * Replaces every placeholder by the resolver's value for its name.
     *
     * @param resolver maps a name such as {@code key} to its value, or to {@code null} when unknown
     * @throws SyntaxException          as {@link #scan}
     * @throws IllegalArgumentException {@code unknown placeholder {x}} when the resolver returns {@code null}
     */
    public static String render(String template, Function<String, String> resolver) {
        return render(template, resolver, (placeholder, value, before) -> value);
    }

    /**
     * Encodes a value for where it lands: percent-encoding in a URL, refusing control characters in
     * a header, and so on ("values from outside are data").
     */
    @FunctionalInterface
    public interface Encoder {
        /**
         * @param placeholder the placeholder being replaced
         * @param value       the resolver's value for it
         * @param before      everything rendered before it (literal text and earlier encoded values)
         * @return the text to insert
         */
        String encode(Placeholder placeholder, String value, CharSequence before);
    }

    /**
     * Like {@link #render(String, Function)}, with every value passed through {@code encoder}.
     *
     * @throws SyntaxException          as {@link #scan}
     * @throws IllegalArgumentException {@code unknown placeholder {x}}, or what the encoder throws
     */
    public static String render(String template, Function<String, String> resolver, Encoder encoder) {
        List<Placeholder> found = new ArrayList<>();
        List<String> pieces = parse(template, found);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < found.size(); i++) {
            String value = resolver.apply(found.get(i).name());
            if (value == null) {
                throw new UnknownPlaceholder(found.get(i).name());
            }
            out.append(pieces.get(i));
            out.append(encoder.encode(found.get(i), value, out));
        }
        return out.append(pieces.get(found.size())).toString();
    }

    /**
     * The environment variable that carries output {@code name} of step {@code stepId} to every later
     * command step and command probe: {@code KEYLINE_OUTPUT_<STEP>_<NAME>}, where ASCII letters are
     * upper-cased and every other character but a digit becomes {@code _} (one {@code _} per UTF-16
     * character): step {@code meta}, output {@code slug} is {@code KEYLINE_OUTPUT_META_SLUG}; step
     * {@code fetch-page}, output {@code csrf.token} is {@code KEYLINE_OUTPUT_FETCH_PAGE_CSRF_TOKEN}.
     */
    public static String outputVariable(String stepId, String name) {
        return "KEYLINE_OUTPUT_" + variablePart(stepId) + "_" + variablePart(name);
    }

    /** {@code s} as a part of a variable name: ASCII letters upper-cased, digits kept, anything else {@code _}. */
    public static String variablePart(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'a' && c <= 'z') {
                b.append((char) (c - 'a' + 'A'));
            } else {
                b.append(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ? c : '_');
            }
        }
        return b.toString();
    }

    /**
     * Splits a template into literal pieces around its placeholders.
     *
     * @return the literal pieces, one more than the placeholders added to {@code found}
     */
    private static List<String> parse(String template, List<Placeholder> found) {
        List<String> pieces = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            boolean doubled = i + 1 < template.length() && template.charAt(i + 1) == c;
            if ((c == '{' || c == '}') && doubled) {
                literal.append(c);
                i += 2;
            } else if (c == '}') {
                throw new SyntaxException(i + 1, Said.of("core.template.loneClose", "\"}\"", "\"}}\""));
            } else if (c == '{') {
                int close = template.indexOf('}', i);
                int nextOpen = template.indexOf('{', i + 1);
                if (close < 0 || (nextOpen >= 0 && nextOpen < close)) {
                    throw new SyntaxException(i + 1, Said.of("core.template.unterminated", "\"{\"", "\"{{\""));
                }
                String name = template.substring(i + 1, close);
                if (name.isEmpty()) {
                    throw new SyntaxException(i + 1, Said.of("core.template.empty", "{}", "\"{{}}\""));
                }
                if (!NAME.matcher(name).matches()) {
                    // the name is quoted by its first characters only: a file that is not a job file is not printed
                    String shown = name.length() <= 16 ? name : name.substring(0, 16) + "…";
                    throw new SyntaxException(i + 1, Said.of("core.template.unknown", "{" + shown + "}",
                            "{key}, {job}, {runId}, {steps.ID.outputs.NAME}"));
                }
                found.add(new Placeholder(name, i + 1));
                pieces.add(literal.toString());
                literal.setLength(0);
                i = close + 1;
            } else {
                literal.append(c);
                i++;
            }
        }
        pieces.add(literal.toString());
        return pieces;
    }

    /** A placeholder the resolver knows no value for. */
    public static final class UnknownPlaceholder extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final String name;

        UnknownPlaceholder(String name) {
            super("unknown placeholder {" + name + "}");
            this.name = name;
        }

        /** The placeholder's name, without braces. */
        public String name() {
            return name;
        }
    }
}
