package io.keyline.core.jobfile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The corpus of broken job files: each file under {@code jobfiles/broken} is rejected with
 * exactly the errors listed for it in {@code expected.txt}.
 */
class BrokenJobFilesTest {

    static Path folder() throws URISyntaxException {
        return Path.of(BrokenJobFilesTest.class.getResource("/jobfiles/broken/expected.txt").toURI()).getParent();
    }

    static Map<String, List<String>> expected() throws IOException, URISyntaxException {
        return Files.readAllLines(folder().resolve("expected.txt"), StandardCharsets.UTF_8).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .collect(Collectors.groupingBy(line -> line.substring(0, line.indexOf(':')), TreeMap::new,
                        Collectors.toList()));
    }

    static Stream<String> brokenFiles() throws IOException, URISyntaxException {
        try (Stream<Path> files = Files.list(folder())) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".json")).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenFiles")
    void rejectedWithExactlyTheExpectedErrors(String name) throws Exception {
        JobFileLoader.Result result = JobFileLoader.loadFile(folder().resolve(name));

        assertThat(result.job()).isNull();
        assertThat(result.job()).isNull();
        assertThat(result.errors())
                .extracting(e -> e.file().getFileName() + ":" + e.line() + ":" + e.column() + ": " + e.message())
                .containsExactlyElementsOf(expected().get(name));
    }

    @Test
    void corpusIsLargeAndEveryFileHasExpectations() throws Exception {
        List<String> files = brokenFiles().toList();

        assertThat(files).hasSizeGreaterThanOrEqualTo(20);
        assertThat(expected().keySet()).containsExactlyElementsOf(files);
    }

    @Test
    void errorPrintsAsFileLineColumnMessage() throws Exception {
        Path file = folder().resolve("04-bad-name.json");

        JobFileError error = JobFileLoader.loadFile(file).errors().get(0);

        assertThat(error).hasToString(file + ":2:11: name \"Daily_Article\" is invalid: use lower-case letters,"
                + " digits and \"-\", starting with a letter or digit, at most 63 characters");
    }
}
