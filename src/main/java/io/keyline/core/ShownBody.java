package io.keyline.core;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.exec.Rendering;
import io.keyline.core.exec.StepContext;
import io.keyline.core.json.Json;
import io.keyline.domain.BodyFields;
import io.keyline.domain.HttpRequestSpec;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.Template;
import io.keyline.text.Text;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A request as a person is shown it before it is sent: the fields of a body given by its fields (a form, the
 * parts of a multipart body, the strings of a JSON body), each value as it will be sent (secrets masked) or,
 * for a value known only while the key runs, where it comes from ("from step page: sectok (extracted at run
 * time)"); and the request bound to its template: rendered with every value known now and the values known only
 * at run time as their placeholders. The plan and the confirm dialog both show these, so they cannot differ.
 */
public final class ShownBody {

    private ShownBody() {
    }

    /**
     * One field of a body.
     *
     * @param name    the field's name (a form or multipart field; a JSON pointer for a JSON body)
     * @param value   the value as sent (masked where it holds a secret), or where it comes from when it is
     *                known only at run time
     * @param runTime whether the value (or a part of it) is known only while the key runs
     */
    public record Field(String name, String value, boolean runTime) {
    }

    /**
     * {@code ctx} with the outputs of {@code runTimeSteps} (steps that run before this one in the same run) as
     * their placeholders, {@code {steps.ID.outputs.NAME}}, and {@code {runId}} as itself: the request renders
     * to its template bound with every value known now.
     */
    public static StepContext bound(StepContext ctx, Collection<String> runTimeSteps) {
        Map<String, Map<String, String>> outputs = new HashMap<>(ctx.outputs());
        for (String step : runTimeSteps) {
            outputs.put(step, new Placeholders(step));
        }
        return new StepContext(ctx.job(), ctx.step(), ctx.key(), "{runId}", ctx.attempt(), outputs, null,
                ctx.redact(), ctx.redo());
    }

    /**
     * The hash of an http step's request bound to its template ({@link #bound}): what a plan's id covers and
     * what {@code apply} holds the request to; {@code null} when it cannot be rendered now (a body file an
     * earlier step writes).
     */
    public static String boundHash(StepContext ctx, Collection<String> runTimeSteps) {
        try {
            return Rendering.request(bound(ctx, runTimeSteps)).payloadHash();
        } catch (Rendering.RenderException e) {
            return null;
        }
    }

    /** Whether the request's body uses a value known only while the key runs. */
    public static boolean bodyUsesRunTime(StepDefinition step, Collection<String> runTimeSteps) {
        return bodyTemplates(step.request()).stream().anyMatch(t -> runTime(t, runTimeSteps));
    }

    /**
     * The fields of the step's body given by its fields (empty for a raw body or none), each value rendered
     * with the outputs {@code ctx} holds, masked by {@code mask}; a value that uses an output of
     * {@code runTimeSteps} or {@code {runId}} says where it comes from instead.
     */
    public static List<Field> fields(StepContext ctx, Collection<String> runTimeSteps, UnaryOperator<String> mask) {
        return fields(ctx, runTimeSteps, mask, Set.of());
    }

    /**
     * As {@link #fields(StepContext, Collection, UnaryOperator)}; an output of a step in {@code probed} (one its probe
     * is expected to find done) says it comes from that step's probe.
     */
    public static List<Field> fields(StepContext ctx, Collection<String> runTimeSteps, UnaryOperator<String> mask,
                                     Collection<String> probed) {
        return fields(ctx.step().request() == null ? null : ctx.step().request().fields(), ctx, runTimeSteps, mask,
                probed);
    }

