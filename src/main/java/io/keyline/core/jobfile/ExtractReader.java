package io.keyline.core.jobfile;

import io.keyline.core.match.Patterns;
import io.keyline.domain.Extraction;
import org.jsoup.select.QueryParser;
import org.jsoup.select.Selector;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the {@code extract} object of an http step or probe: {@code {NAME: RULE}}, each rule exactly one of
 * {@code css} (with {@code attr} or {@code "text": true}), {@code json}, {@code header}, {@code cookie},
 * {@code regex} (with an optional {@code group}), and an optional {@code "optional": true}. Selectors and
 * patterns are checked here, so that a broken one is a job-file error with its position, not a failed run.
 */
final class ExtractReader {

    static final List<String> RULE_FIELDS = List.of("css", "attr", "text", "json", "header", "cookie", "regex",
            "group", "optional");
    private static final List<String> KINDS = List.of("css", "json", "header", "cookie", "regex");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,63}");
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
    /** The outputs every http step has already. */
    static final List<String> BUILT_IN = List.of("status", "location", "body");

    private ExtractReader() {
    }

    /** The rules, in file order; empty when the field is absent, {@code null} when invalid (reported). */
    static Map<String, Extraction> read(ObjectView owner) {
        if (!owner.has("extract")) {
            return Map.of();
        }
        int before = owner.problems().count();
        SourceNode.Obj obj = owner.typed("extract", SourceNode.Obj.class,
                "an object of rules by output name, like {\"sectok\": {\"css\": \"input[name=sectok]\", \"attr\": \"value\"}}");
        if (obj == null) {
            return null;
        }
        if (obj.fields().isEmpty()) {
            owner.problems().at(obj, owner.pathOf("extract") + " must not be empty");
            return null;
        }
        Map<String, Extraction> rules = new LinkedHashMap<>();
        for (SourceNode.Field field : obj.fields()) {
            String path = owner.pathOf("extract") + "." + field.name();
            if (!NAME.matcher(field.name()).matches()) {
                owner.problems().atName(field, path + ": " + Problems.quote(field.name())
                        + " is not an output name (letters, digits, \"_\" and \"-\", at most 63)");
                continue;
            }
            if (BUILT_IN.contains(field.name())) {
                owner.problems().atName(field, path + ": \"" + field.name() + "\" is an output every http step has "
                        + "already (status, location, body): choose another name");
                continue;
            }
            if (!(field.value() instanceof SourceNode.Obj rule)) {
                owner.problems().at(field.value(), path + " must be an object (a rule: css, json, header, cookie or "
                        + "regex), got " + field.value().typeName());
                continue;
            }
            Extraction e = rule(ObjectView.of(rule, path, owner.problems(), RULE_FIELDS));
            if (e != null) {
                rules.put(field.name(), e);
            }
        }
        return owner.problems().count() > before ? null : rules;
    }

    private static Extraction rule(ObjectView r) {
        List<String> kinds = KINDS.stream().filter(r::has).toList();
        if (kinds.isEmpty()) {
            if (r.node().fields().stream().allMatch(f -> RULE_FIELDS.contains(f.name()))) {
                r.problems().at(r.node(), r.label() + " needs one of css, json, header, cookie, regex");
            }
            return null;
        }
        for (String extra : kinds.subList(1, kinds.size())) {
            r.problems().atName(r.field(extra), r.label() + ": " + kinds.get(0) + " and " + extra
                    + " are mutually exclusive (one rule per output)");
        }
        if (kinds.size() > 1) {
            return null;
        }
        String kind = kinds.get(0);
        if (!kind.equals("css")) {
            r.forbid("attr", "without css");
            r.forbid("text", "without css");
        }
        if (!kind.equals("regex")) {
            r.forbid("group", "without regex");
        }
        Boolean optional = r.bool("optional");
        boolean opt = optional != null && optional;
        return switch (kind) {
            case "css" -> css(r, opt);
            case "json" -> json(r, opt);
            case "header" -> token(r, "header", opt);
            case "cookie" -> token(r, "cookie", opt);
            default -> regex(r, opt);
        };
    }

    private static Extraction css(ObjectView r, boolean optional) {
        SourceNode.Str selector = r.string("css");
        String attr = null;
        if (r.has("attr") && r.has("text")) {
            r.problems().atName(r.field("text"), r.label() + ": attr and text are mutually exclusive (the attribute's "
                    + "value, or the element's text)");
            return null;
        }
        if (r.has("attr")) {
            SourceNode.Str a = r.string("attr");
            if (a == null) {
                return null;
            }
            if (a.value().isBlank()) {
                r.problems().at(a, r.pathOf("attr") + " must name an attribute, like \"value\"");
                return null;
            }
            attr = a.value();
        } else if (r.has("text")) {
            Boolean text = r.bool("text");
            if (text == null) {
                return null;
            }
            if (!text) {
                r.problems().at(r.field("text").value(), r.pathOf("text")
                        + " must be true (or give \"attr\" for an attribute's value)");
                return null;
            }
        } else {
            r.problems().at(r.node(), r.label() + " needs \"attr\" (an attribute's value, like \"value\") or "
                    + "\"text\": true (the element's text) next to css");
            return null;
        }
        if (selector == null) {
            return null;
        }
        try {
            QueryParser.parse(selector.value());
        } catch (Selector.SelectorParseException | IllegalArgumentException e) {
            r.problems().at(selector, r.pathOf("css") + " " + Problems.quote(selector.value())
                    + " is not a CSS selector: " + Problems.clipQuoted(firstLine(e.getMessage())));
            return null;
        }
        return new Extraction.Css(selector.value(), attr, optional);
    }

    private static Extraction json(ObjectView r, boolean optional) {
        SourceNode.Str str = r.string("json");
        if (str == null) {
            return null;
        }
        String pointer = str.value();
        if (!pointer.isEmpty() && !pointer.startsWith("/") || pointer.replaceAll("~[01]", "").contains("~")) {
            r.problems().at(str, r.pathOf("json") + " " + Problems.quote(pointer)
                    + " is not a JSON pointer (\"\" or like \"/data/id\"; \"~\" followed by 0 or 1)");
            return null;
        }
        return new Extraction.Json(pointer, optional);
    }

    private static Extraction token(ObjectView r, String kind, boolean optional) {
        SourceNode.Str str = r.string(kind);
        if (str == null) {
            return null;
        }
        if (!TOKEN.matcher(str.value()).matches()) {
            r.problems().at(str, r.pathOf(kind) + " " + Problems.quote(str.value()) + " is not a " + kind
                    + " name (letters, digits and !#$%&'*+-.^_`|~)");
            return null;
        }
        return kind.equals("header") ? new Extraction.Header(str.value(), optional)
                : new Extraction.Cookie(str.value(), optional);
    }

    private static Extraction regex(ObjectView r, boolean optional) {
        SourceNode.Str str = r.string("regex");
        if (str == null) {
            return null;
        }
        if (str.value().isEmpty()) {
            r.problems().at(str, r.pathOf("regex") + " must not be empty");
            return null;
        }
        Patterns.Problem problem = Patterns.problem(str.value());
        if (problem != null) {
            String message = r.pathOf("regex") + " " + Problems.quote(str.value())
                    + " is not a valid regular expression: " + problem.message();
            if (problem.index() >= 0) {
                r.problems().atChar(str, problem.index(), message);
            } else {
                r.problems().at(str, message);
            }
            return null;
        }
        int groups = Patterns.groups(str.value());
        int group = groups > 0 ? 1 : 0;
        if (r.has("group")) {
            Integer g = r.integer("group", 0, Math.max(groups, 0));
            if (g == null) {
                return null;
            }
            group = g;
        }
        return new Extraction.Regex(str.value(), group, optional);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
