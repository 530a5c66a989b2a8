package io.keyline.core.jobfile;

import io.keyline.text.Said;

import java.util.Collection;

/** "Did you mean" hints for misspelt names. */
final class Suggestions {

    private static final int MAX_DISTANCE = 2;
    private static final int LONG_NAME = 6;

    private Suggestions() {
    }

    /**
     * {@code  (did you mean "x"?)} for the closest candidate within edit distance 2 (3 for names of
     * 6 or more characters, so that {@code retires} still finds {@code retry}), else nothing: the end of a message
     * that names what was not found.
     */
    static Said didYouMean(String name, Collection<String> candidates) {
        String best = null;
        int bestDistance = (name.length() >= LONG_NAME ? MAX_DISTANCE + 1 : MAX_DISTANCE) + 1;
        for (String candidate : candidates) {
            int d = distance(name, candidate);
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return best == null ? Said.plain("") : Said.of("core.jobfile.didYouMean", "\"" + best + "\"");
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