    /**
     * The fields of {@code body} (a step's, or a probe's that asks by POST), as
     * {@link #fields(StepContext, Collection, UnaryOperator, Collection)}.
     */
    public static List<Field> fields(BodyFields body, StepContext ctx, Collection<String> runTimeSteps,
                                     UnaryOperator<String> mask, Collection<String> probed) {
        List<Field> out = new ArrayList<>();
        if (body instanceof BodyFields.Form form) {
            for (BodyFields.Field f : form.fields()) {
                for (String v : f.values()) {
                    out.add(field(f.name(), v, ctx, runTimeSteps, mask, probed));
                }
            }
        } else if (body instanceof BodyFields.Multipart multipart) {
            for (BodyFields.Part p : multipart.parts()) {
                if (p.file() != null) {
                    Field file = field(p.name(), p.file(), ctx, runTimeSteps, mask, probed);
                    out.add(new Field(p.name(), "file " + file.value() + " (" + p.contentType() + ")",
                            file.runTime()));
                } else {
                    out.add(field(p.name(), p.value(), ctx, runTimeSteps, mask, probed));
                }
            }
        } else if (body instanceof BodyFields.Json json) {
            walk(Json.read(json.template(), JsonNode.class), "", ctx, runTimeSteps, mask, probed, out);
        }
        return out;
    }

    /** A URL rendered by {@link #bound}: the placeholders of run-time values as written, not percent-encoded. */
    public static String unmarked(String url) {
        return url.replaceAll("%7Bsteps\\.([A-Za-z0-9_-]+)\\.outputs\\.([^%]*)%7D", "{steps.$1.outputs.$2}")
                .replace("%7BrunId%7D", "{runId}");
    }

    /** A value known only at run time as a header or a URL holds it: its placeholder. */
    private static final java.util.regex.Pattern RUN_TIME_PLACEHOLDER = java.util.regex.Pattern.compile(
            "\\{(runId|steps\\.[A-Za-z0-9_-]+\\.outputs\\.[A-Za-z0-9_-]+)\\}");

    /**
     * A header's value or a URL as {@link #bound} renders it (or as the job file writes it), each value known only
     * at run time said where it comes from, as a body field says it: a value that is one such value alone is its
     * source ("from step nonce: nonce (extracted at run time)"), one inside other text is its source in braces.
     */
    public static String sourced(JobDefinition job, String shown) {
        return sourced(job, shown, Set.of());
    }

    /** As {@link #sourced(JobDefinition, String)}, an output of a step in {@code probed} from that step's probe. */
    public static String sourced(JobDefinition job, String shown, Collection<String> probed) {
        if (shown == null) {
            return null;
        }
        java.util.regex.Matcher m = RUN_TIME_PLACEHOLDER.matcher(shown);
        if (m.matches()) {
            return source(job, m.group(1), probed);
        }
        return m.replaceAll(r -> java.util.regex.Matcher.quoteReplacement("{" + source(job, r.group(1), probed)
                + "}"));
    }

    /**
     * Where a value known only at run time comes from: "from step page: sectok (extracted at run time)",
     * "from step fetch: status (known at run time)", "the run's id (known at run time)", and for an output of a step in
     * {@code probed}, one its probe is expected to find done, "from the probe of step publish: id (found at run time)".
     */
    public static String source(JobDefinition job, String placeholder, Collection<String> probed) {
        if ("runId".equals(placeholder)) {
            return Text.t("core.shown.runId");
        }
        String[] parts = placeholder.split("\\.", 4);
        if (parts.length != 4) {
            return "{" + placeholder + "}";
        }
        if (probed.contains(parts[1])) {
            return Text.t("core.shown.fromProbe", parts[1], parts[3]);
        }
        StepDefinition s = job.step(parts[1]);
        boolean extracted = s != null && s.request() != null && s.request().extract().containsKey(parts[3]);
        return Text.t(extracted ? "core.shown.extracted" : "core.shown.known", parts[1], parts[3]);
    }

    /**
     * A value of the request's template (a header's, say) as it is shown: rendered with every value known now,
     * masked, and a value known only at run time (an output of {@code runTimeSteps}, {@code {runId}}) as where it
     * comes from; {@code null} when the template uses no value known only at run time (the rendered value is shown).
     */
    public static String runTimeValue(String template, StepContext ctx, Collection<String> runTimeSteps,
                                      UnaryOperator<String> mask, Collection<String> probed) {
        if (!runTime(template, runTimeSteps)) {
            return null;
        }
        return field("", template, ctx, runTimeSteps, mask, probed).value();
    }

