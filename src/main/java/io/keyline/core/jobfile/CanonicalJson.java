package io.keyline.core.jobfile;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;
import java.util.TreeMap;

/**
 * Canonical JSON text, so that JSON values can be compared as strings: no whitespace, object
 * fields sorted by name, numbers in plain notation without trailing zeros ({@code 1.50} and
 * {@code 15e-1} both become {@code 1.5}, {@code 0.0} becomes {@code 0}; a number with more than 64 zeros
 * in plain notation keeps an exponent, see {@link #number}). A probe's
 * {@code presentWhen.equals} is stored in this form, and a response value must be written
 * with the same method before it is compared.
 */
public final class CanonicalJson {

    private CanonicalJson() {
    }

    /** The canonical text of a JSON value. */
    public static String of(JsonNode node) {
        StringBuilder out = new StringBuilder();
        write(node, out);
        return out.toString();
    }

    private static void write(JsonNode node, StringBuilder out) {
        if (node.isObject()) {
            Map<String, JsonNode> sorted = new TreeMap<>();
            node.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
            out.append('{');
            String separator = "";
            for (Map.Entry<String, JsonNode> field : sorted.entrySet()) {
                out.append(separator);
                quote(field.getKey(), out);
                out.append(':');
                write(field.getValue(), out);
                separator = ",";
            }
            out.append('}');
        } else if (node.isArray()) {
            out.append('[');
            String separator = "";
            for (JsonNode item : node) {
                out.append(separator);
                write(item, out);
                separator = ",";
            }
            out.append(']');
        } else if (node.isTextual()) {
            quote(node.textValue(), out);
        } else if (node.isNumber()) {
            out.append(number(node.decimalValue()));
        } else {
            out.append(node.isBoolean() ? String.valueOf(node.booleanValue()) : "null");
        }
    }

    /** Beyond this many zeros, a number is written with an exponent: plain notation would be its size. */
    private static final int PLAIN_ZEROS = 64;

    /**
     * A number's canonical text: plain notation without trailing zeros ({@code 1.5}, {@code 100}, {@code 0}),
     * or, when that would add more than {@value #PLAIN_ZEROS} zeros, scientific notation of the stripped value
     * ({@code 1E+2147483627}): a number is never written out in two billion digits.
     */
    public static String number(java.math.BigDecimal value) {
        if (value.signum() == 0) {
            return "0";
        }
        java.math.BigDecimal stripped;
        try {
            stripped = value.stripTrailingZeros();
        } catch (ArithmeticException scaleOverflow) {
            stripped = value;
        }
        int scale = stripped.scale();
        return scale >= -PLAIN_ZEROS && scale <= stripped.precision() + PLAIN_ZEROS ? stripped.toPlainString()
                : stripped.toString();
    }

    private static void quote(String text, StringBuilder out) {
        out.append('"');
        JsonStringEncoder.getInstance().quoteAsString(text, out);
        out.append('"');
    }
}
