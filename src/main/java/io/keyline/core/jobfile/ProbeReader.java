package io.keyline.core.jobfile;

import io.keyline.domain.BodyFields;
import io.keyline.domain.Condition;
import io.keyline.domain.ProbeSpec;
import io.keyline.domain.Redirects;
import io.keyline.domain.ResponseRules;
import io.keyline.domain.StepKind;
import io.keyline.text.Said;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Reads a step's {@code probe} object, and a job's own (which may name the credential it is sent with). */
final class ProbeReader {

    static final List<String> FIELDS = List.of("kind", "method", "url", "headers", "presentWhen", "response",
            "followRedirects", "extract", "command", "timeout", "json", "form");
    /** A job's own probe: a step's fields, and the credential it is sent with (a step's probe uses the step's). */
    static final List<String> JOB_FIELDS = java.util.stream.Stream.concat(FIELDS.stream(), java.util.stream.Stream.of(
            "credential")).toList();
    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    private static final java.util.regex.Pattern CREDENTIAL = java.util.regex.Pattern.compile(
            "[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    private ProbeReader() {
    }

    /** The probe, or {@code null} if invalid (the problems are reported). */
    static ProbeSpec read(ObjectView step, StepTemplates templates) {
        return step.readObject("probe", FIELDS, probe -> spec(probe, templates));
    }

    /**
     * The job's own probe ({@code "probe"} beside {@code "steps"}), or {@code null} if there is none or it is
     * invalid (the problems are reported). It runs before any step, so it cannot use a step's outputs.
     */
    static io.keyline.domain.KeyProbe readJobProbe(ObjectView job, StepTemplates templates) {
        return job.readObject("probe", JOB_FIELDS, probe -> {
            String credential = probe.matching("credential", CREDENTIAL, Said.of("core.jobfile.rule.credential"));
            ProbeSpec spec = spec(probe, templates);
            return spec == null ? null : new io.keyline.domain.KeyProbe(spec, credential);
        });
    }

    private static ProbeSpec spec(ObjectView probe, StepTemplates templates) {
        probe.require("kind", Said.of("core.jobfile.expect.oneOf", "http, command"));
        String kind = probe.choice("kind", List.of("http", "command"), false);
        Duration timeout = probe.duration("timeout");
        return "http".equals(kind) ? http(probe, templates, timeout)
                : "command".equals(kind) ? command(probe, templates, timeout) : null;
    }

    private static ProbeSpec http(ObjectView probe, StepTemplates templates, Duration timeout) {
        probe.forbid("command", "core.jobfile.notOnHttpProbe");
        String method = probe.choice("method", List.of("GET", "HEAD", "PROPFIND", "POST"), true);
        String url = null;
        if (probe.require("url")) {
            SourceNode.Str str = probe.string("url");
            url = str == null ? null : templates.url(str, probe.pathOf("url"));
        }
        Map<String, String> headers = probe.has("headers") ? templates.headers(probe, "headers") : Map.of();
        Condition presentWhen = probe.require("presentWhen", Said.of("core.jobfile.hint.presentWhen",
                "{\"jsonPointer\": \"/total\", \"notEquals\": 0}")) ? ConditionReader.read(probe, "presentWhen") : null;
        ResponseRules response = ConditionReader.response(probe);
        Redirects redirects = ConditionReader.redirects(probe, method == null ? "GET" : method);
        Map<String, io.keyline.domain.Extraction> extract = ExtractReader.read(probe);
        BodyFields fields = body(probe, method, templates);
        return new ProbeSpec(StepKind.HTTP, method == null ? "GET" : method, url, headers, presentWhen, response,
                redirects, List.of(), timeout == null ? DEFAULT_TIMEOUT : timeout, extract, fields);
    }

