package io.keyline.cli;

import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/cli.md is picocli's usage help of every command, generated. When a command changes, regenerate:
 * {@code mvn -B -q test -Dtest=CliDocsTest -Dkeyline.docs.write=true}.
 */
class CliDocsTest {

    static final Path DOC = Path.of("docs/cli.md");

    static String render(Workbench wb) {
        StringBuilder md = new StringBuilder();
        md.append("# Command line\n\n")
                .append("Generated from the commands' own `--help` by `CliDocsTest`; do not edit by hand. Regenerate with\n")
                .append("`mvn -B -q test -Dtest=CliDocsTest -Dkeyline.docs.write=true`.\n\n")
                .append("Exit codes and what a scheduler makes of them: [operations.md](operations.md). Job files: ")
                .append("[job-files.md](job-files.md).\n");
        for (List<String> path : CliHygieneTest.commandPaths()) {
            List<String> args = new ArrayList<>(path);
            args.add("--help");
            // the root's help says which state and jobs folder are in use: fixed ones, so that it does not vary
            Result r = path.isEmpty() ? wb.cliIn(Path.of("/"), "--state", "/srv/keyline/state", "--jobs",
                    "/srv/keyline/jobs", "--help") : wb.cli(args.toArray(String[]::new));
            md.append("\n## keyline").append(path.isEmpty() ? "" : " " + String.join(" ", path)).append("\n\n```text\n")
                    .append(r.out().stripTrailing()).append("\n```\n");
        }
        return md.toString();
    }

    @Test
    void cliMdIsThePicocliUsageOfEveryCommand(@TempDir Path tmp) throws IOException {
        String now = render(new Workbench(tmp));
        if (Boolean.getBoolean("keyline.docs.write")) {
            Files.writeString(DOC, now, StandardCharsets.UTF_8);
        }
        assertThat(Files.readString(DOC)).as("docs/cli.md is out of date: regenerate it with "
                + "mvn -B -q test -Dtest=CliDocsTest -Dkeyline.docs.write=true").isEqualTo(now);
        for (String command : List.of("## keyline run", "## keyline notify test", "## keyline backup",
                "## keyline credentials set")) {
            assertThat(now).contains(command);
        }
    }
}
