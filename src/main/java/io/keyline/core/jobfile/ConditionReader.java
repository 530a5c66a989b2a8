package io.keyline.core.jobfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyline.core.match.Patterns;
import io.keyline.domain.Condition;
import io.keyline.domain.Redirects;
import io.keyline.domain.ResponseRules;
import io.keyline.text.Said;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads conditions ({@code presentWhen}, {@code successWhen}, {@code authWhen},
 * {@code retryWhen}), a {@code response} object and {@code followRedirects}. Each condition object is exactly
 * one kind: {@code jsonPointer} with one of {@code equals}, {@code notEquals}, {@code in}, {@code notIn},
 * {@code exists}; {@code status}; {@code bodyContains}; {@code bodyMatches}; {@code header} with
 * {@code matches}; {@code not}; {@code all}; {@code any}. Patterns are RE2 (checked here, with the position of
 * what RE2 refuses); {@code {key}} and {@code {job}} may appear in string values, texts and patterns, no
 * other placeholder.
 */
final class ConditionReader {

    static final List<String> FIELDS = List.of("jsonPointer", "equals", "notEquals", "in", "notIn", "exists",
            "status", "bodyContains", "bodyMatches", "header", "matches", "not", "all", "any");
    static final List<String> RESPONSE_FIELDS = List.of("successWhen", "authWhen", "retryWhen", "refusedWhen");
    private static final List<String> KINDS = List.of("jsonPointer", "status", "bodyContains", "bodyMatches", "header",
            "not", "all", "any");
    private static final List<String> COMPARISONS = List.of("equals", "notEquals", "in", "notIn", "exists");
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    private ConditionReader() {
    }

    /**
     * The condition in field {@code name} of {@code owner}.
     *
     * @return the condition, or {@code null} when the field is absent or invalid (the problems are reported)
     */
    static Condition read(ObjectView owner, String name) {
        return owner.readObject(name, FIELDS, ConditionReader::condition);
    }

    /** The {@code response} object of a step or probe; {@link ResponseRules#NONE} when absent, {@code null} if invalid. */
    static ResponseRules response(ObjectView owner) {
        if (!owner.has("response")) {
            return ResponseRules.NONE;
        }
        return owner.readObject("response", RESPONSE_FIELDS, response -> {
            ResponseRules rules = new ResponseRules(read(response, "successWhen"), read(response, "authWhen"),
                    read(response, "retryWhen"), read(response, "refusedWhen"));
            // any 403 is then "try again" or "refused", an ended login too: it is sent again until its attempts are
            // spent, or the key fails and the next keys send the ended login again, instead of waiting for a new one
            warnOfBare403(owner, response, rules.retryWhen(), "retryWhen", "core.jobfile.warn.bare403");
            warnOfBare403(owner, response, rules.refusedWhen(), "refusedWhen", "core.jobfile.warn.bare403refused");
            return rules;
        });
    }

    private static void warnOfBare403(ObjectView owner, ObjectView response, Condition rule, String field,
                                      String words) {
        if (!meetsBare403(rule)) {
            return;
        }
        SourceNode.Field id = owner.field("id");
        Said step = id != null && id.value() instanceof SourceNode.Str s
                ? Said.of("core.jobfile.step", "\"" + s.value() + "\"") : owner.label();
        response.problems().warnAt(response.field(field).value(), Said.of(words, step, response.pathOf(field)));
    }

    /**
     * Whether a rule is met by any 403, whatever the site says with it: a {@code status} list with 403, alone or as
     * one of an {@code any}. A rule that also asks for the site's words ({@code all} with {@code bodyContains}) is not.
     */
    static boolean meetsBare403(Condition c) {
        return c instanceof Condition.Status s && s.codes().contains(403)
                || c instanceof Condition.Any any && any.conditions().stream().anyMatch(ConditionReader::meetsBare403);
    }

