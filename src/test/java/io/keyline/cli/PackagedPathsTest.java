package io.keyline.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The installed app (its launcher sets {@code -Dkeyline.packaged=true}) keeps state and jobs in the
 * per-user XDG folders; from the repo the defaults stay {@code ./state} and {@code ./resources/jobs}.
 */
class PackagedPathsTest {

    @TempDir
    Path home;

    @AfterEach
    void clear() {
        System.clearProperty("keyline.packaged");
    }

    private KeylineCli cli(Map<String, String> env) {
        KeylineCli c = new KeylineCli();
        c.env = env;
        return c;
    }

    @Test
    void fromTheRepoTheDefaultsAreRelative() {
        KeylineCli c = cli(Map.of("HOME", home.toString()));
        assertThat(c.statePath()).isEqualTo(Path.of("state"));
        assertThat(c.jobsPath()).isEqualTo(Path.of("resources/jobs"));
    }

    @Test
    void packagedUsesXdgFoldersAndTheirFallbacks() {
        System.setProperty("keyline.packaged", "true");
        KeylineCli xdg = cli(Map.of("HOME", home.toString(), "XDG_DATA_HOME", home.resolve("data").toString(),
                "XDG_CONFIG_HOME", home.resolve("config").toString()));
        assertThat(xdg.statePath()).isEqualTo(home.resolve("data/keyline"));
        assertThat(xdg.jobsPath()).isEqualTo(home.resolve("config/keyline/jobs")).isDirectory();

        KeylineCli plain = cli(Map.of("HOME", home.toString()));
        assertThat(plain.statePath()).isEqualTo(home.resolve(".local/share/keyline"));
        assertThat(plain.jobsPath()).isEqualTo(home.resolve(".config/keyline/jobs"));

        KeylineCli env = cli(Map.of("HOME", home.toString(), "KEYLINE_STATE", "/srv/s", "KEYLINE_JOBS", "/srv/j"));
        assertThat(env.statePath()).isEqualTo(Path.of("/srv/s"));
        assertThat(env.jobsPath()).isEqualTo(Path.of("/srv/j"));
    }
}
