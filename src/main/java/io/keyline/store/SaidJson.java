package io.keyline.store;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.keyline.text.Said;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
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

    private static final JsonFactory FACTORY = new JsonFactory();

    private SaidJson() {
    }

    /** The JSON of {@code said}, or {@code null} when there is none or it does not fit the column. */
    static String write(Said said) {
        if (said == null) {
            return null;
        }
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            write(g, said);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String json = out.toString();
        return json.length() > MAX ? null : json;
    }

    private static void write(JsonGenerator g, Said said) throws IOException {
        g.writeStartObject();
        if (said.key() != null) {
            g.writeStringField("key", said.key());
        }
        g.writeArrayFieldStart("args");
        for (Object a : said.args()) {
            if (a instanceof Said s) {
                write(g, s);
            } else if (a instanceof Integer || a instanceof Long || a instanceof Short || a instanceof Byte) {
                g.writeNumber(((Number) a).longValue());
            } else if (a instanceof Double || a instanceof Float) {
                g.writeNumber(((Number) a).doubleValue());
            } else if (a instanceof BigInteger b) {
                g.writeNumber(b);
            } else if (a instanceof BigDecimal b) {
                g.writeNumber(b);
            } else {
                String t = String.valueOf(a);
                g.writeString(t.length() > MAX_ARG ? t.substring(0, MAX_ARG) + "…" : t);
            }
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /**
     * The {@link Said} of {@code json}, or {@code null} for none (an event stored before the column existed) or a
     * value this build cannot read (then the English words are shown). Read with the streaming parser, as it is
     * written: a plain {@code status} shows these words and loads no data-binding classes.
     */
    static Said read(String json) {
        if (json == null || json.isBlank()) {
            return null;
        }
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            Said said = said(p);
            return p.nextToken() == null ? said : null;
        } catch (Exception e) {
            return null;
        }
    }

    /** The message whose object {@code p} has just opened, read up to its end. */
    private static Said said(JsonParser p) throws IOException {
        String key = null;
        List<Object> args = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if (field.equals("key") && value == JsonToken.VALUE_STRING) {
                key = p.getText();
            } else if (field.equals("args") && value == JsonToken.START_ARRAY) {
                args = args(p);
            } else {
                p.skipChildren();
            }
        }
        if (args == null) {
            throw new IllegalArgumentException("not a message: no args");
        }
        return key == null ? Said.plain(args.isEmpty() ? "" : String.valueOf(args.get(0))) : new Said(key, args);
    }

    private static List<Object> args(JsonParser p) throws IOException {
        List<Object> args = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            switch (t) {
                case START_OBJECT -> args.add(said(p));
                case VALUE_NUMBER_INT -> args.add(switch (p.getNumberType()) {
                    case INT -> (Object) p.getIntValue();
                    case LONG -> p.getLongValue();
                    default -> p.getBigIntegerValue();
                });
                case VALUE_NUMBER_FLOAT -> args.add(p.getDoubleValue());
                case START_ARRAY -> throw new IllegalArgumentException("not a message: an array argument");
                default -> args.add(p.getText());
            }
        }
        return args;
    }
}