    /**
     * The {@code followRedirects} field: {@code "never"} (default) or {@code "same-origin"}, the latter
     * only for GET and HEAD ({@code method} {@code null} when it is unknown or invalid).
     */
    static Redirects redirects(ObjectView owner, String method) {
        String choice = owner.choice("followRedirects", List.of("never", "same-origin"), false);
        if (choice == null) {
            return Redirects.NEVER;
        }
        if (choice.equals("same-origin") && method != null && !method.equals("GET") && !method.equals("HEAD")) {
            owner.problems().at(owner.field("followRedirects").value(), Said.of("core.jobfile.sameOriginMethod",
                    owner.pathOf("followRedirects"), "\"same-origin\"", method));
            return null;
        }
        return choice.equals("same-origin") ? Redirects.SAME_ORIGIN : Redirects.NEVER;
    }

    private static Condition condition(ObjectView c) {
        List<String> kinds = KINDS.stream().filter(c::has).toList();
        if (kinds.isEmpty()) {
            if (COMPARISONS.stream().anyMatch(c::has)) {
                c.require("jsonPointer", Said.of("core.jobfile.hint.jsonPointer"));
            } else if (c.has("matches")) {
                c.require("header", Said.of("core.jobfile.hint.header", "\"matches\""));
            } else if (!hasUnknownField(c)) {
                c.problems().at(c.node(), Said.of("core.jobfile.needsCondition", c.label(),
                        Said.of("core.jobfile.conditionKinds")));
            }
            return null;
        }
        for (String extra : kinds.subList(1, kinds.size())) {
            c.problems().atName(c.field(extra), Said.of("core.jobfile.exclusiveCondition", c.label(), kinds.get(0),
                    extra));
        }
        if (kinds.size() > 1) {
            return null;
        }
        String kind = kinds.get(0);
        if (!kind.equals("jsonPointer")) {
            for (String comparison : COMPARISONS) {
                foreign(c, comparison, "jsonPointer");
            }
        }
        if (!kind.equals("header")) {
            foreign(c, "matches", "header");
        }
        return switch (kind) {
            case "jsonPointer" -> pointerCondition(c);
            case "status" -> status(c);
            case "bodyContains" -> bodyContains(c);
            case "bodyMatches" -> bodyMatches(c);
            case "header" -> header(c);
            case "not" -> not(c);
            default -> combination(c, kind);
        };
    }

    /** Whether the object has a misspelt field (already reported, with a suggestion): say nothing more. */
    private static boolean hasUnknownField(ObjectView c) {
        return c.node().fields().stream().anyMatch(f -> !FIELDS.contains(f.name()));
    }

    private static void foreign(ObjectView c, String field, String owner) {
        if (c.has(field)) {
            c.problems().atName(c.field(field), Said.of("core.jobfile.onlyWith", c.pathOf(field), owner));
        }
    }

    private static Condition pointerCondition(ObjectView c) {
        String pointer = jsonPointer(c);
        List<String> given = COMPARISONS.stream().filter(c::has).toList();
        if (given.isEmpty()) {
            if (!hasUnknownField(c)) {
                c.problems().at(c.node(), Said.of("core.jobfile.needsComparison", c.label(), String.join(", ", COMPARISONS),
                        "jsonPointer"));
            }
            return null;
        }
        for (String extra : given.subList(1, given.size())) {
            c.problems().atName(c.field(extra), Said.of("core.jobfile.exclusiveComparison", c.label(), given.get(0),
                    extra, String.join(", ", COMPARISONS)));
        }
        if (given.size() > 1 || pointer == null) {
            return null;
        }
        String comparison = given.get(0);
        return switch (comparison) {
            case "exists" -> {
                Boolean exists = c.bool("exists");
                yield exists == null ? null : new Condition.Exists(pointer, exists);
            }
            case "equals" -> placeholders(c, c.field("equals").value(), "equals") ? new Condition.Compare(pointer,
                    Condition.Comparison.EQUALS, List.of(CanonicalJson.of(toJson(c.field("equals").value())))) : null;
            case "notEquals" -> placeholders(c, c.field("notEquals").value(), "notEquals") ? new Condition.Compare(pointer,
                    Condition.Comparison.NOT_EQUALS, List.of(CanonicalJson.of(toJson(c.field("notEquals").value()))))
                    : null;
            default -> {
                SourceNode.Arr values = c.nonEmpty(comparison, SourceNode.Arr.class,
                        Said.of("core.jobfile.expect.jsonValues"));
                if (values == null) {
                    yield null;
                }
                boolean valid = true;
                for (int i = 0; i < values.items().size(); i++) {
                    valid &= placeholders(c, values.items().get(i), comparison + "[" + i + "]");
                }
                if (!valid) {
                    yield null;
                }
                yield new Condition.Compare(pointer, comparison.equals("in") ? Condition.Comparison.IN
                        : Condition.Comparison.NOT_IN, values.items().stream().map(v -> CanonicalJson.of(toJson(v))).toList());
            }
        };
    }