    private static void walk(JsonNode node, String pointer, StepContext ctx, Collection<String> runTimeSteps,
                             UnaryOperator<String> mask, Collection<String> probed, List<Field> out) {
        if (node.isTextual()) {
            out.add(field(pointer.isEmpty() ? "/" : pointer, node.textValue(), ctx, runTimeSteps, mask, probed));
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                walk(f.getValue(), pointer + "/" + f.getKey().replace("~", "~0").replace("/", "~1"), ctx,
                        runTimeSteps, mask, probed, out);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), pointer + "/" + i, ctx, runTimeSteps, mask, probed, out);
            }
        } else {
            out.add(new Field(pointer.isEmpty() ? "/" : pointer, node.toString(), false));
        }
    }

    private static Field field(String name, String template, StepContext ctx, Collection<String> runTimeSteps,
                               UnaryOperator<String> mask, Collection<String> probed) {
        List<Template.Placeholder> found;
        try {
            found = Template.scan(template);
        } catch (IllegalArgumentException e) {
            return new Field(name, mask.apply(template), false);
        }
        boolean runTime = found.stream().anyMatch(p -> runTime(p, runTimeSteps));
        if (found.size() == 1 && runTime && template.equals("{" + found.get(0).name() + "}")) {
            return new Field(name, source(ctx.job(), found.get(0).name(), probed), true);
        }
        var known = Rendering.resolver(ctx);
        String value = Template.render(template, n -> {
            Template.Placeholder p = found.stream().filter(x -> x.name().equals(n)).findFirst().orElseThrow();
            if (runTime(p, runTimeSteps)) {
                return "{" + source(ctx.job(), n, probed) + "}";
            }
            String v = known.apply(n);
            return v == null ? "{" + n + "}" : v;
        });
        // a secret may sit in the template itself or in a value: masked wherever it is
        return new Field(name, mask.apply(value), runTime);
    }

    private static boolean runTime(Template.Placeholder p, Collection<String> runTimeSteps) {
        return "runId".equals(p.name()) || p.stepId() != null && runTimeSteps.contains(p.stepId());
    }

    private static boolean runTime(String template, Collection<String> runTimeSteps) {
        if (template == null) {
            return false;
        }
        try {
            return Template.scan(template).stream().anyMatch(p -> runTime(p, runTimeSteps));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Every template string of a request's body. */
    private static List<String> bodyTemplates(HttpRequestSpec r) {
        List<String> out = new ArrayList<>();
        if (r.body() != null) {
            out.add(r.body());
        }
        if (r.bodyFile() != null) {
            out.add(r.bodyFile());
        }
        out.addAll(templates(r.fields()));
        return out;
    }

    /** Every template string of a body given by its fields (none for {@code null}). */
    public static List<String> templates(BodyFields fields) {
        List<String> out = new ArrayList<>();
        if (fields instanceof BodyFields.Form form) {
            form.fields().forEach(f -> out.addAll(f.values()));
        } else if (fields instanceof BodyFields.Multipart m) {
            m.parts().forEach(p -> out.add(p.file() != null ? p.file() : p.value()));
        } else if (fields instanceof BodyFields.Json json) {
            strings(Json.read(json.template(), JsonNode.class), out);
        }
        return out;
    }

    private static void strings(JsonNode node, List<String> out) {
        if (node.isTextual()) {
            out.add(node.textValue());
        }
        node.forEach(child -> strings(child, out));
    }

    /** The outputs of a step that runs before in the same run: every name reads as its own placeholder. */
    private static final class Placeholders extends AbstractMap<String, String> {
        private final String step;

        Placeholders(String step) {
            this.step = step;
        }

        @Override
        public String get(Object name) {
            return "{steps." + step + ".outputs." + name + "}";
        }

        @Override
        public boolean containsKey(Object name) {
            return true;
        }

        @Override
        public Set<Entry<String, String>> entrySet() {
            return Set.of();
        }
    }
}
