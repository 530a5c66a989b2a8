package io.keyline.core.jobfile;

import io.keyline.text.Said;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The placeholders of a command hook's arguments: {@code {job}}, {@code {key}}, {@code {state}};
 * {@code {{} and {@code }}} are literal braces. A value is put in as it is and the argument stays one
 * argument. These values are validated (a job name, a key, a state's name), so a shell may read them;
 * the event's message, text from outside, reaches a hook only through its environment and standard
 * input ({@code {message}} is refused when {@code notify.json} is read).
 */
public final class HookTemplate {

    /** The event fields a hook is given (in its environment; the first three also as placeholders). */
    public static final List<String> NAMES = List.of("job", "key", "state", "message");
    /** The placeholders a hook's arguments may use. */
    public static final List<String> ARGUMENT_NAMES = List.of("job", "key", "state");
    /** The placeholder that is refused in arguments: the message. */
    public static final String MESSAGE = "message";

    private HookTemplate() {
    }

    /** A placeholder: its name and the 0-based index of its opening brace. */
    public record Placeholder(String name, int index) {
    }

    /** A malformed argument: what is wrong and the 0-based index of the brace. */
    public static final class SyntaxError extends IllegalArgumentException {
        private final int index;
        private final transient Said said;

        SyntaxError(int index, Said said) {
            super(said.english());
            this.index = index;
            this.said = said;
        }

        /** What is wrong; {@link #getMessage()} is its English. */
        public Said said() {
            return said;
        }

        public int index() {
            return index;
        }
    }

    /** The placeholders of {@code arg} (any name; the caller checks them against {@link #NAMES}). */
    public static List<Placeholder> scan(String arg) {
        List<Placeholder> out = new ArrayList<>();
        walk(arg, out, null, null);
        return out;
    }

    /** {@code arg} with each placeholder replaced by its value ({@code ""} for a missing one). */
    public static String render(String arg, Map<String, String> values) {
        StringBuilder sb = new StringBuilder();
        walk(arg, new ArrayList<>(), values, sb);
        return sb.toString();
    }

    private static void walk(String s, List<Placeholder> found, Map<String, String> values, StringBuilder out) {
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            boolean doubled = i + 1 < s.length() && s.charAt(i + 1) == c;
            if ((c == '{' || c == '}') && doubled) {
                append(out, String.valueOf(c));
                i += 2;
            } else if (c == '}') {
                throw new SyntaxError(i, Said.of("core.template.loneClose", "\"}\"", "\"}}\""));
            } else if (c == '{') {
                int close = s.indexOf('}', i);
                if (close < 0) {
                    throw new SyntaxError(i, Said.of("core.template.unterminated", "\"{\"", "\"{{\""));
                }
                String name = s.substring(i + 1, close);
                found.add(new Placeholder(name, i));
                if (values != null) {
                    append(out, values.getOrDefault(name, ""));
                }
                i = close + 1;
            } else {
                append(out, String.valueOf(c));
                i++;
            }
        }
    }

    private static void append(StringBuilder out, String s) {
        if (out != null) {
            out.append(s);
        }
    }
}
