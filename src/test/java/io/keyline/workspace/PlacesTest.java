package io.keyline.workspace;

import io.keyline.store.StateLocation;
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
class PlacesTest {

    @TempDir
    Path home;

    @AfterEach
    void clear() {
        System.clearProperty("keyline.packaged");
    }

    private Places places(Map<String, String> env) {
        return new Places(env);
    }

    @Test
    void fromTheRepoTheDefaultsAreInTheWorkingDirectory() {
        Places c = places(Map.of("HOME", home.toString()));
        assertThat(c.toCreate(null, null).state())
                .isEqualTo(new StateLocation.Folder(Path.of("state").toAbsolutePath()));
        assertThat(c.toCreate(null, null).jobs()).isEqualTo(Path.of("resources/jobs").toAbsolutePath());
    }

    @Test
    void packagedUsesXdgFoldersAndTheirFallbacks() {
        System.setProperty("keyline.packaged", "true");
        Places xdg = places(Map.of("HOME", home.toString(), "XDG_DATA_HOME", home.resolve("data").toString(),
                "XDG_CONFIG_HOME", home.resolve("config").toString()));
        assertThat(xdg.toCreate(null, null).state()).isEqualTo(new StateLocation.Folder(home.resolve("data/keyline")));
        assertThat(xdg.toCreate(null, null).jobs()).isEqualTo(home.resolve("config/keyline/jobs")).isDirectory();

        Places plain = places(Map.of("HOME", home.toString()));
        assertThat(plain.toCreate(null, null).state())
                .isEqualTo(new StateLocation.Folder(home.resolve(".local/share/keyline")));
        assertThat(plain.toCreate(null, null).jobs()).isEqualTo(home.resolve(".config/keyline/jobs"));

        Places env = places(Map.of("HOME", home.toString(), "KEYLINE_STATE", "/srv/s", "KEYLINE_JOBS", "/srv/j"));
        assertThat(env.toCreate(null, null).state()).isEqualTo(new StateLocation.Folder(Path.of("/srv/s")));
        assertThat(env.toCreate(null, null).jobs()).isEqualTo(Path.of("/srv/j"));
    }
}
