package io.keyline.core;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Step outputs are data from outside (a response body, a command's report): bounded before they are
 * stored, so that recording a success can never fail on their size. A value that had to be cut
 * carries {@link #TRUNCATED}; a later step that uses it fails with a clear message instead of sending
 * a cut value.
 */
public final class Outputs {

    /** At most this many outputs per step. */
    public static final int MAX_OUTPUTS = 200;
    /** At most this many characters per value. */
    public static final int MAX_VALUE = 64 * 1024;
    /** At most this many characters in all. */
    public static final int MAX_TOTAL = 512 * 1024;
    /** Ends a value that was cut. */
    public static final String TRUNCATED = "…[truncated by Keyline: the value was too large to keep]";

    private Outputs() {
    }

    /** The outputs, bounded: values over {@link #MAX_VALUE} are cut and marked, the rest dropped past the limits. */
    public static Map<String, String> bounded(Map<String, String> outputs) {
        Map<String, String> out = new LinkedHashMap<>();
        long total = 0;
        for (Map.Entry<String, String> e : outputs.entrySet()) {
            if (out.size() >= MAX_OUTPUTS) {
                break;
            }
            String k = e.getKey().length() > 200 ? e.getKey().substring(0, 200) : e.getKey();
            String v = e.getValue() == null ? "" : e.getValue();
            if (v.length() > MAX_VALUE) {
                v = v.substring(0, MAX_VALUE - TRUNCATED.length()) + TRUNCATED;
            }
            if (total + k.length() + v.length() > MAX_TOTAL) {
                v = TRUNCATED;
            }
            total += k.length() + v.length();
            out.put(k, v);
        }
        return out;
    }
}
