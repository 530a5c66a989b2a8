package io.keyline.core.exec;

import io.keyline.text.Said;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the evidence of an HTTP answer says besides its status and body: every hop of the redirects that were
 * followed, the {@code Location} of a redirect, and what became of the cookies the site set for the credential.
 * The evidence keeps text, so the detail is recorded as the English of these words, one line each; the evidence
 * panes say those lines again in the language in use ({@link #words} reads one back). The hops, the URL, the
 * credential's name, its fingerprint and a failure's own text are data and stay as they are.
 */
public final class AnswerDetail {

    private static final String HOPS = "core.exec.detailHops";
    private static final String LOCATION = "core.exec.detailLocation";
    private static final String REFRESHED = "core.exec.refreshedBySite";
    private static final String NOT_KEPT = "core.exec.cookiesNotKept";

    /** A key whose English a recorded line may be, and how many arguments it takes. */
    private record Line(String key, int args) {
    }

    private static final List<Line> LINES = List.of(new Line(HOPS, 1), new Line(LOCATION, 1),
            new Line(REFRESHED, 2), new Line(NOT_KEPT, 2));

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

    /** "credential X refreshed by the site (fingerprint …)": the site set cookies the credential now keeps. */
    static Said refreshed(String credential, String fingerprint) {
        return Said.of(REFRESHED, credential, fingerprint);
    }

    /**
     * The words whose English {@code line} is, or {@code null}. An argument that was words of its own (why the
     * cookies could not be kept) comes back as its English text.
     */
    public static Said words(String line) {
        for (Line l : LINES) {
            Object[] marks = new Object[l.args()];
            for (int i = 0; i < marks.length; i++) {
                marks[i] = mark(i);
            }
            String english = Said.of(l.key(), marks).english();
            StringBuilder regex = new StringBuilder("(?s)");
            int from = 0;
            for (int i = 0; i < marks.length; i++) {
                int at = english.indexOf(mark(i), from);
                if (at < 0) {
                    return null; // a bundle whose English lost an argument: the bundle tests catch it
                }
                regex.append(Pattern.quote(english.substring(from, at))).append(i == marks.length - 1 ? "(.*)" : "(.*?)");
                from = at + mark(i).length();
            }
            regex.append(Pattern.quote(english.substring(from)));
            Matcher m = Pattern.compile(regex.toString()).matcher(line);
            if (m.matches()) {
                Object[] args = new Object[marks.length];
                for (int i = 0; i < args.length; i++) {
                    args[i] = m.group(i + 1);
                }
                Said words = Said.of(l.key(), args);
                if (words.english().equals(line)) {
                    return words;
                }
            }
        }
        return null;
    }

    /** Stands for argument {@code i} while a key's English is split around its arguments. */
    private static String mark(int i) {
        return "\u0000" + i + "\u0000";
    }
}
