package io.keyline.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Figures: median of several measured runs, printed as {@code BENCH name value unit}, raw runs kept. */
final class Stats {
    static final Path OUT = Path.of(System.getProperty("bench.out", "target/bench"));

    private Stats() {
    }

    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(Double::compare);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    /** Prints the figure and appends the raw runs to target/bench/raw.tsv. */
    static double figure(String name, List<Double> runs, String unit) throws IOException {
        double m = median(runs);
        print(name, m, unit);
        raw(name, unit, runs);
        return m;
    }

    static void print(String name, double value, String unit) throws IOException {
        String v = value >= 100 ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.2f", value);
        String line = "BENCH " + name + " " + v + " " + unit;
        System.out.println(line);
        Files.createDirectories(OUT);
        Files.writeString(OUT.resolve("figures.txt"), line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    static void raw(String name, String unit, List<Double> runs) throws IOException {
        Files.createDirectories(OUT);
        StringBuilder sb = new StringBuilder(name).append('\t').append(unit);
        for (double r : runs) {
            sb.append('\t').append(String.format(Locale.ROOT, "%.3f", r));
        }
        Files.writeString(OUT.resolve("raw.tsv"), sb.append('\n').toString(), StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** The runs as {@code a, b, c} (two decimals). */
    static String list(List<Double> xs) {
        StringBuilder sb = new StringBuilder();
        for (double x : xs) {
            sb.append(sb.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", x));
        }
        return sb.toString();
    }

    static void log(String s) {
        System.out.println("[bench] " + s);
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (var w = Files.walk(p)) {
            for (Path f : w.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}
