package io.keyline.domain;

/**
 * Text from outside (server answers, command output, job files, keys) made safe to show on a
 * terminal or in a label: every character that a terminal or a text renderer would act on instead
 * of showing becomes a visible escape. The command line prints through it and the console's labels
 * show the same text.
 *
 * <ul>
 *   <li>ESC as {@code \e}; other C0 controls as {@code \xNN} ({@code \r}, and in {@link #line} also
 *   {@code \n} and {@code \t}, as {@code \r}, {@code \n}, {@code \t}); DEL as {@code \x7f};</li>
 *   <li>C1 controls (U+0080..U+009F, e.g. the 8-bit CSI U+009B) as {@code \x9b};</li>
 *   <li>bidirectional controls (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069), which
 *   make text read in another order than it is stored, and the line/paragraph separators
 *   U+2028/U+2029, as {@code \u202e};</li>
 *   <li>an unpaired surrogate as {@code \ud800}.</li>
 * </ul>
 *
 * A backslash is left as it is: {@code \e} in the output may have been typed as such, but it never
 * reaches the terminal as an escape character.
 */
public final class Printable {

    private Printable() {
    }

    /** For one-line fields (a table cell, a trace line): newline and tab are escaped too. */
    public static String line(String s) {
        return escape(s, false);
    }

    /** For multi-line fields (evidence, a response body): newline and tab stay, the rest is escaped. */
    public static String text(String s) {
        return escape(s, true);
    }

    /** Whether {@link #text} would change {@code s}, i.e. whether it holds a character a terminal acts on. */
    public static boolean hasControl(String s) {
        return s != null && firstUnsafe(s, true) >= 0;
    }

    /** Whether {@code s} holds a C0/C1 control (tab and newline included), DEL, or a bidi control. */
    public static boolean hasAnyControl(String s) {
        return s != null && firstUnsafe(s, false) >= 0;
    }

    /**
     * Where {@code s} first holds a character a request header cannot carry as it is, or -1: the HTTP client writes
     * a header as one line of printable ASCII (a tab allowed); it sends {@code ?} for a Latin-1 letter and refuses
     * the rest, naming the value in its message. Job files, rendered values and credentials are checked by this one
     * rule.
     */
    public static int firstNotInHeader(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c > 0x7E || c < 0x20 && c != '\t') {
                return i;
            }
        }
        return -1;
    }

    /** A code point as it is named in a message, {@code U+000D}, {@code U+65E5}. */
    public static String codePoint(int c) {
        return String.format(java.util.Locale.ROOT, "U+%04X", c);
    }

    private static String escape(String s, boolean keepLines) {
        if (s == null) {
            return null;
        }
        int first = firstUnsafe(s, keepLines);
        if (first < 0) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length() + 16).append(s, 0, first);
        for (int i = first; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                out.append(c).append(s.charAt(++i));
            } else if (!unsafe(c, keepLines)) {
                out.append(c);
            } else if (c == 0x1b) {
                out.append("\\e");
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else if (c < 0x100) {
                out.append(String.format(java.util.Locale.ROOT, "\\x%02x", (int) c));
            } else {
                out.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
            }
        }
        return out.toString();
    }

    private static int firstUnsafe(String s, boolean keepLines) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (unsafe(c, keepLines)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean unsafe(char c, boolean keepLines) {
        if (c < 0x20) {
            return !(keepLines && (c == '\n' || c == '\t'));
        }
        if (c < 0x7f) {
            return false;
        }
        return c <= 0x9f // DEL and C1
                || c == 0x061c || c == 0x200e || c == 0x200f
                || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)
                || c == 0x2028 || c == 0x2029
                || Character.isSurrogate(c); // unpaired (pairs are skipped above)
    }
}
