package io.keyline.core.jobfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyline.domain.PresentWhen;
import io.keyline.domain.ProbeSpec;
import io.keyline.domain.StepKind;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Reads a step's {@code probe} object. */
final class ProbeReader {

    static final List<String> FIELDS = List.of("kind", "method", "url", "headers", "presentWhen", "command", "timeout");
    private static final List<String> PRESENT_WHEN_FIELDS = List.of("jsonPointer", "equals", "notEquals", "exists");
    private static final List<String> CONDITIONS = List.of("equals", "notEquals", "exists");
    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private ProbeReader() {
    }

    /** The probe, or {@code null} if invalid (the problems are reported). */
    static ProbeSpec read(ObjectView step, StepTemplates templates) {
        int before = step.problems().count();
        ObjectView probe = step.objectField("probe", FIELDS);
        if (probe == null) {
            return null;
        }
        probe.require("kind", " (one of http, command)");
        String kind = probe.choice("kind", List.of("http", "command"), false);
        Duration timeout = probe.duration("timeout");
        ProbeSpec spec = null;
        if ("http".equals(kind)) {
            spec = http(probe, templates, timeout);
        } else if ("command".equals(kind)) {
            spec = command(probe, templates, timeout);
        }
        return step.problems().count() > before ? null : spec;
    }

    private static ProbeSpec http(ObjectView probe, StepTemplates templates, Duration timeout) {
        probe.forbid("command", "on an http probe");
        String method = probe.choice("method", List.of("GET", "HEAD"), true);
        String url = null;
        if (probe.require("url", "")) {
            SourceNode.Str str = probe.string("url");
            url = str == null ? null : templates.url(str, probe.pathOf("url"));
        }
        Map<String, String> headers = probe.has("headers") ? templates.headers(probe, "headers") : Map.of();
        PresentWhen presentWhen = probe.has("presentWhen") ? presentWhen(probe) : null;
        return new ProbeSpec(StepKind.HTTP, method == null ? "GET" : method, url, headers, presentWhen, List.of(),
                timeout == null ? DEFAULT_TIMEOUT : timeout);
    }

    private static ProbeSpec command(ObjectView probe, StepTemplates templates, Duration timeout) {
        for (String httpOnly : List.of("method", "url", "headers", "presentWhen")) {
            probe.forbid(httpOnly, "on a command probe");
        }
        List<String> command = null;
        if (probe.require("command", " (the program and its arguments)")) {
            List<SourceNode.Str> args = probe.strings("command");
            command = args == null ? null : templates.command(args, probe.pathOf("command"));
        }
        return new ProbeSpec(StepKind.COMMAND, null, null, Map.of(), null, command,
                timeout == null ? DEFAULT_TIMEOUT : timeout);
    }

    private static PresentWhen presentWhen(ObjectView probe) {
        ObjectView when = probe.objectField("presentWhen", PRESENT_WHEN_FIELDS);
        if (when == null) {
            return null;
        }
        String pointer = when.require("jsonPointer", " (\"\" for the whole body, or like \"/total\")")
                ? jsonPointer(when) : null;
        List<String> given = CONDITIONS.stream().filter(when::has).toList();
        if (given.isEmpty()) {
            when.problems().at(when.node(), when.label() + " needs exactly one of equals, notEquals, exists");
        }
        for (String extra : given.subList(Math.min(1, given.size()), given.size())) {
            when.problems().atName(when.field(extra), when.label() + ": " + given.get(0) + " and " + extra
                    + " are mutually exclusive (give exactly one of equals, notEquals, exists)");
        }
        Boolean exists = when.bool("exists");
        return new PresentWhen(pointer, canonical(when, "equals"), canonical(when, "notEquals"), exists);
    }

    private static String jsonPointer(ObjectView when) {
        SourceNode.Str str = when.string("jsonPointer");
        if (str == null) {
            return null;
        }
        String pointer = str.value();
        if (!pointer.isEmpty() && !pointer.startsWith("/")) {
            when.problems().at(str, when.pathOf("jsonPointer") + " " + Problems.quote(pointer) + " must be \"\" or start with \"/\"");
            return null;
        }
        if (pointer.replaceAll("~[01]", "").contains("~")) {
            when.problems().at(str, when.pathOf("jsonPointer") + " " + Problems.quote(pointer)
                    + " is not a JSON pointer: \"~\" must be followed by 0 or 1");
            return null;
        }
        return pointer;
    }

    private static String canonical(ObjectView when, String name) {
        SourceNode.Field field = when.field(name);
        return field == null ? null : CanonicalJson.of(toJson(field.value()));
    }

    private static JsonNode toJson(SourceNode node) {
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
