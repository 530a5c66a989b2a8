package io.keyline.reliability;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.stream.Collectors;

/** Prints a suite's one result line and keeps it (and its details) under {@code target/reliability/}. */
final class Suites {
    static final Path OUT = Path.of("target", "reliability");

    private Suites() {
    }

    /** Prints {@code RELIABILITY suite k=v ...} and writes it to {@code target/reliability/SUITE.txt}. */
    static String report(String suite, Map<String, ?> figures, String details) throws IOException {
        String line = "RELIABILITY " + suite + " " + figures.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
        System.out.println(line);
        Files.createDirectories(OUT);
        Files.writeString(OUT.resolve(suite + ".txt"), line + "\n\n" + details, StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
        return line;
    }
}
