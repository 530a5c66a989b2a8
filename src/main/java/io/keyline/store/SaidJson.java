package io.keyline.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyline.core.json.Json;
import io.keyline.text.Said;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * An event's message as it is kept beside its English words ({@code key_event.message_said}): a small JSON object
 * {@code {"key": "core.event.stepFailed", "args": ["publish", "HTTP 500"]}}. An argument that is itself a
 * {@link Said} is a nested object, a number stays a number, anything else is kept as its text (as the message
 * put it in). A text shown as it is has no key. A message too large for the column is not kept: the event is
 * then shown by its English words, as an event stored before the column existed.
 */
final class SaidJson {

    /** The column's size. */
    static final int MAX = 8000;
    /** An argument's text is cut to the size of the English message's column. */
    private static final int MAX_ARG = 2000;

    private SaidJson() {
    }

    /** The JSON of {@code said}, or {@code null} when there is none or it does not fit the column. */
    static String write(Said said) {
        if (said == null) {
            return null;
        }
        String json = node(said).toString();
        return json.length() > MAX ? null : json;
    }

    private static ObjectNode node(Said said) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        if (said.key() != null) {
            o.put("key", said.key());
        }
        ArrayNode args = o.putArray("args");
        for (Object a : said.args()) {
            if (a instanceof Said s) {
                args.add(node(s));
            } else if (a instanceof Integer || a instanceof Long || a instanceof Short || a instanceof Byte) {
                args.add(((Number) a).longValue());
            } else if (a instanceof Double || a instanceof Float) {
                args.add(((Number) a).doubleValue());
            } else if (a instanceof BigInteger b) {
                args.add(b);
            } else if (a instanceof BigDecimal b) {
                args.add(b);
            } else {
                String t = String.valueOf(a);
                args.add(t.length() > MAX_ARG ? t.substring(0, MAX_ARG) + "…" : t);
            }
        }
        return o;
    }

    /**
     * The {@link Said} of {@code json}, or {@code null} for none (an event stored before the column existed) or a
     * value this build cannot read (then the English words are shown).
     */
    static Said read(String json) {
        if (json == null || json.isBlank()) {
            return null;
        }
        try {
            return said(Json.MAPPER.readTree(json));
        } catch (Exception e) {
            return null;
        }
    }

    private static Said said(JsonNode n) {
        if (!n.isObject() || !n.path("args").isArray()) {
            throw new IllegalArgumentException("not a message: " + n);
        }
        List<Object> args = new ArrayList<>();
        for (JsonNode a : n.get("args")) {
            if (a.isObject()) {
                args.add(said(a));
            } else if (a.isIntegralNumber()) {
                args.add(a.canConvertToInt() ? (Object) a.intValue() : a.canConvertToLong() ? a.longValue()
                        : a.bigIntegerValue());
            } else if (a.isNumber()) {
                args.add(a.isBigDecimal() ? a.decimalValue() : (Object) a.doubleValue());
            } else {
                args.add(a.asText());
            }
        }
        JsonNode key = n.get("key");
        if (key == null || key.isNull()) {
            return Said.plain(args.isEmpty() ? "" : String.valueOf(args.get(0)));
        }
        return new Said(key.asText(), args);
    }
}
