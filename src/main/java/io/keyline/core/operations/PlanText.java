package io.keyline.core.operations;

import io.keyline.core.Plan;
import io.keyline.domain.Printable;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A plan as text for a person: the requests of a key's http steps (the same headers the confirm
 * dialog shows, secrets masked), and the plan's summary by action. {@code keyline plan} and the
 * console's Plan dialog print the same lines.
 */
public final class PlanText {

    private PlanText() {
    }

    /** The probes' answers and the exact requests of a key's http steps, each line indented by {@code indent}. */
    public static String requests(Plan.KeyPlan k, String indent) {
        StringBuilder sb = new StringBuilder();
        String keyProbe = k.probes().get(io.keyline.domain.KeyProbe.STEP);
        if (keyProbe != null) {
            sb.append(indent).append("the job's probe (asked before the first step): ").append(Words.probe(keyProbe))
                    .append('\n');
        }
        k.probes().forEach((step, answer) -> {
            if (!io.keyline.domain.KeyProbe.is(step)) {
                sb.append(indent).append("probe of ").append(step).append(": ").append(Words.probe(answer))
                        .append('\n');
            }
        });
        for (Plan.RequestPreview r : k.requests()) {
            sb.append(indent).append(r.step()).append(": ").append(r.method()).append(' ')
                    .append(Printable.line(r.url())).append('\n');
            r.headers().forEach((h, v) -> sb.append(indent).append("  ").append(h).append(": ")
                    .append(Printable.line(v)).append('\n'));
            if (r.runTimeBody()) {
                sb.append(indent).append("  body: ").append(Printable.line(r.bodySource()))
                        .append(", sha256 known at run time (it holds values known only then)\n");
            } else if (r.note() != null && r.bodyBytes() != null && r.bodyBytes() > 0) {
                sb.append(indent).append("  body: ").append(r.bodyBytes()).append(" bytes, sha256 ")
                        .append(r.bodySha256()).append(" (").append(Printable.line(r.bodySource())).append(") - ")
                        .append(Printable.line(r.note())).append('\n');
            } else if (r.note() != null) {
                sb.append(indent).append("  body: ").append(Printable.line(r.bodySource())).append(" - ")
                        .append(Printable.line(r.note())).append('\n');
            } else if (r.bodyBytes() != null && r.bodyBytes() > 0) {
                sb.append(indent).append("  body: ").append(r.bodyBytes()).append(" bytes, sha256 ")
                        .append(r.bodySha256()).append(" (").append(Printable.line(r.bodySource())).append(")\n");
            } else {
                sb.append(indent).append("  body: none\n");
            }
            fields(sb, r.fields(), indent + "    ");
            if (r.boundSha256() != null) {
                sb.append(indent).append("  request template sha256 ").append(r.boundSha256())
                        .append(" (with every value known now: what apply holds the request to)\n");
            }
        }
        return sb.toString();
    }

    /** The fields of a body given by its fields, one line each: {@code name = value} (secrets masked). */
    public static void fields(StringBuilder sb, List<io.keyline.core.ShownBody.Field> fields, String indent) {
        for (io.keyline.core.ShownBody.Field f : fields) {
            sb.append(indent).append(Printable.line(f.name())).append(" = ").append(Printable.line(f.value()))
                    .append('\n');
        }
    }

    /** The detail of one key: state, action, steps, then its requests. */
    public static String detail(Plan.KeyPlan k) {
        if (k == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        sb.append(k.key()).append("  ").append(Words.state(k.state())).append('\n');
        sb.append(Printable.line(k.action())).append('\n');
        if (!k.steps().isEmpty()) {
            sb.append("steps: ").append(String.join(" → ", k.steps())).append('\n');
        }
        String req = requests(k, "");
        sb.append('\n').append(req.isEmpty() ? "(no http request)\n" : req);
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
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%,d key%s", keys.size(),
                keys.size() == 1 ? "" : "s"));
        counts(keys).forEach((a, n) -> sb.append(" · ").append(String.format(Locale.ROOT, "%,d", n)).append(" × ")
                .append(a));
        return sb.toString();
    }
}
