package io.keyline.ops;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The repository explains itself: no source file, document or build file points to a contract section or a
 * tracker's issue that a reader of the repository cannot open. (Public standards, "RFC 6265 §5.2", are fine.)
 */
class NoOutsideReferencesTest {

    private static final Pattern OUTSIDE = Pattern.compile("\\bSPEC\\b|\\b[Ii]ssue ?#?\\d+|\\[issue");

    @Test
    void nothingCitesAContractSectionOrAnIssue() throws IOException {
        List<Path> files = new ArrayList<>(List.of(Path.of("README.md"), Path.of("README.zh-CN.md"),
                Path.of("pom.xml")));
        for (String dir : List.of("src", "docs", "packaging", ".ci")) {
            try (Stream<Path> s = Files.walk(Path.of(dir))) {
                s.filter(Files::isRegularFile).filter(p -> !p.equals(Path.of("src/test/java/io/keyline/ops/"
                        + getClass().getSimpleName() + ".java")))
                        .filter(NoOutsideReferencesTest::text).forEach(files::add);
            }
        }
        assertThat(files.size()).as("files read").isGreaterThan(300);
        List<String> found = new ArrayList<>();
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f);
            for (int i = 0; i < lines.size(); i++) {
                if (OUTSIDE.matcher(lines.get(i)).find()) {
                    found.add(f + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        assertThat(found).as("lines that cite what is not in the repository").isEmpty();
    }

    @Test
    void thePatternSeesACitation() {
        assertThat(OUTSIDE.matcher("// as issue 14 asked").find()).isTrue();
        assertThat(OUTSIDE.matcher("/** SPEC §3 in one place */").find()).isTrue();
        assertThat(OUTSIDE.matcher("/** the exit code SPEC asks for */").find()).isTrue();
        assertThat(OUTSIDE.matcher("SPECIAL_CHARACTERS").find()).isFalse();
        assertThat(OUTSIDE.matcher("RFC 6265 §5.2 reads it").find()).isFalse();
    }

    private static boolean text(Path p) {
        String n = p.getFileName().toString();
        return Stream.of(".java", ".md", ".properties", ".css", ".sql", ".json", ".sh", ".service", ".timer",
                ".txt", ".xml", ".args", ".conf").anyMatch(n::endsWith) || n.equals("run");
    }
}
