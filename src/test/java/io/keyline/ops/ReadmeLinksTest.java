package io.keyline.ops;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The README and docs/ link only to files of this repository, and those files exist. */
class ReadmeLinksTest {

    @Test
    void linksStayInTheRepositoryAndResolve() throws Exception {
        List<Path> docs = new ArrayList<>(List.of(Path.of("README.md")));
        try (var s = Files.list(Path.of("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).forEach(docs::add);
        }
        assertThat(docs).contains(Path.of("docs/job-files.md"), Path.of("docs/cli.md"), Path.of("docs/operations.md"));
        Pattern link = Pattern.compile("\\]\\(([^)\\s]+)\\)");
        for (Path doc : docs) {
            String text = Files.readString(doc);
            assertThat(text).as(doc + " points outside the repository").doesNotContain("../shared")
                    .doesNotContainPattern("(?i)spec\\.md");
            Matcher m = link.matcher(text);
            while (m.find()) {
                String target = m.group(1);
                assertThat(target).as(doc + " links to " + target).doesNotStartWith("http").doesNotStartWith("/")
                        .doesNotContain("..");
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                if (!file.isEmpty()) {
                    assertThat(doc.resolveSibling(file)).as(doc + " links to " + target).exists();
                }
            }
        }
        String readme = Files.readString(Path.of("README.md"));
        for (String d : List.of("docs/job-files.md", "docs/cli.md", "docs/operations.md")) {
            assertThat(readme).contains("](" + d + ")");
        }
    }
}
