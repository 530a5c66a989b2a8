package io.keyline.domain;

/**
 * One rule of an http step's or probe's {@code extract}: where a value is taken from an answer that passed
 * the response rules. The value becomes an output of the step ({@code {steps.ID.outputs.NAME}}). A rule that
 * finds nothing, or only an empty value, fails the step ({@code FATAL}) unless it is {@linkplain #optional()
 * optional}.
 */
public sealed interface Extraction {

    /** Whether the step succeeds without this value (the output is then absent). */
    boolean optional();

    /** How messages name the rule, e.g. {@code css "input[name=sectok]" attr value}. */
    String describe();

    /**
     * Whether the value is a secret ({@code "secret": true}): sent as any output, masked wherever the key is shown
     * (evidence, events, exports, the timeline, screens).
     */
    boolean secret();

    /**
     * {@code {"css": SELECTOR, "attr": NAME}} or {@code {"css": SELECTOR, "text": true}}: the first element of
     * the HTML answer that the selector finds; its attribute, or its text (whitespace normalized).
     *
     * @param attribute the attribute to read, or {@code null} for the element's text
     */
    record Css(String selector, String attribute, boolean optional, boolean secret) implements Extraction {
        @Override
        public String describe() {
            return "css \"" + selector + "\"" + (attribute == null ? " text" : " attr " + attribute);
        }
    }

    /**
     * {@code {"json": POINTER}}: the value at an RFC 6901 pointer of the JSON answer; a string as it is, a
     * number, boolean or JSON object or array as its JSON text; {@code null} counts as not found.
     */
    record Json(String pointer, boolean optional, boolean secret) implements Extraction {
        @Override
        public String describe() {
            return "json " + (pointer.isEmpty() ? "\"\"" : pointer);
        }
    }

    /** {@code {"header": NAME}}: the first value of a header of the answer (names ignore case). */
    record Header(String name, boolean optional, boolean secret) implements Extraction {
        @Override
        public String describe() {
            return "header " + name;
        }
    }

    /** {@code {"cookie": NAME}}: the value a {@code Set-Cookie} of the answer gives the cookie (the last one). */
    record Cookie(String name, boolean optional, boolean secret) implements Extraction {
        @Override
        public String describe() {
            return "cookie " + name;
        }
    }

    /**
     * {@code {"regex": PATTERN, "group": N}}: a capturing group of the first match in the body (RE2 syntax,
     * linear time). Without {@code group}: group 1 when the pattern has a group, else the whole match.
     */
    record Regex(String pattern, int group, boolean optional, boolean secret) implements Extraction {
        @Override
        public String describe() {
            return "regex \"" + pattern + "\"" + (group == 0 ? "" : " group " + group);
        }
    }
}
