package io.keyline.core.exec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which shell commands Keyline calls a missing program before starting them: a script given by its path that is
 * not there. A bare name is left to the shell, which may find it on PATH (bash does; dash does not).
 */
class MissingScriptTest {

    @TempDir
    Path dir;

    private String missing(String... argv) {
        var said = CommandExecutor.missingScript(new Rendering.RenderedCommand(List.of(argv), dir, Map.of()));
        return said == null ? null : said.english();
    }

    @Test
    void aScriptGivenByItsPathThatIsNotThereIsMissing() throws Exception {
        assertThat(missing("sh", "scripts/x.sh")).isEqualTo("cannot start sh: its script scripts/x.sh is not in "
                + dir);
        assertThat(missing("/bin/bash", "./x.sh", "2026-11-29")).startsWith("cannot start /bin/bash: its script ./x.sh");
        Files.createDirectories(dir.resolve("scripts"));
        Files.writeString(dir.resolve("scripts/x.sh"), "exit 0\n");
        assertThat(missing("sh", "scripts/x.sh")).isNull();
    }

    @Test
    void aBareNameIsLeftToTheShellThatMayFindItOnItsPath() {
        assertThat(missing("bash", "which", "ls")).as("bash runs a script it finds on PATH").isNull();
        assertThat(missing("sh", "-c", "exit 0")).as("told what to run by an option").isNull();
        assertThat(missing("python3", "scripts/x.py")).as("not a shell").isNull();
        assertThat(missing("/", "x")).as("a program named by a root path").isNull();
    }
}
