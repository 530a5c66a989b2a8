package io.keyline.core.jobfile;

import io.keyline.domain.Effect;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepKind;
import io.keyline.domain.Template;
import io.keyline.domain.Printable;
import io.keyline.text.Said;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks the template strings of one step: placeholder syntax, references to earlier steps'
 * outputs, URLs, header maps and relative paths.
 */
final class StepTemplates {

    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
    private static final List<String> SECRET_HEADERS = List.of("cookie", "authorization");
    /** Headers the JDK's HTTP client writes itself and refuses from a request. */
    private static final List<String> CLIENT_HEADERS = List.of("connection", "content-length", "expect", "host", "upgrade");

    private final Problems problems;
    private final Map<String, Integer> stepIndexes;
    private final int stepIndex;
    private final Said stepLabel;
    private final List<StepDefinition> earlier;

    /**
     * @param stepIndexes index of every step id of the job
     * @param stepIndex   index of the step being checked
     * @param stepLabel   how messages name the step, e.g. {@code step "write"}
     */
    StepTemplates(Problems problems, Map<String, Integer> stepIndexes, int stepIndex, Said stepLabel) {
        this(problems, stepIndexes, stepIndex, stepLabel, List.of());
    }

    /**
     * @param earlier the steps before the one being checked, as read ({@code null} for one that is invalid): what
     *                their outputs can be
     */
    StepTemplates(Problems problems, Map<String, Integer> stepIndexes, int stepIndex, Said stepLabel,
                  List<StepDefinition> earlier) {
        this.problems = problems;
        this.stepIndexes = stepIndexes;
        this.stepIndex = stepIndex;
        this.stepLabel = stepLabel;
        this.earlier = earlier;
    }

    /** The string if it is a valid template whose step references point at earlier steps, else {@code null}. */
    String template(SourceNode.Str str, String path) {
        List<Template.Placeholder> placeholders = placeholders(str, path);
        if (placeholders == null) {
            return null;
        }
        boolean valid = true;
        for (Template.Placeholder placeholder : placeholders) {
            Said problem = referenceProblem(placeholder.stepId());
            if (problem != null) {
                problems.atChar(str, placeholder.column() - 1, Said.of("core.jobfile.refersTo", path,
                        "{" + placeholder.name() + "}", problem));
                valid = false;
            } else if (placeholder.stepId() != null) {
                Said missing = missingWhenReconciled(placeholder);
                if (missing != null) {
                    problems.atChar(str, placeholder.column() - 1, Said.of("core.jobfile.reconciledOutput", path,
                            "{" + placeholder.name() + "}", stepLabel, Problems.quote(placeholder.stepId()), missing));
                    valid = false;
                }
            }
        }
        return valid ? str.value() : null;
    }

    /**
     * How to give the output a placeholder names when its step is found done by its probe (reconciled: not sent,
     * its outputs are what the probe extracts), or {@code null} when it has it then too, or cannot be reconciled.
     */
    private Said missingWhenReconciled(Template.Placeholder p) {
        int index = stepIndexes.get(p.stepId());
        StepDefinition s = index < earlier.size() ? earlier.get(index) : null;
        if (s == null || s.effect() != Effect.UNSAFE || s.probe() == null
                || s.probe().extract().containsKey(p.outputName())) {
            return null;
        }
        if (s.probe().kind() != StepKind.HTTP) {
            return Said.of("core.jobfile.hint.commandProbeNoValues", Problems.quote(p.stepId()));
        }
        if (ExtractReader.BUILT_IN.contains(p.outputName())) {
            return Said.of("core.jobfile.hint.notSentNoValue", Problems.quote(p.outputName()));
        }
        // the example is a rule of the job file, not words: "id": {"json": "/id"}
        String rule = Problems.quote(p.outputName()) + ": {" + Problems.quote("json") + ": "
                + Problems.quote("/" + p.outputName()) + "}";
        return Said.of("core.jobfile.hint.extractInProbe", Problems.quote(p.outputName()), rule);
    }

    /** The string's placeholders, or {@code null} when it is no valid template (reported). */
    private List<Template.Placeholder> placeholders(SourceNode.Str str, String path) {
        try {
            return Template.scan(str.value());
        } catch (Template.SyntaxException e) {
            problems.atChar(str, e.column() - 1, Said.of("core.jobfile.fieldSays", path, Problems.clipped(e.said())));
            return null;
        }
    }

    /** Why a placeholder may not refer to this step id, or {@code null} if it may (or refers to no step). */
    private Said referenceProblem(String id) {
        if (id == null) {
            return null;
        }
        Integer index = stepIndexes.get(id);
        if (index == null) {
            return Said.of("core.jobfile.unknownStep", Problems.quote(id), Suggestions.didYouMean(id, stepIndexes.keySet()));
        }
        if (index >= stepIndex) {
            return Said.of("core.jobfile.laterStep", Problems.quote(id), stepLabel);
        }
        return null;
    }

