package io.keyline.core.jobfile;

import io.keyline.text.Said;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Typed, reporting access to the fields of one JSON object of a job file. Every accessor
 * returns {@code null} when the field is absent or invalid; an invalid field has been reported.
 */
final class ObjectView {


    private final SourceNode.Obj obj;
    private final String path;
    private final Problems problems;

    private ObjectView(SourceNode.Obj obj, String path, Problems problems) {
        this.obj = obj;
        this.path = path;
        this.problems = problems;
    }

    /**
     * Views an object and reports its unknown fields.
     *
     * @param path  the object's field path ({@code ""} for the job itself)
     * @param known the allowed field names
     */
    static ObjectView of(SourceNode.Obj obj, String path, Problems problems, List<String> known) {
        for (SourceNode.Field field : obj.fields()) {
            if (!known.contains(field.name())) {
                problems.atName(field, Said.of("core.jobfile.unknownField", Problems.quote(field.name()),
                        label(path), Suggestions.didYouMean(field.name(), known)));
            }
        }
        return new ObjectView(obj, path, problems);
    }

    /**
     * Views the value of a field that must be an object.
     *
     * @return the view, or {@code null} when the field is absent or not an object
     */
    ObjectView objectField(String name, List<String> known) {
        SourceNode.Obj child = typed(name, SourceNode.Obj.class, Said.of("core.jobfile.expect.object"));
        return child == null ? null : of(child, pathOf(name), problems, known);
    }

    /**
     * The object in field {@code name} as {@code reader} reads it; {@code null} when the field is absent, or when
     * viewing or reading it reported an error.
     */
    <T> T readObject(String name, List<String> known, Function<ObjectView, T> reader) {
        return problems.unlessReported(() -> {
            ObjectView view = objectField(name, known);
            return view == null ? null : reader.apply(view);
        });
    }

    SourceNode.Obj node() {
        return obj;
    }

    Problems problems() {
        return problems;
    }

