package io.keyline.cli;

import io.keyline.core.RunOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 14 (CLI latency): {@code status}, {@code jobs} and {@code timeline} in their plain forms are read
 * without picocli ({@link BriefCommandLine}). Every line it accepts must come out as picocli reads it (each
 * field picocli fills, the root's options too, compared by reflection, so an option added later with a default
 * is caught here); every other line is left to picocli, whose messages stay what they were.
 */
class BriefCommandLineTest {

    private static final List<List<String>> ACCEPTED = List.of(
            List.of("status"),
            List.of("jobs"),
            List.of("status", "daily"),
            List.of("status", "--attention"),
            List.of("status", "--json", "daily", "--attention"),
            List.of("status", "jobs"), // a job named like a command
            List.of("status", ""), // an empty job name: the command says it is unknown
            List.of("--state", "s", "status"),
            List.of("--state=s", "--jobs=j", "status", "--json"),
            List.of("--jobs", "status", "--state", "run", "status"), // values that look like commands
            List.of("--master-key-file", "/k", "--state", "postgresql://db/keyline", "jobs"),
            List.of("--state", "a=b", "jobs"),
            List.of("timeline", "daily", "2026-11-30"),
            List.of("timeline", "--json", "daily", "k 1"),
            List.of("--state", "s", "timeline", "daily", "k", "--json"));

    private static final List<List<String>> LEFT_TO_PICOCLI = List.of(
            List.of(), List.of("--help"), List.of("--version"), List.of("status", "--help"), List.of("status", "-h"),
            List.of("status", "a", "b"), List.of("status", "--jsn"), List.of("status", "--json", "--json"),
            List.of("status", "--json=true"), List.of("status", "@args.txt"), List.of("status", "--"),
            List.of("status", "-"), List.of("--state", "a", "--state", "b", "status"), List.of("--state"),
            List.of("--state", "status"), List.of("--state=", "status"), List.of("--state", "-x", "status"),
            List.of("--state", "@s", "status"), List.of("--State", "s", "status"), List.of("status", "--state", "s"),
            List.of("jobs", "x"), List.of("jobs", "--json"), List.of("timeline", "daily"),
            List.of("timeline", "a", "b", "c"), List.of("timeline", "a", "b", "--attention"), List.of("run", "daily"),
            List.of("stauts"), List.of("--jobs", "j\u0000x", "status"));

    @Test
    void everyLineItAcceptsIsReadAsPicocliReadsIt() throws Exception {
        for (List<String> line : ACCEPTED) {
            String[] args = line.toArray(String[]::new);
            BriefCommandLine.Parsed fast = BriefCommandLine.parse(args);
            assertThat(fast).as("accepted: %s", line).isNotNull();
            KeylineCli fastRoot = new KeylineCli();
            fast.bind(fastRoot);

            KeylineCli picoRoot = new KeylineCli();
            CommandLine cl = KeylineCli.commandLine(picoRoot, args);
            cl.setAllowSubcommandsAsOptionParameters(true);
            CommandLine.ParseResult parsed = cl.parseArgs(args);
            Object picoCommand = parsed.subcommand().commandSpec().userObject();

            assertThat(fast.command()).as("%s", line).isExactlyInstanceOf(picoCommand.getClass());
            assertThat(fields(fast.command())).as("the command's fields of %s", line).isEqualTo(fields(picoCommand));
            assertThat(fields(fastRoot)).as("the root's options of %s", line).isEqualTo(fields(picoRoot));
            assertThat(fast.command().parentCommand).isSameAs(fastRoot);
            assertThat(((Sub) picoCommand).parentCommand).isSameAs(picoRoot);
        }
    }

    @Test
    void everyOtherLineIsLeftToPicocli() {
        for (List<String> line : LEFT_TO_PICOCLI) {
            assertThat(BriefCommandLine.parse(line.toArray(String[]::new))).as("left to picocli: %s", line).isNull();
        }
    }

    @Test
    void theCommandsItKnowsAreNamedAsTheirAnnotationsSay() {
        for (Class<?> c : List.of(StatusCommand.class, JobsCommand.class, TimelineCommand.class)) {
            String name = c.getAnnotation(CommandLine.Command.class).name();
            assertThat(BriefCommandLine.parse(args(name, c))).as(name).isNotNull()
                    .extracting(p -> p.command().getClass()).isEqualTo(c);
        }
    }

    @Test
    void bothReadingsPrintTheSameAndPicocliStillSaysWhatIsWrong(@TempDir Path tmp) throws Exception {
        Path jobs = Files.createDirectories(tmp.resolve("jobs"));
        Path state = tmp.resolve("state");
        Files.writeString(jobs.resolve("daily.json"), """
            { "name": "daily", "key": { "type": "manual" },
              "steps": [ { "id": "work", "kind": "command", "effect": "none", "command": ["true"] } ] }
            """);
        String[] root = {"--state", state.toString(), "--jobs", jobs.toString()};
        assertThat(run(false, root, "run", "daily", "--key", "k1")[0]).isEqualTo("0");
        for (List<String> line : List.of(List.of("status"), List.of("status", "daily", "--json"), List.of("jobs"),
                List.of("timeline", "daily", "k1"), List.of("status", "nosuchjob"),
                List.of("timeline", "daily", "nosuchkey"))) {
            String[] fast = run(true, root, line.toArray(String[]::new));
            String[] pico = run(false, root, line.toArray(String[]::new));
            assertThat(fast).as("exit, stdout, stderr of %s", line).isEqualTo(pico);
        }
        assertThat(run(true, root, "status", "k1")[2]).contains("unknown job \"k1\"");

        String[] unknown = run(true, root, "status", "--jsn");
        assertThat(unknown[0]).isEqualTo("64");
        assertThat(unknown[2]).contains("Unknown option: '--jsn'").contains("Try 'keyline status --help'");
        String[] missing = run(true, root, "timeline", "daily");
        assertThat(missing[0]).isEqualTo("64");
        assertThat(missing[2]).contains("Missing required parameter: 'KEY'");
    }

    /** A line naming {@code c} with just its required parameters. */
    private static String[] args(String name, Class<?> c) {
        return c == TimelineCommand.class ? new String[] {name, "job", "key"} : new String[] {name};
    }

    /** exit code, stdout, stderr of {@code line} after the root options, read by BriefCommandLine or not. */
    private static String[] run(boolean fast, String[] root, String... line) {
        String before = System.getProperty("keyline.cli.fastParse");
        System.setProperty("keyline.cli.fastParse", String.valueOf(fast));
        try {
            String[] args = new String[root.length + line.length];
            System.arraycopy(root, 0, args, 0, root.length);
            System.arraycopy(line, 0, args, root.length, line.length);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit = KeylineCli.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), RunOptions.standard());
            return new String[] {String.valueOf(exit), out.toString(StandardCharsets.UTF_8),
                    err.toString(StandardCharsets.UTF_8)};
        } finally {
            if (before == null) {
                System.clearProperty("keyline.cli.fastParse");
            } else {
                System.setProperty("keyline.cli.fastParse", before);
            }
        }
    }

    /** Every field picocli fills ({@code @Option}, {@code @Parameters}) of {@code o}, by name. */
    private static Map<String, Object> fields(Object o) throws IllegalAccessException {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Class<?> c = o.getClass(); c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.isAnnotationPresent(CommandLine.Option.class) || f.isAnnotationPresent(CommandLine.Parameters.class)) {
                    f.setAccessible(true);
                    m.put(c.getSimpleName() + "." + f.getName(), f.get(o));
                }
            }
        }
        return m;
    }
}
