package io.keyline.core.operations;

import io.keyline.core.Plan;
import io.keyline.domain.Printable;
import io.keyline.text.Said;
import io.keyline.text.Text;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A plan as text for a person: the requests of a key's http steps (the same headers the confirm
 * dialog shows, secrets masked), and the plan's summary by action. {@code keyline plan} and the
 * console's Plan dialog print the same lines.
 */
public final class PlanText {

    private PlanText() {
    }

    /**
     * The probes' answers, each with the request it sends, and the exact requests of a key's http steps, each line
     * indented by {@code indent}.
     */
    public static String requests(Plan.KeyPlan k, String indent) {
        StringBuilder sb = new StringBuilder();
        Said keyProbe = k.probes().get(io.keyline.domain.KeyProbe.STEP);
        if (keyProbe != null) {
            sb.append(indent).append(Text.t("core.planText.jobProbe", Words.probe(keyProbe))).append('\n');
            Plan.RequestPreview r = k.probeRequest(io.keyline.domain.KeyProbe.STEP);
            if (r != null) {
                request(sb, r, indent + "  ", Text.t("core.planText.jobProbeRequest", r.method(),
                        Printable.line(r.url())));
            }
        }
        k.probes().forEach((step, answer) -> {
            if (!io.keyline.domain.KeyProbe.is(step)) {
                sb.append(indent).append(Text.t("core.planText.stepProbe", step, Words.probe(answer)))
                        .append('\n');
                Plan.RequestPreview r = k.probeRequest(step);
                if (r != null) {
                    request(sb, r, indent + "  ", Text.t("core.planText.probeRequest", step, r.method(),
                            Printable.line(r.url())));
                }
            }
        });
        for (Plan.RequestPreview r : k.requests()) {
            request(sb, r, indent, r.step() + ": " + r.method() + ' ' + Printable.line(r.url()));
        }
        return sb.toString();
    }

    /** One request: its first line, its headers, its body and the body's fields. */
    private static void request(StringBuilder sb, Plan.RequestPreview r, String indent, String first) {
        sb.append(indent).append(first).append('\n');
        if (r.shown().isEmpty()) {
            r.headers().forEach((h, v) -> sb.append(indent).append("  ").append(h).append(": ")
                    .append(Printable.line(v)).append('\n'));
        } else {
            r.shown().forEach(h -> sb.append(indent).append("  ").append(Printable.line(h.shown())).append('\n'));
        }
        String source = Printable.line(bodySource(r.bodySource()));
        String note = r.note() == null ? null : Printable.line(r.note().text());
        String size = r.bodyBytes() == null ? "" : Text.t("core.planText.bytes", r.bodyBytes(), r.bodySha256(),
                source);
        String body;
        if (r.runTimeBody()) {
            body = Text.t("core.planText.bodyAtRunTime", source);
        } else if (note != null && r.bodyBytes() != null && r.bodyBytes() > 0) {
            body = Text.t("core.planText.bodyNoted", size, note);
        } else if (note != null) {
            body = Text.t("core.planText.bodyNoted", source, note);
        } else if (r.bodyBytes() != null && r.bodyBytes() > 0) {
            body = size;
        } else {
            body = Text.t("core.planText.noBody");
        }
        sb.append(indent).append("  ").append(Text.t("core.planText.body", body)).append('\n');
        fields(sb, r.fields(), indent + "    ");
        if (r.boundSha256() != null) {
            sb.append(indent).append("  ").append(Text.t("core.planText.template", r.boundSha256())).append('\n');
        }
    }

    /**
     * Where a body comes from, in words: "none", "inline", "file out/x.md" as the operator's language says
     * them; a body given by its fields keeps the job file's word for them ({@code form}, {@code multipart},
     * {@code json}).
     */
    public static String bodySource(String source) {
        if (source == null || source.equals(Plan.RequestPreview.NO_BODY)) {
            return Text.t("core.body.none");
        }
        if (source.equals(Plan.RequestPreview.INLINE)) {
            return Text.t("core.body.inline");
        }
        return source.regionMatches(0, Plan.RequestPreview.FILE, 0, Plan.RequestPreview.FILE.length())
                ? Text.t("core.body.file", source.substring(Plan.RequestPreview.FILE.length())) : source;
    }

    /** The fields of a body given by its fields, one line each: {@code name = value} (secrets masked). */
    public static void fields(StringBuilder sb, List<io.keyline.core.ShownBody.Field> fields, String indent) {
        for (io.keyline.core.ShownBody.Field f : fields) {
            sb.append(indent).append(Printable.line(f.name())).append(" = ").append(Printable.line(f.value()))
                    .append('\n');
        }
    }

    /** The detail of one key: state (and why it waits), action, steps, then its requests. */
    public static String detail(Plan.KeyPlan k) {
        if (k == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        sb.append(k.key()).append("  ").append(Words.state(k.state(), k.stateReason())).append('\n');
        sb.append(Printable.line(k.action())).append('\n');
        if (!k.steps().isEmpty()) {
            sb.append(Text.t("core.planText.steps", String.join(" → ", k.steps()))).append('\n');
        }
        String req = requests(k, "");
        sb.append('\n').append(req.isEmpty() ? Text.t("core.planText.noRequest") + "\n" : req);
        return sb.toString();
    }

    /** Keys per action, in first-seen order; timestamps are folded so that waits group together. */
    public static Map<String, Integer> counts(List<Plan.KeyPlan> keys) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Plan.KeyPlan k : keys) {
            counts.merge(fold(k.action()), 1, Integer::sum);
        }
        return counts;
    }

    /** An action with its timestamps folded ({@code wait until T}). */
    public static String fold(String action) {
        return action.replaceAll("\\d{4}-\\d{2}-\\d{2}T[^ )]*", "T");
    }

    /** "8 keys · 6 × run write,publish · 2 × skip (done)". */
    public static String summary(List<Plan.KeyPlan> keys) {
        StringBuilder sb = new StringBuilder(Text.t("core.planText.keys", keys.size()));
        counts(keys).forEach((a, n) -> sb.append(" · ").append(Text.t("core.planText.times", n, a)));
        return sb.toString();
    }
}
