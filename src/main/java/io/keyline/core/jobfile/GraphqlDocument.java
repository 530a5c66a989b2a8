package io.keyline.core.jobfile;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Just enough of GraphQL's grammar to tell what a document asks: the kind of each of its definitions
 * ({@code query}, {@code mutation}, {@code subscription}, {@code fragment}; a document that starts with
 * {@code {} is a query). Strings, block strings and comments are skipped as the language defines them, so a word
 * inside one is not a definition; braces, parentheses and brackets are counted, so a field named
 * {@code mutation} inside a selection is not one either. It executes nothing and checks no schema.
 */
final class GraphqlDocument {

    private static final Set<String> OPERATIONS = Set.of("query", "mutation", "subscription");

    private GraphqlDocument() {
    }

    /**
     * The kinds of the document's definitions in order, or {@code null} when the text is not an executable GraphQL
     * document (free text for a search, a schema, something the lexer does not know): every definition must start
     * with an operation keyword, {@code fragment} or {@code {}, and end with its selection set.
     */
    static List<String> definitions(String text) {
        List<String> kinds = new ArrayList<>();
        int braces = 0;
        int others = 0;
        boolean expectStart = true;
        boolean selected = false;
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '\uFEFF') {
                i++;
                continue;
            }
            if (c == '#') {
                while (i < n && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
                    i++;
                }
                continue;
            }
            String name = null;
            if (c == '"') {
                i = skipString(text, i);
                if (i < 0) {
                    return null;
                }
            } else if (Character.isLetter(c) && c < 128 || c == '_') {
                int start = i;
                while (i < n && (text.charAt(i) < 128 && Character.isLetterOrDigit(text.charAt(i))
                        || text.charAt(i) == '_')) {
                    i++;
                }
                name = text.substring(start, i);
            } else if (c >= '0' && c <= '9' || c == '-') {
                i++;
                while (i < n && ("0123456789.eE+-".indexOf(text.charAt(i)) >= 0)) {
                    i++;
                }
            } else if (text.startsWith("...", i)) {
                i += 3;
            } else if ("{}()[]:=@$!|&".indexOf(c) >= 0) {
                i++;
            } else {
                return null;
            }
            boolean top = braces == 0 && others == 0;
            if (top && expectStart) {
                if (c == '{') {
                    kinds.add("query");
                } else if (name != null && (OPERATIONS.contains(name) || name.equals("fragment"))) {
                    kinds.add(name);
                } else {
                    return null;
                }
                expectStart = false;
                selected = false;
            }
            if (c == '{' && name == null) {
                braces++;
                selected |= top;
            } else if (c == '}' && name == null) {
                if (--braces < 0) {
                    return null;
                }
                if (braces == 0 && others == 0 && selected) {
                    expectStart = true;
                }
            } else if ((c == '(' || c == '[') && name == null) {
                others++;
            } else if ((c == ')' || c == ']') && name == null && --others < 0) {
                return null;
            }
        }
        return kinds.isEmpty() || !expectStart || braces != 0 || others != 0 ? null : kinds;
    }

    /** The index after the string or block string that starts at {@code i}, or -1 if it does not end. */
    private static int skipString(String text, int i) {
        if (text.startsWith("\"\"\"", i)) {
            for (int j = i + 3; j < text.length(); j++) {
                if (text.startsWith("\\\"\"\"", j)) {
                    j += 3;
                } else if (text.startsWith("\"\"\"", j)) {
                    return j + 3;
                }
            }
            return -1;
        }
        for (int j = i + 1; j < text.length(); j++) {
            char c = text.charAt(j);
            if (c == '\\') {
                j++;
            } else if (c == '"') {
                return j + 1;
            } else if (c == '\n' || c == '\r') {
                return -1;
            }
        }
        return -1;
    }
}