    private static String jsonPointer(ObjectView c) {
        SourceNode.Str str = c.string("jsonPointer");
        if (str == null) {
            return null;
        }
        String pointer = str.value();
        if (!pointer.isEmpty() && !pointer.startsWith("/")) {
            c.problems().at(str, Said.of("core.jobfile.pointerStart", c.pathOf("jsonPointer"), "\"" + pointer + "\""));
            return null;
        }
        if (pointer.replaceAll("~[01]", "").contains("~")) {
            c.problems().at(str, Said.of("core.jobfile.pointerTilde", c.pathOf("jsonPointer"), "\"" + pointer + "\""));
            return null;
        }
        return pointer;
    }

    private static Condition status(ObjectView c) {
        Said expected = Said.of("core.jobfile.expect.statuses");
        SourceNode.Arr arr = c.nonEmpty("status", SourceNode.Arr.class, expected);
        if (arr == null) {
            return null;
        }
        List<Integer> codes = new ArrayList<>();
        for (int i = 0; i < arr.items().size(); i++) {
            SourceNode item = arr.items().get(i);
            if (item instanceof SourceNode.Num num && num.integral() && num.value().compareTo(BigDecimal.valueOf(100)) >= 0
                    && num.value().compareTo(BigDecimal.valueOf(599)) <= 0) {
                codes.add(num.value().intValue());
            } else {
                c.problems().at(item, ObjectView.mustBe(c.pathOf("status") + "[" + i + "]",
                        Said.of("core.jobfile.expect.integer", "100", "599"),
                        item instanceof SourceNode.Num num ? CanonicalJson.number(num.value())
                        : item instanceof SourceNode.Str str ? "\"" + str.value() + "\"" : Problems.type(item)));
            }
        }
        return codes.size() == arr.items().size() ? new Condition.Status(codes) : null;
    }

    private static Condition bodyContains(ObjectView c) {
        SourceNode.Str str = c.nonEmptyString("bodyContains");
        if (str == null) {
            return null;
        }
        return placeholders(c, str, "bodyContains") ? new Condition.BodyContains(str.value()) : null;
    }

    private static Condition bodyMatches(ObjectView c) {
        SourceNode.Str str = c.nonEmptyString("bodyMatches");
        if (str == null) {
            return null;
        }
        return pattern(c, str, "bodyMatches") ? new Condition.BodyMatches(str.value()) : null;
    }

    private static Condition not(ObjectView c) {
        SourceNode.Obj inner = c.typed("not", SourceNode.Obj.class, Said.of("core.jobfile.expect.condition"));
        if (inner == null) {
            return null;
        }
        Condition part = c.problems().unlessReported(
                () -> condition(ObjectView.of(inner, c.pathOf("not"), c.problems(), FIELDS)));
        return part == null ? null : new Condition.Not(part);
    }

    /** The only placeholders a condition knows: the key and the job the answer is read for. */
    private static final Pattern OTHER_PLACEHOLDER = Pattern.compile("\\{(runId|steps\\.[A-Za-z0-9_-]+\\.outputs\\.[A-Za-z0-9_-]+)}");

