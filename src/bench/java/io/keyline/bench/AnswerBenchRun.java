package io.keyline.bench;

import io.keyline.core.exec.AnswerBench;

import java.io.IOException;
import java.util.List;

/** B10: prints the per-MiB times of {@link AnswerBench} and the 4 MiB / 1 MiB ratio of each (1.0 is linear). */
final class AnswerBenchRun {
    private AnswerBenchRun() {
    }

    private static double best(AnswerBench.Figure f) {
        return f.msPerMib().stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    static void run() throws IOException {
        Stats.log("B10 reading answers: extract over HTML, hostile patterns over a hostile body (RE2/J, jsoup)");
        List<AnswerBench.Figure> figures = AnswerBench.run();
        double[] medians = new double[figures.size()];
        for (int i = 0; i < figures.size(); i++) {
            medians[i] = Stats.figure(figures.get(i).name(), figures.get(i).msPerMib(), "ms/MiB");
        }
        Stats.print("b10.extract_html_ratio_4mib_to_1mib", medians[1] / medians[0], "x");
        Stats.print("b10.hostile_regex_ratio_4mib_to_1mib", medians[3] / medians[2], "x");
        // on a loaded machine the fastest run of each is the steadiest measure of the work itself
        Stats.print("b10.extract_html_ratio_4mib_to_1mib_fastest", best(figures.get(1)) / best(figures.get(0)), "x");
        Stats.print("b10.hostile_regex_ratio_4mib_to_1mib_fastest", best(figures.get(3)) / best(figures.get(2)), "x");
    }
}
