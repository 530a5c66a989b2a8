package io.keyline.core.exec;

import io.keyline.core.match.ConditionText;
import io.keyline.core.match.Deadline;
import io.keyline.domain.Condition;
import io.keyline.domain.Extraction;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * B10: reading an answer stays linear in its size. {@code extract} (jsoup CSS rules and an RE2/J regex) over an
 * HTML answer of 1 and 4 MiB, and patterns that make a backtracking engine run for ever ({@code matches} /
 * {@code bodyMatches}) over a hostile body of 1 and 4 MiB: time per MiB for each, and the ratio 4 MiB / 1 MiB of
 * the per-MiB times (1.0 is linear; a backtracking engine does not finish). The executor reads at most 1 MiB
 * of a body; 4 MiB here shows the growth, not a size Keyline reads. In this package for {@link Extractor}.
 */
public final class AnswerBench {

    private static final int RUNS = 7;
    private static final ConditionText.Vars VARS = new ConditionText.Vars("2026-11-29", "wiki");

    private AnswerBench() {
    }

    /** One measured figure: milliseconds per MiB. */
    public record Figure(String name, List<Double> msPerMib) {
    }

    public static List<Figure> run() {
        Map<String, Extraction> rules = new LinkedHashMap<>();
        rules.put("sectok", new Extraction.Css("input[name=sectok]", "value", false, false));
        rules.put("title", new Extraction.Css("div.page h1", null, false, false));
        rules.put("rev", new Extraction.Regex("name=\"rev\" value=\"([0-9]+)\"", 1, false, false));
        Condition evilHeaderLike = new Condition.BodyMatches("^(?:[a-z0-9]+?-?)+?\\.example\\.com$");
        Condition evilBody = new Condition.BodyMatches("(a|aa)+c$");
        Condition nested = new Condition.BodyMatches("(x+x+)+y");
        List<String> names = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        List<Supplier<Object>> work = new ArrayList<>();
        for (int mib : new int[] {1, 4}) {
            byte[] html = html(mib);
            names.add("b10.extract_html_" + mib + "mib");
            sizes.add(mib);
            work.add(() -> {
                Extractor.Result r = Extractor.extract(rules, answer(html), List.of(), URI.create("http://wiki.test/"));
                if (r.missingName() != null) {
                    throw new IllegalStateException("missing " + r.missingName());
                }
                return r;
            });
        }
        for (int mib : new int[] {1, 4}) {
            byte[] hostile = hostile(mib);
            names.add("b10.hostile_regex_" + mib + "mib");
            sizes.add(mib);
            work.add(() -> {
                for (Condition c : List.of(evilHeaderLike, evilBody, nested)) {
                    if (Conditions.evaluate(c, answer(hostile)).met()) {
                        throw new IllegalStateException("a hostile body matched " + c);
                    }
                }
                return null;
            });
        }
        // warm every workload first, then measure them in turns: the JIT and the machine's load treat each
        // size alike, so the ratio of per-MiB times shows the growth, not the order of the runs
        for (int w = 0; w < 3; w++) {
            work.forEach(Supplier::get);
        }
        List<List<Double>> runs = new ArrayList<>();
        work.forEach(x -> runs.add(new ArrayList<>()));
        for (int i = 0; i < RUNS; i++) {
            for (int j = 0; j < work.size(); j++) {
                long t = System.nanoTime();
                work.get(j).get();
                runs.get(j).add((System.nanoTime() - t) / 1e6 / sizes.get(j));
            }
        }
        List<Figure> out = new ArrayList<>();
        for (int j = 0; j < work.size(); j++) {
            out.add(new Figure(names.get(j), runs.get(j)));
        }
        return out;
    }

    private static Conditions.Answer answer(byte[] body) {
        return new Conditions.Answer(200, Map.of(), body, VARS, Deadline.NONE);
    }

    /** A wiki page of about {@code mib} MiB: a long table, the edit form (with its token) at the end. */
    static byte[] html(int mib) {
        StringBuilder sb = new StringBuilder("<html><head><title>journal</title></head><body><div class=page>"
                + "<h1>Journal 2026-11-29</h1><table>");
        int i = 0;
        while (sb.length() < mib * (1 << 20) - 400) {
            sb.append("<tr><td><a href=\"/doku.php?id=journal:").append(i).append("\">Page ").append(i)
                    .append("</a></td><td><input type=hidden name=\"x").append(i).append("\" value=\"")
                    .append(Integer.toHexString(i * 2654435761L > 0 ? i * 31 : i)).append("\"></td></tr>\n");
            i++;
        }
        sb.append("</table><form><input type=\"hidden\" name=\"rev\" value=\"1733\">"
                + "<input type=\"hidden\" name=\"sectok\" value=\"0123456789abcdef\"></form></div></body></html>");
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** {@code mib} MiB that each pattern almost matches everywhere: runs of a, runs of x, never the tail. */
    static byte[] hostile(int mib) {
        StringBuilder sb = new StringBuilder(mib * (1 << 20) + 16);
        String unit = "a".repeat(4000) + "!" + "x".repeat(95) + "-";
        while (sb.length() < mib * (1 << 20)) {
            sb.append(unit);
        }
        sb.setLength(mib * (1 << 20));
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }
}
