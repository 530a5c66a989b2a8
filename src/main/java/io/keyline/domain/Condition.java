package io.keyline.domain;

import java.util.List;

/**
 * A test of an HTTP answer, used by a probe's {@code presentWhen} and by the
 * response rules {@code successWhen}, {@code authWhen} and {@code retryWhen}. Values are kept as canonical
 * JSON text (see {@code CanonicalJson}), so that they compare by JSON type: the string {@code "0"} is not
 * the number {@code 0}, and numbers compare by value ({@code 1.50} is {@code 1.5}). String values, texts
 * and patterns may hold {@code {key}} and {@code {job}}: the key and job the answer is read for, inserted as
 * literal text (quoted inside a pattern).
 */
public sealed interface Condition {

    /** How a {@link Compare} compares the value at its pointer with its operands. */
    enum Comparison {
        EQUALS, NOT_EQUALS, IN, NOT_IN
    }

    /**
     * {@code {"jsonPointer": P, "equals" | "notEquals" | "in" | "notIn": V}}.
     *
     * @param jsonPointer RFC 6901 pointer into the JSON body ({@code ""} is the whole body)
     * @param comparison  how to compare
     * @param operands    canonical JSON texts: one for equals/notEquals, one or more for in/notIn
     */
    record Compare(String jsonPointer, Comparison comparison, List<String> operands) implements Condition {
        public Compare {
            operands = List.copyOf(operands);
        }
    }

    /**
     * {@code {"jsonPointer": P, "exists": true|false}}: whether the pointer resolves to a value other than null.
     */
    record Exists(String jsonPointer, boolean exists) implements Condition {
    }

    /** {@code {"status": [..]}}: the HTTP status is one of these. */
    record Status(List<Integer> codes) implements Condition {
        public Status {
            codes = List.copyOf(codes);
        }
    }

    /** {@code {"bodyContains": "text"}}: the body (as UTF-8 text) contains the text. */
    record BodyContains(String text) implements Condition {
    }

    /**
     * {@code {"header": "Name", "matches": "regex"}}: a value of the header contains a match of the
     * regular expression (RE2 syntax, matched in linear time; anchor it with {@code ^…$} for a whole-value
     * match). Validated when the job loads.
     */
    record Header(String name, String regex) implements Condition {
    }

    /**
     * {@code {"bodyMatches": "regex"}}: the body (as UTF-8 text) contains a match of the regular expression (RE2
     * syntax, matched in linear time; anchor it with {@code ^…$} for the whole body). Validated when the job loads.
     */
    record BodyMatches(String regex) implements Condition {
    }

    /** {@code {"not": C}}: the condition does not hold (one that cannot be decided stays undecided). */
    record Not(Condition condition) implements Condition {
    }

    /** {@code {"all": [..]}}: every condition holds. */
    record All(List<Condition> conditions) implements Condition {
        public All {
            conditions = List.copyOf(conditions);
        }
    }

    /** {@code {"any": [..]}}: at least one condition holds. */
    record Any(List<Condition> conditions) implements Condition {
        public Any {
            conditions = List.copyOf(conditions);
        }
    }
}