    /**
     * The argument templates of a command (a step's or a command probe's). An output of an earlier
     * step ({@code {steps.ID.outputs.NAME}}) is text from outside - a server's answer, a program's
     * output - and never goes into a command's arguments, whatever program reads them (a shell, or a
     * wrapper that starts one, would run it as code): a command reads it from its environment, and the
     * error names the variable ({@link Template#outputVariable}). {@code {key}}, {@code {job}} and
     * {@code {runId}} stay allowed: their characters are validated strictly (a date, a week, a month, or
     * {@code [A-Za-z0-9][A-Za-z0-9._-]*}; a job name; a generated id), none of which a shell interprets.
     */
    List<String> command(List<SourceNode.Str> strs, String path) {
        List<String> values = new ArrayList<>();
        boolean valid = true;
        for (int i = 0; i < strs.size(); i++) {
            SourceNode.Str str = strs.get(i);
            List<Template.Placeholder> outputs = outputs(str);
            for (Template.Placeholder p : outputs) {
                String variable = Template.outputVariable(p.stepId(), p.outputName());
                problems.atChar(str, p.column() - 1, Said.of("core.jobfile.outputInCommand", path + "[" + i + "]",
                        "{" + p.name() + "}", "$" + variable));
                valid = false;
            }
            values.add(outputs.isEmpty() ? template(str, path + "[" + i + "]") : null);
        }
        return valid && !values.contains(null) ? values : null;
    }

    /**
     * A raw body: a template like any other, but an output of an earlier step may not go into one that
     * {@code headers} declare JSON, a form or multipart: there a value is inserted as it is, and a quote or an
     * {@code &} in it would add a field. {@code json}, {@code form} and {@code multipart} encode each value.
     */
    String rawBody(SourceNode.Str str, String path, Map<String, String> headers) {
        String type = headers == null ? null : headers.entrySet().stream()
                .filter(h -> h.getKey().equalsIgnoreCase("Content-Type")).map(Map.Entry::getValue).findFirst().orElse(null);
        String media = type == null ? null : type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        String fields = fieldsFor(media);
        if (fields != null) {
            List<Template.Placeholder> outputs = outputs(str);
            for (Template.Placeholder p : outputs) {
                problems.atChar(str, p.column() - 1, Said.of("core.jobfile.outputInRawBody", path, "{" + p.name() + "}",
                        "\"" + media + "\"", "\"" + fields + "\""));
            }
            if (!outputs.isEmpty()) {
                return null;
            }
        }
        return template(str, path);
    }

    /** The outputs of earlier steps ({@code {steps.ID.outputs.NAME}}) a template names; none when it does not parse. */
    private static List<Template.Placeholder> outputs(SourceNode.Str str) {
        try {
            return Template.scan(str.value()).stream().filter(p -> p.stepId() != null).toList();
        } catch (Template.SyntaxException e) {
            return List.of(); // reported by template()
        }
    }

    /** The field that writes a body of this media type (lower case, no parameters) value by value, else {@code null}. */
    private static String fieldsFor(String media) {
        if (media == null) {
            return null;
        }
        boolean jsonSuffix = media.indexOf('+') >= 0 && "json".equals(media.substring(media.lastIndexOf('+') + 1));
        if ("application/json".equals(media) || jsonSuffix) {
            return "json";
        }
        if ("application/x-www-form-urlencoded".equals(media)) {
            return "form";
        }
        return "multipart".equals(media.split("/", 2)[0]) ? "multipart" : null;
    }

    /**
     * A command's working folder: a literal relative path inside the job folder. It is never
     * templated: a value from outside there would choose where the command runs.
     */
    String workdir(SourceNode.Str str, String path) {
        List<Template.Placeholder> placeholders = placeholders(str, path);
        if (placeholders == null) {
            return null;
        }
        if (!placeholders.isEmpty()) {
            problems.atChar(str, placeholders.get(0).column() - 1, Said.of("core.jobfile.workdirTemplated", path,
                    "{" + placeholders.get(0).name() + "}"));
            return null;
        }
        return relativePath(str, path);
    }

    /** An http(s) URL template whose scheme and host are literal. */
    String url(SourceNode.Str str, String path) {
        String url = str.value();
        String lower = url.toLowerCase(Locale.ROOT);
        String rest = lower.startsWith("http://") ? url.substring(7) : lower.startsWith("https://") ? url.substring(8) : null;
        if (rest == null) {
            problems.at(str, Said.of("core.jobfile.urlScheme", path, Problems.quote(url)));
            return null;
        }
        String host = rest.split("[/?#]", 2)[0];
        if (host.isEmpty() || host.contains("{")) {
            problems.at(str, Said.of("core.jobfile.urlHost", path, Problems.quote(url)));
            return null;
        }
        String template = template(str, path);
        if (template == null) {
            return null;
        }
        if (userInfo(template)) {
            // not quoted: the quote would show the start of the password
            problems.at(str, Said.of("core.jobfile.urlUserInfo", path));
            return null;
        }
        Said problem = urlProblem(template);
        if (problem != null) {
            problems.at(str, Said.of("core.jobfile.urlInvalid", path, Problems.quote(url), problem));
            return null;
        }
        return template;
    }

