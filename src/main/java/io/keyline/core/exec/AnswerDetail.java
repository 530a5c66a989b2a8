package io.keyline.core.exec;

import io.keyline.text.Said;

import java.util.ArrayList;
import java.util.List;

/**
 * What the evidence of an HTTP answer says besides its status and body: every hop of the redirects that were
 * followed, and the {@code Location} of a redirect. The evidence keeps text, so the detail is recorded as the
 * English of these words, one line each; {@link #shown} says those lines again in the language in use. The hops and
 * the URL are data and stay as they are.
 */
public final class AnswerDetail {

    private static final String HOPS = "core.exec.detailHops";
    private static final String LOCATION = "core.exec.detailLocation";
    /** The keys whose English a recorded line may be, each with one argument. */
    private static final List<String> KEYS = List.of(HOPS, LOCATION);
    /** Stands for the argument while a key's English is split around it. */
    private static final String MARK = "\u0000";

    private AnswerDetail() {
    }

    /** "hops: GET … -> 302; GET … -> 200": every request of the exchange with its status. */
    static Said hops(List<?> hops) {
        return Said.of(HOPS, String.join("; ", hops.stream().map(String::valueOf).toList()));
    }

    /** "Location: …": where a redirect points. */
    static Said location(String location) {
        return Said.of(LOCATION, location);
    }

    /**
     * A recorded detail as shown: each line that is the English of these words, said in the language in use; any
     * other line (a refreshed credential, a site's text) as recorded.
     */
    public static String shown(String recorded) {
        if (recorded == null || recorded.isEmpty()) {
            return recorded;
        }
        List<String> out = new ArrayList<>();
        for (String line : recorded.split("\n", -1)) {
            Said words = words(line);
            out.add(words == null ? line : words.text());
        }
        return String.join("\n", out);
    }

    /** The words whose English {@code line} is, or {@code null}. */
    static Said words(String line) {
        for (String key : KEYS) {
            String english = Said.of(key, MARK).english();
            int at = english.indexOf(MARK);
            String before = english.substring(0, at);
            String after = english.substring(at + MARK.length());
            if (line.length() >= before.length() + after.length() && line.startsWith(before) && line.endsWith(after)) {
                Said words = Said.of(key, line.substring(before.length(), line.length() - after.length()));
                if (words.english().equals(line)) {
                    return words;
                }
            }
        }
        return null;
    }
}
