package io.keyline.workspace;

import io.keyline.store.StateLocation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where the state and the jobs folder are when the command line does not say: {@code KEYLINE_STATE} and
 * {@code KEYLINE_JOBS}, then the defaults — {@code ./state} and {@code ./resources/jobs} from the
 * repository, the per-user XDG folders in the installed app (its launcher sets
 * {@code -Dkeyline.packaged=true}).
 */
public final class Places {

    private final Map<String, String> env;

    /** @param env the process environment */
    public Places(Map<String, String> env) {
        this.env = env;
    }

    /**
     * The state: a folder or a {@code postgresql://} URL.
     *
     * @param given {@code --state}, or {@code null}
     * @throws IllegalArgumentException when a URL is not one Keyline can use
     */
    public StateLocation state(String given) {
        String s = given != null ? given : env.get("KEYLINE_STATE");
        if (s != null && !s.isBlank()) {
            return StateLocation.parse(s, env);
        }
        return new StateLocation.Folder(statePath(null));
    }

    /** The state folder: {@code given}, {@code $KEYLINE_STATE}, or the default. */
    public Path statePath(String given) {
        if (given != null) {
            return Path.of(given);
        }
        String e = env.get("KEYLINE_STATE");
        if (e != null && !e.isBlank()) {
            return Path.of(e);
        }
        return packaged() ? xdg("XDG_DATA_HOME", ".local/share").resolve("keyline") : Path.of("state");
    }

    /** The jobs folder: {@code given}, {@code $KEYLINE_JOBS}, or the default (created in the installed app). */
    public Path jobs(Path given) {
        if (given != null) {
            return given;
        }
        String e = env.get("KEYLINE_JOBS");
        if (e != null && !e.isBlank()) {
            return Path.of(e);
        }
        if (packaged()) {
            Path dir = xdg("XDG_CONFIG_HOME", ".config").resolve("keyline").resolve("jobs");
            try {
                Files.createDirectories(dir);
            } catch (IOException ex) {
                // reported by the job loader ("jobs folder does not exist")
            }
            return dir;
        }
        return Path.of("resources/jobs");
    }

    /** Whether this is the installed app: state and jobs then live in per-user folders. */
    public static boolean packaged() {
        return Boolean.getBoolean("keyline.packaged");
    }

    /** {@code $NAME}, or {@code ~/fallback} when it is unset or not absolute (XDG base directories). */
    private Path xdg(String name, String fallback) {
        String v = env.get(name);
        if (v != null && !v.isBlank() && Path.of(v).isAbsolute()) {
            return Path.of(v);
        }
        String home = env.getOrDefault("HOME", System.getProperty("user.home"));
        return Path.of(home).resolve(fallback);
    }
}
