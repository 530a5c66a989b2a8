package io.keyline.cli;

import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** --help works on every command and exits 0; jobs fails when no job file is valid. */
class CliHygieneTest {

    @TempDir
    Path tmp;

    /** Every command path of the tree, from picocli itself: commands added later are covered. */
    static List<List<String>> commandPaths() {
        List<List<String>> out = new ArrayList<>();
        collect(KeylineCli.commandLine(new KeylineCli()), new ArrayList<>(), out);
        return out;
    }

    private static void collect(CommandLine c, List<String> path, List<List<String>> out) {
        out.add(List.copyOf(path));
        c.getSubcommands().forEach((name, sub) -> {
            if (!sub.getCommandName().equals(name)) {
                return; // an alias
            }
            List<String> p = new ArrayList<>(path);
            p.add(name);
            collect(sub, p, out);
        });
    }

    @Test
    void helpOnEveryCommandAndSubcommandExitsZero() throws IOException {
        Workbench wb = new Workbench(tmp);
        List<List<String>> paths = commandPaths();
        assertThat(paths).contains(List.of("run"), List.of("credentials", "set"), List.of());
        for (List<String> path : paths) {
            for (String flag : List.of("--help", "-h")) {
                List<String> args = new ArrayList<>(path);
                args.add(flag);
                Result r = wb.cli(args.toArray(String[]::new));
                assertThat(r.exit()).as("keyline " + String.join(" ", args) + "\n" + r).isZero();
                assertThat(r.out()).as("keyline " + String.join(" ", args)).contains("Usage: keyline");
                assertThat(r.err()).as("keyline " + String.join(" ", args)).isEmpty();
            }
        }
        assertThat(Files.exists(wb.state)).as("--help opens no state").isFalse();
    }

    @Test
    void aUsageErrorPointsToAHelpThatWorks() throws IOException {
        Workbench wb = new Workbench(tmp);
        Result r = wb.cli("run", "--bogus");
        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.err()).contains("Try 'keyline run --help'.");
        assertThat(wb.cli("run", "--help").exit()).isZero();
    }

    @Test
    void jobsExitsOneWhenNoJobFileIsValid() throws IOException {
        Workbench wb = new Workbench(tmp);
        Result empty = wb.cli("jobs");
        assertThat(empty.exit()).as(empty.toString()).isEqualTo(1);
        assertThat(empty.out()).contains("No valid jobs in " + wb.jobs.toAbsolutePath());

        Files.writeString(wb.jobs.resolve("broken.json"), "{ \"name\": \"broken\", \"nope\": 1 }");
        Result broken = wb.cli("jobs");
        assertThat(broken.exit()).as(broken.toString()).isEqualTo(1);
        assertThat(broken.out()).contains("every job file there is invalid").contains("broken.json:1:");

        wb.job("good", """
            { "name": "good", "key": { "type": "manual" },
              "steps": [ { "id": "a", "kind": "command", "effect": "none", "command": ["true"] } ] }
            """, null);
        Result good = wb.cli("jobs");
        assertThat(good.exit()).as(good.toString()).isZero();
        assertThat(good.out()).contains("good").contains("broken.json:1:");
    }
}