    /** Whether a URL template names a user or password before its host ({@code https://user:pw@host/}). */
    private static boolean userInfo(String template) {
        String rest = template.substring(template.indexOf("//") + 2);
        String authority = rest.split("[/?#]", 2)[0];
        return authority.contains("@");
    }

    /**
     * Why a URL template can never make a request, if it cannot: its literal text is not a URL (a space, a
     * bad {@code %} escape) or its port is out of range. Every placeholder stands for a value as it is
     * put in (percent-encoded: letters and digits stand for any).
     */
    private static Said urlProblem(String template) {
        URI uri;
        try {
            uri = new URI(Template.render(template, name -> "x"));
        } catch (URISyntaxException e) {
            int at = e.getIndex();
            return at < 0 || at >= e.getInput().length() ? Said.plain(e.getReason())
                    : Said.of("core.jobfile.urlAt", e.getReason(), Problems.quote(Printable.line(e.getInput().substring(at,
                    at + 1))));
        } catch (IllegalArgumentException e) {
            return null; // the template's own problems are said by template()
        }
        if (uri.getHost() == null) {
            return Said.of("core.jobfile.urlNoHost");
        }
        if (uri.getPort() > 65535 || uri.getPort() == 0) {
            return Said.of("core.jobfile.urlPort", String.valueOf(uri.getPort()));
        }
        return null;
    }

    /**
     * Header templates in file order; {@code Cookie} and {@code Authorization} are refused
     * because secrets belong in a credential.
     */
    Map<String, String> headers(ObjectView parent, String name) {
        List<SourceNode.Field> fields = parent.stringFields(name);
        if (fields == null) {
            return null;
        }
        Map<String, String> headers = new LinkedHashMap<>();
        Map<String, SourceNode.Field> seen = new HashMap<>();
        boolean valid = true;
        for (SourceNode.Field field : fields) {
            String path = parent.pathOf(name) + "." + field.name();
            Said problem = headerNameProblem(field, seen.get(field.name().toLowerCase(Locale.ROOT)));
            seen.putIfAbsent(field.name().toLowerCase(Locale.ROOT), field);
            String value = null;
            SourceNode.Str str = (SourceNode.Str) field.value();
            Said valueProblem = problem == null ? headerValueProblem(str.value()) : null;
            if (problem != null) {
                problems.atName(field, Said.of("core.jobfile.fieldSays", path, problem));
            } else if (valueProblem != null) {
                problems.at(str, Said.of("core.jobfile.fieldSays", path, valueProblem));
            } else {
                value = template(str, path);
            }
            valid &= value != null;
            headers.put(field.name(), value);
        }
        return valid ? headers : null;
    }

    private static Said headerNameProblem(SourceNode.Field header, SourceNode.Field sameName) {
        if (!HEADER_NAME.matcher(header.name()).matches()) {
            return Said.of("core.jobfile.badHeaderName");
        }
        if (SECRET_HEADERS.contains(header.name().toLowerCase(Locale.ROOT))) {
            return Said.of("core.jobfile.secretHeader");
        }
        if (header.name().equalsIgnoreCase("Idempotency-Key")) {
            return Said.of("core.jobfile.ownHeader");
        }
        if (CLIENT_HEADERS.contains(header.name().toLowerCase(Locale.ROOT))) {
            return Said.of("core.jobfile.clientHeader");
        }
        if (sameName != null) {
            return Said.of("core.jobfile.duplicateHeader", "\"" + sameName.name() + "\"", String.valueOf(sameName.line()));
        }
        return null;
    }

    /**
     * Why a header's value cannot be sent as written, if it cannot: the HTTP client writes a header as
     * one line of ASCII (a line break would end it, a character outside ASCII is refused or sent as
     * {@code ?}). Placeholders are checked when they are filled in.
     */
    private static Said headerValueProblem(String value) {
        int i = Printable.firstNotInHeader(value);
        if (i < 0) {
            return null;
        }
        int c = value.codePointAt(i);
        return c <= 0x7F ? Said.of("core.jobfile.headerControl", Printable.codePoint(c))
                : Said.of("core.jobfile.headerNotAscii", "\"" + new String(Character.toChars(c)) + "\"",
                Printable.codePoint(c));
    }

    /** A relative path template that stays inside the job folder. */
    String relativePath(SourceNode.Str str, String path) {
        String value = str.value();
        if (value.isEmpty()) {
            problems.at(str, Said.of("core.jobfile.empty", path));
            return null;
        }
        if (value.startsWith("/") || value.startsWith("\\") || value.matches("[A-Za-z]:.*")) {
            problems.at(str, Said.of("core.jobfile.notRelative", path, Problems.quote(value)));
            return null;
        }
        int depth = 0;
        for (String part : value.split("[/\\\\]")) {
            depth += part.equals("..") ? -1 : part.isEmpty() || part.equals(".") ? 0 : 1;
            if (depth < 0) {
                problems.at(str, Said.of("core.jobfile.escapes", path, Problems.quote(value)));
                return null;
            }
        }
        return template(str, path);
    }
}