    /**
     * The body of a probe that asks by POST (a GraphQL API, a search endpoint), given by its fields: {@code json} or
     * {@code form}. A body goes with POST only, and a POST probe needs one. A probe must not change anything: a
     * {@code json} body whose {@code query} holds a GraphQL document may only query (values go in its
     * {@code variables}, so that none can make it something else); for any other body the job is trusted.
     */
    private static BodyFields body(ObjectView probe, String method, StepTemplates templates) {
        List<String> bodies = java.util.stream.Stream.of("json", "form").filter(probe::has).toList();
        if (bodies.isEmpty()) {
            if ("POST".equals(method)) {
                probe.problems().atName(probe.field("method"), Said.of("core.jobfile.probePostNeedsBody",
                        probe.pathOf("method")));
            }
            return null;
        }
        if (bodies.size() > 1) {
            probe.problems().atName(probe.field(bodies.get(1)), Said.of("core.jobfile.exclusiveBodies", probe.label(),
                    bodies.get(0), bodies.get(1), "json, form"));
            return null;
        }
        if (method != null && !"POST".equals(method) || !probe.has("method")) {
            probe.problems().atName(probe.field(bodies.get(0)), Said.of("core.jobfile.probeBodyNeedsPost",
                    probe.pathOf(bodies.get(0)), method == null ? "GET" : method));
            return null;
        }
        if (bodies.get(0).equals("json")) {
            SourceNode json = probe.field("json").value();
            if (json instanceof SourceNode.Arr batch) {
                for (int i = 0; i < batch.items().size(); i++) {
                    onlyQueries(probe, batch.items().get(i), probe.pathOf("json") + "[" + i + "]");
                }
            } else {
                onlyQueries(probe, json, probe.pathOf("json"));
            }
        }
        return BodyReader.read(probe, templates);
    }

    /** Refuses a GraphQL request ({@code {"query": DOCUMENT, …}}) that would mutate or subscribe. */
    private static void onlyQueries(ObjectView probe, SourceNode request, String path) {
        SourceNode.Field f = request instanceof SourceNode.Obj obj ? obj.field("query") : null;
        if (f == null || !(f.value() instanceof SourceNode.Str query)) {
            return;
        }
        String literal;
        List<io.keyline.domain.Template.Placeholder> placeholders;
        try {
            placeholders = io.keyline.domain.Template.scan(query.value());
            // a value stands for a name here, which is the most it could be and still be read as GraphQL
            literal = io.keyline.domain.Template.render(query.value(), name -> "_");
        } catch (IllegalArgumentException e) {
            return; // the template's own error is reported where the body is read
        }
        List<String> kinds = GraphqlDocument.definitions(literal);
        if (kinds == null) {
            return;
        }
        String changing = kinds.stream().filter(k -> k.equals("mutation") || k.equals("subscription")).findFirst()
                .orElse(null);
        if (changing != null) {
            probe.problems().at(query, Said.of("core.jobfile.probeMutates", path + ".query", changing));
        } else if (!placeholders.isEmpty()) {
            probe.problems().at(query, Said.of("core.jobfile.probeQueryValue", path + ".query",
                    "{" + placeholders.get(0).name() + "}", path + ".variables"));
        }
    }

    private static ProbeSpec command(ObjectView probe, StepTemplates templates, Duration timeout) {
        for (String httpOnly : List.of("method", "url", "headers", "presentWhen", "response", "followRedirects",
                "extract", "json", "form")) {
            probe.forbid(httpOnly, "core.jobfile.notOnCommandProbe");
        }
        List<String> command = null;
        if (probe.require("command", Said.of("core.jobfile.hint.programArgs"))) {
            List<SourceNode.Str> args = probe.strings("command");
            command = args == null ? null : templates.command(args, probe.pathOf("command"));
        }
        return new ProbeSpec(StepKind.COMMAND, null, null, Map.of(), null, ResponseRules.NONE, Redirects.NEVER, command,
                timeout == null ? DEFAULT_TIMEOUT : timeout);
    }
}