    /** The path of a field of this object, e.g. {@code steps[0].timeout}. */
    String pathOf(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    /** The label of this object in messages: its path, or {@code job}. */
    Said label() {
        return label(path);
    }

    private static Said label(String path) {
        return path.isEmpty() ? Said.of("core.jobfile.job") : Said.plain(path);
    }

    SourceNode.Field field(String name) {
        return obj.field(name);
    }

    boolean has(String name) {
        return obj.field(name) != null;
    }

    /** Reports a missing required field at the object's opening brace; returns whether it is present. */
    boolean require(String name) {
        return require(name, null);
    }

    /**
     * Reports a missing required field at the object's opening brace, with a hint (what the field holds) in
     * brackets; returns whether it is present.
     */
    boolean require(String name, Said hint) {
        if (has(name)) {
            return true;
        }
        String quoted = "\"" + name + "\"";
        problems.at(obj, hint == null ? Said.of("core.jobfile.missingField", quoted, label())
                : Said.of("core.jobfile.missingFieldHint", quoted, label(), hint));
        return false;
    }

    /**
     * Reports a field that is present although it may not be.
     *
     * @param why the message that says where it is not allowed, with the field's path as its argument
     */
    void forbid(String name, String why) {
        SourceNode.Field field = field(name);
        if (field != null) {
            problems.atName(field, Said.of(why, pathOf(name)));
        }
    }

    /** {@code PATH must be EXPECTED, got WHAT}: a JSON type ({@link Problems#type}) or the value itself. */
    static Said mustBe(String path, Said expected, Object got) {
        return Said.of(got instanceof Said ? "core.jobfile.mustBe" : "core.jobfile.mustBeValue", path, expected, got);
    }

    /** The field's value if it has the given JSON type; reports a wrong type. */
    <T extends SourceNode> T typed(String name, Class<T> type, Said expected) {
        SourceNode.Field field = field(name);
        if (field == null) {
            return null;
        }
        if (!type.isInstance(field.value())) {
            problems.at(field.value(), mustBe(pathOf(name), expected, Problems.type(field.value())));
            return null;
        }
        return type.cast(field.value());
    }

    /**
     * The field's value if it has the given JSON type and something in it (characters, items or fields); reports a
     * wrong type or an empty value.
     */
    <T extends SourceNode> T nonEmpty(String name, Class<T> type, Said expected) {
        T node = typed(name, type, expected);
        if (node instanceof SourceNode.Str s && s.value().isEmpty()
                || node instanceof SourceNode.Arr a && a.items().isEmpty()
                || node instanceof SourceNode.Obj o && o.fields().isEmpty()) {
            problems.at(node, Said.of("core.jobfile.empty", pathOf(name)));
            return null;
        }
        return node;
    }

    SourceNode.Str string(String name) {
        return typed(name, SourceNode.Str.class, Said.of("core.jobfile.expect.string"));
    }

    /**
     * A JSON pointer (RFC 6901): empty, or {@code /} and tokens in which {@code ~} is only {@code ~0} or {@code ~1}.
     *
     * @param example a pointer the message shows as an example
     */
    String pointer(String name, String example) {
        SourceNode.Str str = string(name);
        if (str == null) {
            return null;
        }
        String pointer = str.value();
        if (!pointer.isEmpty() && !pointer.startsWith("/") || pointer.replaceAll("~[01]", "").contains("~")) {
            problems.at(str, Said.of("core.jobfile.notPointer", pathOf(name), Problems.quote(pointer), example));
            return null;
        }
        return pointer;
    }

    /** A string with at least one character. */
    SourceNode.Str nonEmptyString(String name) {
        return nonEmpty(name, SourceNode.Str.class, Said.of("core.jobfile.expect.string"));
    }

    /** A string that must match {@code pattern}; {@code rule} explains the pattern. */
    String matching(String name, Pattern pattern, Said rule) {
        SourceNode.Str str = string(name);
        if (str == null) {
            return null;
        }
        if (!pattern.matcher(str.value()).matches()) {
            problems.at(str, Said.of("core.jobfile.invalidValue", pathOf(name), Problems.quote(str.value()), rule));
            return null;
        }
        return str.value();
    }

    /**
     * One of a fixed set of strings.
     *
     * @param ignoreCase whether case is ignored; the option as listed is returned
     */
    String choice(String name, List<String> options, boolean ignoreCase) {
        SourceNode.Str str = typed(name, SourceNode.Str.class, Said.of("core.jobfile.expect.oneOf",
                String.join(", ", options)));
        if (str == null) {
            return null;
        }
        for (String option : options) {
            if (ignoreCase ? option.equalsIgnoreCase(str.value()) : option.equals(str.value())) {
                return option;
            }
        }
        problems.at(str, Said.of("core.jobfile.notOneOf", pathOf(name), Problems.quote(str.value()),
                String.join(", ", options)));
        return null;
    }

    /** A positive ISO-8601 duration. */
    Duration duration(String name) {
        SourceNode.Str str = typed(name, SourceNode.Str.class, Said.of("core.jobfile.expect.duration"));
        if (str == null) {
            return null;
        }
        Duration duration;
        try {
            duration = Duration.parse(str.value());
        } catch (DateTimeParseException e) {
            problems.at(str, Said.of("core.jobfile.notDuration", pathOf(name), Problems.quote(str.value())));
            return null;
        }
        if (duration.isNegative() || duration.isZero()) {
            problems.at(str, Said.of("core.jobfile.notPositive", pathOf(name), Problems.quote(str.value())));
            return null;
        }
        return duration;
    }

    /** An integer from {@code min} to {@code max}. */
    Integer integer(String name, int min, int max) {
        Said expected = Said.of("core.jobfile.expect.integer", String.valueOf(min), String.valueOf(max));
        SourceNode.Num num = typed(name, SourceNode.Num.class, expected);
        if (num == null) {
            return null;
        }
        if (!num.integral() || num.value().compareTo(BigDecimal.valueOf(min)) < 0
                || num.value().compareTo(BigDecimal.valueOf(max)) > 0) {
            problems.at(num, mustBe(pathOf(name), expected, CanonicalJson.number(num.value())));
            return null;
        }
        return num.value().intValue();
    }

    /** A number from {@code min} to {@code max}, both included. */
    Double number(String name, String min, String max) {
        Said expected = Said.of("core.jobfile.expect.number", min, max);
        SourceNode.Num num = typed(name, SourceNode.Num.class, expected);
        if (num == null) {
            return null;
        }
        if (num.value().compareTo(new BigDecimal(min)) < 0 || num.value().compareTo(new BigDecimal(max)) > 0) {
            problems.at(num, mustBe(pathOf(name), expected, CanonicalJson.number(num.value())));
            return null;
        }
        return num.value().doubleValue();
    }

    /** A boolean. */
    Boolean bool(String name) {
        SourceNode.Bool bool = typed(name, SourceNode.Bool.class, Said.of("core.jobfile.expect.boolean"));
        return bool == null ? null : bool.value();
    }

    /**
     * A non-empty array of strings.
     *
     * @return the string nodes, or {@code null} if absent or invalid
     */
    List<SourceNode.Str> strings(String name) {
        SourceNode.Arr arr = nonEmpty(name, SourceNode.Arr.class, Said.of("core.jobfile.expect.strings"));
        if (arr == null) {
            return null;
        }
        List<SourceNode.Str> strings = new ArrayList<>();
        for (int i = 0; i < arr.items().size(); i++) {
            SourceNode item = arr.items().get(i);
            if (item instanceof SourceNode.Str str) {
                strings.add(str);
            } else {
                problems.at(item, mustBe(pathOf(name) + "[" + i + "]", Said.of("core.jobfile.expect.string"),
                        Problems.type(item)));
            }
        }
        return strings.size() == arr.items().size() ? strings : null;
    }

    /**
     * An object whose values are all strings.
     *
     * @return its fields, or {@code null} if absent or invalid
     */
    List<SourceNode.Field> stringFields(String name) {
        SourceNode.Obj map = typed(name, SourceNode.Obj.class, Said.of("core.jobfile.expect.stringObject"));
        if (map == null) {
            return null;
        }
        boolean valid = true;
        for (SourceNode.Field field : map.fields()) {
            if (!(field.value() instanceof SourceNode.Str)) {
                problems.at(field.value(), mustBe(pathOf(name) + "." + field.name(),
                        Said.of("core.jobfile.expect.string"), Problems.type(field.value())));
                valid = false;
            }
        }
        return valid ? map.fields() : null;
    }
}
