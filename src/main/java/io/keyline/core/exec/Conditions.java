package io.keyline.core.exec;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.keyline.core.match.ConditionText;
import io.keyline.core.match.Deadline;
import io.keyline.core.match.Patterns;
import io.keyline.domain.Condition;
import io.keyline.text.Said;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Evaluates {@link Condition}s against one HTTP answer, in three-valued logic: a condition holds, does
 * not hold, or cannot be decided from this answer ({@link Truth#UNKNOWN}) — the body is not JSON, the
 * pointer is missing, or the value has another JSON type than the condition compares with (the string
 * {@code "0"} is neither equal nor unequal to the number {@code 0}). {@code all} and {@code any} combine
 * the three values like Kleene's logic. Each caller decides what "cannot be decided" means for it: a
 * probe answers inconclusive, {@code successWhen} is not met, {@code authWhen} and {@code retryWhen} do
 * not fire.
 *
 * <p>What the answer holds is data, never trusted to be small or kind: patterns run on RE2/J (linear time),
 * numbers compare by value with {@link BigDecimal#compareTo} (never written out: {@code 1e2147483627} has
 * two billion digits in plain notation), and every evaluation ends by the answer's {@link Deadline}.
 */
public final class Conditions {

    /** Floats are read as {@link java.math.BigDecimal}, so that numbers compare by their written value. */
    private static final ObjectMapper BODY = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final int SHOWN = 80;

    private Conditions() {
    }

    public enum Truth { TRUE, FALSE, UNKNOWN }

    /**
     * The value of a condition and why, as words (e.g. {@code /total = 3}, {@code the body contains "busy"}); the
     * words may quote the answer and must be redacted before they are stored or shown.
     */
    public record Verdict(Truth truth, Said words) {
        public boolean met() {
            return truth == Truth.TRUE;
        }
    }

    /** A condition on a JSON value of an answer that is no JSON: its truth cannot be known. */
    private static final Verdict NOT_JSON = new Verdict(Truth.UNKNOWN, Said.of("core.cond.notJson"));

    /**
     * What a condition looks at: status, headers (names case-insensitive) and body of one answer, the key and
     * job it is read for ({@code {key}}, {@code {job}}), and when reading it must end.
     */
    public static final class Answer {
        private final int status;
        private final Map<String, List<String>> headers;
        private final byte[] body;
        private final ConditionText.Vars vars;
        private final Deadline deadline;
        private JsonNode json;
        private boolean parsed;
        private String text;

        public Answer(int status, Map<String, List<String>> headers, byte[] body, ConditionText.Vars vars,
                      Deadline deadline) {
            this.status = status;
            this.headers = headers;
            this.body = body == null ? new byte[0] : body;
            this.vars = vars;
            this.deadline = deadline;
        }

        ConditionText.Vars vars() {
            return vars;
        }

        Deadline deadline() {
            return deadline;
        }

        int status() {
            return status;
        }

        List<String> header(String name) {
            List<String> out = new ArrayList<>();
            headers.forEach((k, v) -> {
                if (k.equalsIgnoreCase(name)) {
                    out.addAll(v);
                }
            });
            return out;
        }

        String text() {
            if (text == null) {
                text = new String(body, StandardCharsets.UTF_8);
            }
            return text;
        }

        /** The body as JSON, or {@code null} when it is not JSON. */
        JsonNode json() {
            if (!parsed) {
                parsed = true;
                try {
                    json = body.length == 0 ? null : BODY.readTree(body);
                } catch (IOException notJson) {
                    json = null;
                }
            }
            return json;
        }
    }

    /**
     * Evaluates {@code condition} against {@code answer}.
     *
     * @throws Deadline.Exceeded when the answer's deadline passes first
     */
    public static Verdict evaluate(Condition condition, Answer answer) {
        answer.deadline().check();
        if (condition instanceof Condition.Compare c) {
            return compare(c, answer);
        }
        if (condition instanceof Condition.Exists e) {
            return exists(e, answer);
        }
        if (condition instanceof Condition.Status s) {
            boolean in = s.codes().contains(answer.status());
            return new Verdict(in ? Truth.TRUE : Truth.FALSE, Said.of("core.cond.status",
                    Integer.toString(answer.status())));
        }
        if (condition instanceof Condition.BodyContains b) {
            String wanted = ConditionText.literal(b.text(), answer.vars());
            boolean in = answer.text().contains(wanted);
            return new Verdict(in ? Truth.TRUE : Truth.FALSE, Said.of(in ? "core.cond.contains"
                    : "core.cond.notContains", quote(wanted)));
        }
        if (condition instanceof Condition.BodyMatches b) {
            String regex = ConditionText.pattern(b.regex(), answer.vars());
            boolean in = Patterns.find(regex, answer.text(), answer.deadline());
            return new Verdict(in ? Truth.TRUE : Truth.FALSE, Said.of(in ? "core.cond.matches"
                    : "core.cond.notMatches", quote(regex)));
        }
        if (condition instanceof Condition.Header h) {
            return header(h, answer);
        }
        if (condition instanceof Condition.Not n) {
            Verdict v = evaluate(n.condition(), answer);
            return switch (v.truth()) {
                case TRUE -> new Verdict(Truth.FALSE, Said.of("core.cond.not", v.words()));
                case FALSE -> new Verdict(Truth.TRUE, Said.of("core.cond.not", v.words()));
                case UNKNOWN -> v;
            };
        }
        if (condition instanceof Condition.All all) {
            return all(all.conditions(), answer);
        }
        return any(((Condition.Any) condition).conditions(), answer);
    }

    private static Verdict compare(Condition.Compare c, Answer answer) {
        JsonNode at = valueAt(answer, c.jsonPointer());
        if (at == null) {
            return NOT_JSON;
        }
        Object where = where(c.jsonPointer());
        if (at.isMissingNode()) {
            return new Verdict(Truth.UNKNOWN, Said.of("core.cond.missing", where));
        }
        Said shown = Said.of("core.cond.value", where, shown(at));
        List<JsonNode> operands = new ArrayList<>();
        for (String text : c.operands()) {
            try {
                operands.add(withVars(BODY.readTree(text), answer.vars()));
            } catch (IOException e) {
                throw new IllegalStateException("a condition's operand is canonical JSON: " + text, e);
            }
        }
        // null is a value unlike any other: comparing with it is never a type confusion
        List<JsonNode> comparable = operands.stream()
                .filter(o -> at.isNull() || o.isNull() || type(o).equals(type(at))).toList();
        if (comparable.isEmpty()) {
            Said types = operands.stream().map(Conditions::type).distinct().map(Conditions::typeWords)
                    .reduce((a, b) -> Said.of("core.cond.or", a, b)).orElse(Said.plain(""));
            return new Verdict(Truth.UNKNOWN, Said.of("core.cond.otherType", shown, typeWords(type(at)), types));
        }
        boolean found = false;
        for (JsonNode o : comparable) {
            if (same(o, at, answer.deadline())) {
                found = true;
                break;
            }
        }
        boolean holds = switch (c.comparison()) {
            case EQUALS, IN -> found;
            case NOT_EQUALS, NOT_IN -> !found;
        };
        return new Verdict(holds ? Truth.TRUE : Truth.FALSE, shown);
    }

    /** An operand with {@code {key}} and {@code {job}} inserted into its strings (a top-level string only). */
    private static JsonNode withVars(JsonNode operand, ConditionText.Vars vars) {
        if (operand.isTextual() && ConditionText.hasPlaceholder(operand.textValue())) {
            return BODY.getNodeFactory().textNode(ConditionText.literal(operand.textValue(), vars));
        }
        return operand;
    }

    /**
     * Whether two JSON values are the same: numbers by value ({@link BigDecimal#compareTo}, which never writes
     * digits out: it rescales only numbers of the same magnitude, by at most their written digits), strings,
     * booleans and null as they are, arrays item by item, objects field by field (in any order).
     */
    static boolean same(JsonNode a, JsonNode b, Deadline deadline) {
        if (a.isNumber() && b.isNumber()) {
            BigDecimal x = a.decimalValue();
            BigDecimal y = b.decimalValue();
            return x.compareTo(y) == 0;
        }
        if (a.isNumber() || b.isNumber() || a.getNodeType() != b.getNodeType()) {
            return false;
        }
        if (a.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                deadline.check();
                if (!same(a.get(i), b.get(i), deadline)) {
                    return false;
                }
            }
            return true;
        }
        if (a.isObject()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
                deadline.check();
                Map.Entry<String, JsonNode> f = it.next();
                JsonNode other = b.get(f.getKey());
                if (other == null || !same(f.getValue(), other, deadline)) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    private static Verdict exists(Condition.Exists e, Answer answer) {
        JsonNode at = valueAt(answer, e.jsonPointer());
        if (at == null) {
            return NOT_JSON;
        }
        Object where = where(e.jsonPointer());
        boolean exists = !at.isMissingNode() && !at.isNull();
        Said shown = at.isMissingNode() ? Said.of("core.cond.missing", where)
                : Said.of("core.cond.value", where, shown(at));
        return new Verdict(exists == e.exists() ? Truth.TRUE : Truth.FALSE, shown);
    }

    private static Verdict header(Condition.Header h, Answer answer) {
        List<String> values = answer.header(h.name());
        if (values.isEmpty()) {
            return new Verdict(Truth.FALSE, Said.of("core.cond.noHeader", h.name()));
        }
        String regex = ConditionText.pattern(h.regex(), answer.vars());
        for (String v : values) {
            if (Patterns.find(regex, v, answer.deadline())) {
                return new Verdict(Truth.TRUE, Said.of("core.cond.headerMatches", h.name(), clip(v), quote(regex)));
            }
        }
        return new Verdict(Truth.FALSE, Said.of("core.cond.headerNotMatches", h.name(), clip(values.get(0)),
                quote(regex)));
    }

    private static Verdict all(List<Condition> parts, Answer answer) {
        return combined(parts, answer, Truth.FALSE, whys -> new Verdict(Truth.TRUE, joined("core.cond.and", whys)));
    }

    private static Verdict any(List<Condition> parts, Answer answer) {
        return combined(parts, answer, Truth.TRUE,
                whys -> new Verdict(Truth.FALSE, Said.of("core.cond.noneOf", joined("core.cond.list", whys))));
    }

    /**
     * The parts in order: the first that says {@code decisive} decides; else the first unknown one; else
     * {@code otherwise} of every part's why.
     */
    private static Verdict combined(List<Condition> parts, Answer answer, Truth decisive,
                                    java.util.function.Function<List<Said>, Verdict> otherwise) {
        Verdict unknown = null;
        List<Said> whys = new ArrayList<>();
        for (Condition part : parts) {
            Verdict v = evaluate(part, answer);
            if (v.truth() == decisive) {
                return v;
            }
            if (v.truth() == Truth.UNKNOWN && unknown == null) {
                unknown = v;
            }
            whys.add(v.words());
        }
        return unknown != null ? unknown : otherwise.apply(whys);
    }

    private static String type(JsonNode n) {
        if (n.isTextual()) {
            return "string";
        }
        if (n.isNumber()) {
            return "number";
        }
        if (n.isBoolean()) {
            return "boolean";
        }
        if (n.isNull()) {
            return "null";
        }
        return n.isArray() ? "array" : "object";
    }

    /** "a string", "an array": a JSON type as a condition's words name it. */
    private static Said typeWords(String type) {
        return Said.of("core.cond.type." + type);
    }

    /**
     * The value at {@code pointer} in the answer's JSON (a missing node when there is none), or {@code null} when
     * the answer is no JSON ({@link #NOT_JSON}).
     */
    private static JsonNode valueAt(Answer answer, String pointer) {
        JsonNode root = answer.json();
        return root == null ? null : root.at(pointer);
    }

    /** A JSON pointer as written, or the words for the whole body. */
    private static Object where(String pointer) {
        return pointer.isEmpty() ? Said.of("core.cond.body") : pointer;
    }

    /** The parts one after the other, each pair joined by {@code key} ("a and b and c"). */
    private static Said joined(String key, List<Said> parts) {
        return parts.stream().reduce((a, b) -> Said.of(key, a, b)).orElse(Said.plain(""));
    }

    /**
     * A value of the answer as a message shows it: a string as it is, between quotes (MediaWiki's anonymous token,
     * a plus and a backslash, reads as those two characters, not with the backslash doubled as JSON writes it), so
     * that a person reads what the site sent and a secret value is found, and masked, as it was sent; control
     * characters escaped. Anything else as JSON text.
     */
    private static String shown(JsonNode at) {
        return at.isTextual() ? "\"" + io.keyline.domain.Printable.line(clip(at.textValue())) + "\""
                : clip(at.toString());
    }

    private static String quote(String s) {
        return "\"" + clip(s) + "\"";
    }

    private static String clip(String s) {
        String head = s.length() > SHOWN * 4 ? s.substring(0, SHOWN * 4) : s;
        String one = head.replaceAll("\\s+", " ");
        return one.length() <= SHOWN && head.length() == s.length() ? one
                : one.substring(0, Math.min(one.length(), SHOWN)) + "…";
    }
}
