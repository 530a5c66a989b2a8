package io.keyline.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A shipped example job put in a workbench's jobs folder as a user copies it: the script it runs beside it in
 * {@code scripts/}, and its site's addresses (and any other text a user changes, an account's id) replaced by the
 * loopback site's.
 */
public final class ExampleJob {

    private final Workbench wb;
    private final String name;
    private final Map<String, String> replacing;

    /**
     * @param name      the example's job name, also its file's name under {@code resources/jobs/examples/}
     * @param script    the script under {@code resources/jobs/scripts/} that it runs
     * @param replacing the texts of the shipped file to replace, in order, by the test's (its hosts by the site's)
     */
    public ExampleJob(Workbench wb, String name, String script, Map<String, String> replacing) throws IOException {
        this.wb = wb;
        this.name = name;
        this.replacing = new LinkedHashMap<>(replacing);
        Path scripts = Files.createDirectories(wb.jobs.resolve("scripts"));
        Files.copy(Path.of("resources/jobs/scripts").resolve(script), scripts.resolve(script));
        String text = text();
        assertThat(text).as("the texts a user changes in " + name).contains(this.replacing.keySet());
        write(text);
    }

    /** The shipped file as it is. */
    public String text() throws IOException {
        return Files.readString(Path.of("resources/jobs/examples").resolve(name + ".json"), StandardCharsets.UTF_8);
    }

    /** Writes {@code text} as the job's file, with the site's addresses in it. */
    public void write(String text) throws IOException {
        for (Map.Entry<String, String> r : replacing.entrySet()) {
            text = text.replace(r.getKey(), r.getValue());
        }
        Files.writeString(wb.jobs.resolve(name + ".json"), text, StandardCharsets.UTF_8);
    }

    /** Writes the shipped job with {@code from} replaced by {@code to}; the shipped job must contain {@code from}. */
    public void with(String from, String to) throws IOException {
        String text = text();
        assertThat(text).contains(from);
        write(text.replace(from, to));
    }

    /** Asserts that docs/job-files.md shows the shipped file as it is. */
    public void isShownInTheDocs() throws IOException {
        assertThat(Files.readString(Path.of("docs/job-files.md"), StandardCharsets.UTF_8))
                .as("the docs show the shipped example " + name + " as it is").contains(text().strip());
    }
}
