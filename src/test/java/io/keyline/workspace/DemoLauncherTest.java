package io.keyline.workspace;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The demo tells the operator how to open its console with the program they started, from the folder they are in. */
class DemoLauncherTest {

    @Test
    void fromTheRepositoryItNamesTheJarAsTheReadmeDoes() {
        assertThat(Demo.launcher(Path.of("/home/ana/keyline/target/keyline.jar"), Path.of("/home/ana/keyline"), false))
                .isEqualTo("java -jar target/keyline.jar");
    }

    @Test
    void fromAnotherFolderItNamesTheJarWhereItIs() {
        assertThat(Demo.launcher(Path.of("/home/ana/keyline/target/keyline.jar"), Path.of("/home/ana/try"), false))
                .isEqualTo("java -jar /home/ana/keyline/target/keyline.jar");
        assertThat(Demo.launcher(Path.of("/home/ana/my tools/keyline.jar"), Path.of("/tmp"), false))
                .as("a path with a space is quoted for the shell")
                .isEqualTo("java -jar '/home/ana/my tools/keyline.jar'");
    }

    @Test
    void theInstalledAppIsStartedByItsCommand() {
        assertThat(Demo.launcher(Path.of("/opt/keyline/lib/app/keyline.jar"), Path.of("/home/ana"), true))
                .isEqualTo("keyline");
    }

    @Test
    void fromBuiltClassesItNamesTheJarTheBuildMakes() {
        assertThat(Demo.launcher(Path.of("/home/ana/keyline/target/classes"), Path.of("/home/ana/keyline"), false))
                .isEqualTo("java -jar target/keyline.jar");
    }
}