    /**
     * Whether a value's strings hold no placeholder but {@code {key}} and {@code {job}} (reported otherwise: a
     * condition is read before any output of the run exists).
     */
    private static boolean placeholders(ObjectView c, SourceNode value, String field) {
        if (!(value instanceof SourceNode.Str str)) {
            return true;
        }
        java.util.regex.Matcher m = OTHER_PLACEHOLDER.matcher(str.value());
        if (m.find()) {
            c.problems().atChar(str, m.start(), Said.of("core.jobfile.placeholderInCondition", c.pathOf(field),
                    "{" + m.group(1) + "}", "{key}", "{job}"));
            return false;
        }
        return true;
    }

    /** Whether a pattern is valid RE2 (reported with the position of what is refused otherwise). */
    private static boolean pattern(ObjectView c, SourceNode.Str regex, String field) {
        if (!placeholders(c, regex, field)) {
            return false;
        }
        // {key} and {job} become quoted literals at run time; checked here as literal text of the same length
        String checked = regex.value().replace("{key}", "kkkkk").replace("{job}", "jjjjj");
        Patterns.Problem problem = Patterns.problem(checked);
        if (problem == null) {
            return true;
        }
        Said message = Said.of("core.jobfile.notRegex", c.pathOf(field), Problems.quote(regex.value()), problem.said());
        if (problem.index() >= 0 && problem.index() < regex.value().length()) {
            c.problems().atChar(regex, problem.index(), message);
        } else {
            c.problems().at(regex, message);
        }
        return false;
    }

    private static Condition header(ObjectView c) {
        SourceNode.Str name = c.string("header");
        if (name != null && !HEADER_NAME.matcher(name.value()).matches()) {
            c.problems().at(name, Said.of("core.jobfile.notHeaderName", c.pathOf("header"), "\"" + name.value() + "\"",
                    ExtractReader.TOKEN_CHARACTERS));
            name = null;
        }
        if (!c.require("matches", Said.of("core.jobfile.hint.matches"))) {
            return null;
        }
        SourceNode.Str regex = c.string("matches");
        if (regex == null || !pattern(c, regex, "matches")) {
            return null;
        }
        return name == null ? null : new Condition.Header(name.value(), regex.value());
    }

    private static Condition combination(ObjectView c, String kind) {
        SourceNode.Arr arr = c.nonEmpty(kind, SourceNode.Arr.class, Said.of("core.jobfile.expect.conditions"));
        if (arr == null) {
            return null;
        }
        List<Condition> parts = new ArrayList<>();
        for (int i = 0; i < arr.items().size(); i++) {
            SourceNode item = arr.items().get(i);
            String path = c.pathOf(kind) + "[" + i + "]";
            if (item instanceof SourceNode.Obj obj) {
                Condition part = condition(ObjectView.of(obj, path, c.problems(), FIELDS));
                if (part != null) {
                    parts.add(part);
                }
            } else {
                c.problems().at(item, ObjectView.mustBe(path, Said.of("core.jobfile.expect.condition"), Problems.type(item)));
            }
        }
        if (parts.size() != arr.items().size()) {
            return null;
        }
        return kind.equals("all") ? new Condition.All(parts) : new Condition.Any(parts);
    }

    static JsonNode toJson(SourceNode node) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        if (node instanceof SourceNode.Obj obj) {
            ObjectNode out = json.objectNode();
            obj.fields().forEach(f -> out.set(f.name(), toJson(f.value())));
            return out;
        }
        if (node instanceof SourceNode.Arr arr) {
            ArrayNode out = json.arrayNode();
            arr.items().forEach(item -> out.add(toJson(item)));
            return out;
        }
        if (node instanceof SourceNode.Str str) {
            return json.textNode(str.value());
        }
        if (node instanceof SourceNode.Num num) {
            return json.numberNode(num.value());
        }
        return node instanceof SourceNode.Bool bool ? json.booleanNode(bool.value()) : json.nullNode();
    }
}
