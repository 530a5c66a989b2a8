package io.keyline.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A command line that names its command builds only that command's model. */
class CommandLineModelTest {

    @Test
    void theNamedCommandIsFoundPastTheRootOptionsAndTheirValues() {
        assertThat(KeylineCli.namedCommand(new String[] {"status"})).isEqualTo(StatusCommand.class);
        assertThat(KeylineCli.namedCommand(new String[] {"--state", "status", "--jobs", "run", "status", "--json"}))
                .as("values of root options that look like commands").isEqualTo(StatusCommand.class);
        assertThat(KeylineCli.namedCommand(new String[] {"--jobs=run", "credentials", "set", "x"}))
                .isEqualTo(CredentialsCommand.class);
        assertThat(KeylineCli.namedCommand(new String[] {"--help"})).isNull();
        assertThat(KeylineCli.namedCommand(new String[] {"stauts"})).isNull();
        assertThat(KeylineCli.namedCommand(new String[] {})).isNull();
    }

    @Test
    void onlyThatCommandsModelIsBuiltAndHelpStillListsThemAll() {
        assertThat(KeylineCli.commandLine(new KeylineCli(), new String[] {"status"}).getSubcommands())
                .containsOnlyKeys("status");
        assertThat(KeylineCli.commandLine(new KeylineCli(), new String[] {"credentials", "test", "x"})
                .getSubcommands().get("credentials").getSubcommands()).containsKeys("set", "test", "list");
        assertThat(KeylineCli.commandLine(new KeylineCli(), new String[] {"--help"}).getSubcommands())
                .hasSize(KeylineCli.commands().size());
        assertThat(KeylineCli.commandLine(new KeylineCli(), new String[] {"--state", "x", "--help"}).getSubcommands())
                .hasSize(KeylineCli.commands().size());
        assertThat(KeylineCli.commandLine(new KeylineCli(), new String[] {"--state", "run", "stauts"})
                .getSubcommands()).as("a typo after a root option").hasSize(KeylineCli.commands().size());
    }

    @Test
    void theConsoleBuildsNoCommandsModel() {
        for (String[] args : new String[][] {{}, {"--state", "run"}, {"--jobs=jobs", "--init"}, {"--state"}}) {
            assertThat(KeylineCli.opensTheConsole(args)).as(String.join(" ", args)).isEqualTo(args.length != 1);
        }
        assertThat(KeylineCli.commandLine(new KeylineCli(), new String[] {"--state", "run"}).getSubcommands())
                .isEmpty();
        assertThat(KeylineCli.opensTheConsole(new String[] {"--version"})).isFalse();
        assertThat(KeylineCli.opensTheConsole(new String[] {"-h"})).isFalse();
        assertThat(KeylineCli.opensTheConsole(new String[] {"--state", "x", "jobs"})).isFalse();

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KeylineCli.execute(new String[] {"stauts"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), io.keyline.core.RunOptions.standard());
        assertThat(exit).isEqualTo(64);
        assertThat(err.toString(StandardCharsets.UTF_8)).as("a typo still gets picocli's suggestion")
                .contains("stauts").contains("Did you mean: status");
    }
}
