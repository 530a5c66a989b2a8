package io.keyline.core.jobfile;

import io.keyline.domain.ConfirmExpiry;
import io.keyline.domain.ConfirmPolicy;
import io.keyline.domain.Effect;
import io.keyline.domain.HttpRequestSpec;
import io.keyline.domain.ProbeSpec;
import io.keyline.domain.Redirects;
import io.keyline.domain.ResponseRules;
import io.keyline.domain.RetryPolicy;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepKind;
import io.keyline.text.Said;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** Reads one element of {@code steps}. */
final class StepReader {

    static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,62}");

    private static final List<String> FIELDS = List.of("id", "kind", "effect", "confirm", "credential", "timeout",
            "retry", "retryFrom", "command", "env", "workdir", "request", "response", "followRedirects", "extract",
            "probe");
    /** Fields of a {@code confirm} object. */
    private static final List<String> CONFIRM_FIELDS = List.of("expireAfter", "then");
    private static final List<String> REQUEST_FIELDS = List.of("method", "url", "headers", "body", "bodyFile", "form",
            "multipart", "json");
    private static final Pattern CREDENTIAL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final String RESERVED_ENV_PREFIX = "KEYLINE_";

    private StepReader() {
    }

    /**
     * Reads and validates a step.
     *
     * @param path        the step's path, e.g. {@code steps[1]}
     * @param stepIndexes index of every step id of the job, for output references
     * @param index       this step's index
     * @param jobRetry    the job's effective retry policy
     * @param earlier     the steps before it, as read ({@code null} for one that is invalid)
     * @return the step, or {@code null} if invalid (the problems are reported)
     */
    static StepDefinition read(SourceNode.Obj node, String path, Problems problems, Map<String, Integer> stepIndexes,
                               int index, RetryPolicy jobRetry, List<StepDefinition> earlier) {
        int before = problems.count();
        ObjectView step = ObjectView.of(node, path, problems, FIELDS);
        String id = step.require("id") ? step.matching("id", ID, Said.of("core.jobfile.rule.stepId")) : null;
        String kindName = step.require("kind", Said.of("core.jobfile.expect.oneOf", "command, http"))
                ? step.choice("kind", List.of("command", "http"), false) : null;
        String effectName = step.require("effect", Said.of("core.jobfile.hint.effect", "none, idempotent, unsafe"))
                ? step.choice("effect", List.of("none", "idempotent", "unsafe"), false) : null;
        boolean confirmObject = step.field("confirm") != null && step.field("confirm").value() instanceof SourceNode.Obj;
        String confirm = confirmObject ? "always" : step.choice("confirm", List.of("never", "always"), false);
        ConfirmExpiry expiry = confirmObject ? confirmExpiry(step) : null;
        String credential = step.matching("credential", CREDENTIAL, Said.of("core.jobfile.rule.credential"));
        Duration timeout = step.duration("timeout");
        RetryPolicy retry = RetryReader.read(step, jobRetry);
        String retryFrom = retryFrom(step, id, stepIndexes, index, earlier);

        StepKind kind = kindName == null ? null : StepKind.valueOf(kindName.toUpperCase(Locale.ROOT));
        Effect effect = effectName == null ? null : Effect.valueOf(effectName.toUpperCase(Locale.ROOT));
        StepTemplates templates = new StepTemplates(problems, stepIndexes, index,
                id == null ? Said.plain(path) : Said.of("core.jobfile.step", "\"" + id + "\""), earlier);
        Action action = kind == StepKind.COMMAND ? commandAction(step, templates)
                : kind == StepKind.HTTP ? httpAction(step, templates) : null;
        ProbeSpec probe = probe(step, path, effect, templates);
        if (problems.count() > before) {
            return null;
        }
        Duration defaultTimeout = kind == StepKind.COMMAND ? Duration.ofMinutes(10) : Duration.ofSeconds(30);
        return new StepDefinition(id, kind, effect,
                confirm == null ? ConfirmPolicy.NEVER : ConfirmPolicy.valueOf(confirm.toUpperCase(Locale.ROOT)),
                credential, action.command(), action.env(), action.workdir(), action.request(), probe,
                timeout == null ? defaultTimeout : timeout, retry, expiry, retryFrom);
    }

    /**
     * {@code "retryFrom": "token"}: a retry of this step first runs again an earlier step and those after it, for
     * values the site takes only fresh (a CSRF token of the session it now has). Only steps safe to repeat may be
     * gone back over: an unsafe one would be made again.
     */
    private static String retryFrom(ObjectView step, String id, Map<String, Integer> stepIndexes, int index,
                                    List<StepDefinition> earlier) {
        String from = step.matching("retryFrom", ID, Said.of("core.jobfile.rule.stepId"));
        if (from == null) {
            return null;
        }
        SourceNode at = step.field("retryFrom").value();
        Integer i = stepIndexes.get(from);
        Said label = id == null ? Said.plain(step.pathOf("retryFrom")) : Said.of("core.jobfile.step", "\"" + id + "\"");
        if (i == null || i >= index) {
            step.problems().at(at, Said.of("core.jobfile.retryFrom.step", step.pathOf("retryFrom"), i == null
                    ? Said.of("core.jobfile.unknownStep", Problems.quote(from), Suggestions.didYouMean(from,
                    stepIndexes.keySet()))
                    : Said.of("core.jobfile.laterStep", Problems.quote(from), label)));
            return null;
        }
        for (int k = i; k < index && k < earlier.size(); k++) {
            StepDefinition s = earlier.get(k);
            if (s != null && s.effect() == Effect.UNSAFE) {
                step.problems().at(at, Said.of("core.jobfile.retryFrom.unsafe", step.pathOf("retryFrom"), label,
                        Problems.quote(s.id())));
                return null;
            }
        }
        return from;
    }

    /**
     * {@code "confirm": {"expireAfter": "P7D", "then": "skip|fail"}}: every execution needs a confirmation (as
     * {@code "always"}), and a wait for one ends after {@code expireAfter} in {@code then}.
     */
    private static ConfirmExpiry confirmExpiry(ObjectView step) {
        ObjectView c = step.objectField("confirm", CONFIRM_FIELDS);
        if (c == null) {
            return null;
        }
        boolean hasAfter = c.require("expireAfter", Said.of("core.jobfile.hint.expireAfter"));
        boolean hasThen = c.require("then", Said.of("core.jobfile.hint.then"));
        java.time.Duration after = hasAfter ? c.duration("expireAfter") : null;
        String then = hasThen ? c.choice("then", List.of("skip", "fail"), false) : null;
        if (after == null || then == null) {
            return null;
        }
        return new ConfirmExpiry(after, ConfirmExpiry.Then.valueOf(then.toUpperCase(Locale.ROOT)));
    }

    /** What a step does: a command (with env and workdir) or a request. */
    private record Action(List<String> command, Map<String, String> env, String workdir, HttpRequestSpec request) {
    }

    private static Action commandAction(ObjectView step, StepTemplates templates) {
        for (String httpOnly : List.of("request", "response", "followRedirects", "extract")) {
            step.forbid(httpOnly, "core.jobfile.notOnCommandStep");
        }
        List<String> command = command(step, templates);
        Map<String, String> env = step.has("env") ? env(step, templates) : Map.of();
        SourceNode.Str dir = step.string("workdir");
        String workdir = dir == null ? null : templates.workdir(dir, step.pathOf("workdir"));
        return new Action(command, env, workdir, null);
    }

    private static Action httpAction(ObjectView step, StepTemplates templates) {
        for (String commandOnly : List.of("command", "env", "workdir")) {
            step.forbid(commandOnly, "core.jobfile.notOnHttpStep");
        }
        HttpRequestSpec request = step.require("request", Said.of("core.jobfile.hint.request")) ? request(step, templates)
                : null;
        return new Action(null, null, null, request);
    }

    private static List<String> command(ObjectView step, StepTemplates templates) {
        if (!step.require("command", Said.of("core.jobfile.hint.command"))) {
            return null;
        }
        List<SourceNode.Str> args = step.strings("command");
        if (args != null && args.get(0).value().isBlank()) {
            step.problems().at(args.get(0), Said.of("core.jobfile.noProgram", step.pathOf("command") + "[0]"));
            return null;
        }
        return args == null ? null : templates.command(args, step.pathOf("command"));
    }

    private static Map<String, String> env(ObjectView step, StepTemplates templates) {
        List<SourceNode.Field> fields = step.stringFields("env");
        if (fields == null) {
            return null;
        }
        Map<String, String> env = new LinkedHashMap<>();
        boolean valid = true;
        for (SourceNode.Field field : fields) {
            String path = step.pathOf("env") + "." + field.name();
            String value = null;
            if (!ENV_NAME.matcher(field.name()).matches()) {
                step.problems().atName(field, Said.of("core.jobfile.badVariable", path, Problems.quote(field.name())));
            } else if (field.name().toUpperCase(Locale.ROOT).startsWith(RESERVED_ENV_PREFIX)) {
                step.problems().atName(field, Said.of("core.jobfile.reservedVariable", path, RESERVED_ENV_PREFIX));
            } else {
                value = templates.template((SourceNode.Str) field.value(), path);
            }
            valid &= value != null;
            env.put(field.name(), value);
        }
        return valid ? env : null;
    }

    /** A step's methods: HTTP's, and WebDAV's for making a folder and reading a file's properties. */
    static final List<String> METHODS = List.of("GET", "POST", "PUT", "PATCH", "DELETE", "MKCOL", "PROPFIND");

    private static HttpRequestSpec request(ObjectView step, StepTemplates templates) {
        ObjectView request = step.objectField("request", REQUEST_FIELDS);
        if (request == null) {
            return null;
        }
        String method = request.require("method", Said.of("core.jobfile.expect.oneOf", String.join(", ", METHODS)))
                ? request.choice("method", METHODS, true) : null;
        String url = null;
        if (request.require("url")) {
            SourceNode.Str str = request.string("url");
            url = str == null ? null : templates.url(str, request.pathOf("url"));
        }
        Map<String, String> headers = request.has("headers") ? templates.headers(request, "headers") : Map.of();
        SourceNode.Str bodyStr = request.string("body");
        String body = bodyStr == null ? null : templates.rawBody(bodyStr, request.pathOf("body"), headers);
        SourceNode.Str bodyFileStr = request.string("bodyFile");
        String bodyFile = bodyFileStr == null ? null : templates.relativePath(bodyFileStr, request.pathOf("bodyFile"));
        List<String> bodies = java.util.stream.Stream.of("body", "bodyFile", "form", "multipart", "json")
                .filter(request::has).toList();
        for (String extra : bodies.stream().skip(1).toList()) {
            request.problems().atName(request.field(extra), Said.of("core.jobfile.exclusiveBodies", request.label(),
                    bodies.get(0), extra, "body, bodyFile, form, multipart, json"));
        }
        io.keyline.domain.BodyFields fields = bodies.size() == 1 ? BodyReader.read(request, templates) : null;
        ResponseRules response = ConditionReader.response(step);
        Redirects redirects = ConditionReader.redirects(step, method);
        Map<String, io.keyline.domain.Extraction> extract = ExtractReader.read(step);
        return new HttpRequestSpec(method, url, headers, body, bodyFile, response, redirects, fields, extract);
    }

    private static ProbeSpec probe(ObjectView step, String path, Effect effect, StepTemplates templates) {
        SourceNode.Field field = step.field("probe");
        if (field == null) {
            return null;
        }
        if (effect != null && effect != Effect.UNSAFE) {
            step.problems().atName(field, Said.of("core.jobfile.probeNotUnsafe", "probe", path,
                    "\"" + effect.jsonName() + "\""));
            return null;
        }
        return ProbeReader.read(step, templates);
    }
}
