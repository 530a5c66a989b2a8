package io.keyline.core.jobfile;

import io.keyline.core.match.Patterns;
import io.keyline.domain.Extraction;
import io.keyline.text.Said;
import org.jsoup.select.QueryParser;
import org.jsoup.select.Selector;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the {@code extract} object of an http step or probe: {@code {NAME: RULE}}, each rule exactly one of
 * {@code css} (with {@code attr} or {@code "text": true}), {@code json}, {@code header}, {@code cookie},
 * {@code regex} (with an optional {@code group}), and optionally {@code "optional": true} and
 * {@code "secret": true}. Selectors and patterns are checked here, so that a broken one is a job-file error with
 * its position, not a failed run.
 */
final class ExtractReader {

    static final List<String> RULE_FIELDS = List.of("css", "attr", "text", "json", "header", "cookie", "regex",
            "group", "optional", "secret");
    private static final List<String> KINDS = List.of("css", "json", "header", "cookie", "regex");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,63}");
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
    /** The characters of a header's or a cookie's name besides letters and digits, as messages list them. */
    static final String TOKEN_CHARACTERS = "!#$%&'*+-.^_`|~";
    /** The outputs every http step has already. */
    static final List<String> BUILT_IN = List.of("status", "location", "body");

    private ExtractReader() {
    }

    /** The rules, in file order; empty when the field is absent, {@code null} when invalid (reported). */
    static Map<String, Extraction> read(ObjectView owner) {
        return owner.has("extract") ? owner.problems().unlessReported(() -> rules(owner)) : Map.of();
    }

    private static Map<String, Extraction> rules(ObjectView owner) {
        SourceNode.Obj obj = owner.nonEmpty("extract", SourceNode.Obj.class, Said.of("core.jobfile.expect.extract",
                "{\"sectok\": {\"css\": \"input[name=sectok]\", \"attr\": \"value\"}}"));
        if (obj == null) {
            return null;
        }
        Map<String, Extraction> rules = new LinkedHashMap<>();
        for (SourceNode.Field field : obj.fields()) {
            String path = owner.pathOf("extract") + "." + field.name();
            if (!NAME.matcher(field.name()).matches()) {
                owner.problems().atName(field, Said.of("core.jobfile.notOutputName", path, Problems.quote(field.name())));
                continue;
            }
            if (BUILT_IN.contains(field.name())) {
                owner.problems().atName(field, Said.of("core.jobfile.builtInOutput", path, "\"" + field.name() + "\"",
                        String.join(", ", BUILT_IN)));
                continue;
            }
            if (!(field.value() instanceof SourceNode.Obj rule)) {
                owner.problems().at(field.value(), ObjectView.mustBe(path, Said.of("core.jobfile.expect.rule"), Problems.type(field.value())));
                continue;
            }
            Extraction e = rule(ObjectView.of(rule, path, owner.problems(), RULE_FIELDS));
            if (e != null) {
                rules.put(field.name(), e);
            }
        }
        return rules;
    }

    private static Extraction rule(ObjectView r) {
        List<String> kinds = KINDS.stream().filter(r::has).toList();
        if (kinds.isEmpty()) {
            if (r.node().fields().stream().allMatch(f -> RULE_FIELDS.contains(f.name()))) {
                r.problems().at(r.node(), Said.of("core.jobfile.needsOneOf", r.label(), String.join(", ", KINDS)));
            }
            return null;
        }
        for (String extra : kinds.subList(1, kinds.size())) {
            r.problems().atName(r.field(extra), Said.of("core.jobfile.exclusiveRule", r.label(), kinds.get(0), extra));
        }
        if (kinds.size() > 1) {
            return null;
        }
        String kind = kinds.get(0);
        if (!kind.equals("css")) {
            r.forbid("attr", "core.jobfile.onlyWithCss");
            r.forbid("text", "core.jobfile.onlyWithCss");
        }
        if (!kind.equals("regex")) {
            r.forbid("group", "core.jobfile.onlyWithRegex");
        }
        boolean optional = Boolean.TRUE.equals(r.bool("optional"));
        boolean secret = Boolean.TRUE.equals(r.bool("secret"));
        return switch (kind) {
            case "css" -> css(r, optional, secret);
            case "json" -> json(r, optional, secret);
            case "header" -> token(r, "header", optional, secret);
            case "cookie" -> token(r, "cookie", optional, secret);
            default -> regex(r, optional, secret);
        };
    }

    private static Extraction css(ObjectView r, boolean optional, boolean secret) {
        SourceNode.Str selector = r.string("css");
        String attr = null;
        if (r.has("attr") && r.has("text")) {
            r.problems().atName(r.field("text"), Said.of("core.jobfile.exclusiveAttrText", r.label(), "attr", "text"));
            return null;
        }
        if (r.has("attr")) {
            SourceNode.Str a = r.string("attr");
            if (a == null) {
                return null;
            }
            if (a.value().isBlank()) {
                r.problems().at(a, Said.of("core.jobfile.attrBlank", r.pathOf("attr")));
                return null;
            }
            attr = a.value();
        } else if (r.has("text")) {
            Boolean text = r.bool("text");
            if (text == null) {
                return null;
            }
            if (!text) {
                r.problems().at(r.field("text").value(), Said.of("core.jobfile.textFalse", r.pathOf("text"), "\"attr\""));
                return null;
            }
        } else {
            r.problems().at(r.node(), Said.of("core.jobfile.needsAttrOrText", r.label(), "\"attr\"", "\"text\": true",
                    "css"));
            return null;
        }
        if (selector == null) {
            return null;
        }
        try {
            QueryParser.parse(selector.value());
        } catch (Selector.SelectorParseException | IllegalArgumentException e) {
            r.problems().at(selector, Said.of("core.jobfile.notSelector", r.pathOf("css"), Problems.quote(selector.value()),
                    Problems.clipQuoted(firstLine(e.getMessage()))));
            return null;
        }
        return new Extraction.Css(selector.value(), attr, optional, secret);
    }

    private static Extraction json(ObjectView r, boolean optional, boolean secret) {
        String pointer = r.pointer("json", "\"/data/id\"");
        return pointer == null ? null : new Extraction.Json(pointer, optional, secret);
    }

    private static Extraction token(ObjectView r, String kind, boolean optional, boolean secret) {
        SourceNode.Str str = r.string(kind);
        if (str == null) {
            return null;
        }
        if (!TOKEN.matcher(str.value()).matches()) {
            r.problems().at(str, Said.of(kind.equals("header") ? "core.jobfile.notHeaderName" : "core.jobfile.notCookieName",
                    r.pathOf(kind), Problems.quote(str.value()), TOKEN_CHARACTERS));
            return null;
        }
        return kind.equals("header") ? new Extraction.Header(str.value(), optional, secret)
                : new Extraction.Cookie(str.value(), optional, secret);
    }

    private static Extraction regex(ObjectView r, boolean optional, boolean secret) {
        SourceNode.Str str = r.nonEmptyString("regex");
        if (str == null) {
            return null;
        }
        Patterns.Problem problem = Patterns.problem(str.value());
        if (problem != null) {
            Said message = Said.of("core.jobfile.notRegex", r.pathOf("regex"), Problems.quote(str.value()),
                    problem.said());
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
        return new Extraction.Regex(str.value(), group, optional, secret);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
