package io.keyline.workspace;

import io.keyline.core.PrivateFiles;
import io.keyline.store.StateLocation;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static io.keyline.text.Text.t;

/**
 * Where the state and the jobs folder are. One state per workspace, found the same way from any
 * directory and never created by accident:
 *
 * <ol>
 *   <li>{@code --state DIR|URL}, else {@code $KEYLINE_STATE}: that state;</li>
 *   <li>else the workspace: from the jobs folder ({@code --jobs}, {@code $KEYLINE_JOBS}) when one is named, then
 *       from the working directory, up the folders to the first one that holds a state
 *       ({@code state/keyline.mv.db});</li>
 *   <li>else, in the installed app (its launcher sets {@code -Dkeyline.packaged=true}), the per-user state in
 *       {@code $XDG_DATA_HOME/keyline}.</li>
 * </ol>
 *
 * When none of them holds a state, the state is not found: only the console's first run, {@code keyline init}
 * and {@code --init} create one, where the first rule names it or else at the default ({@code ./state}, or the
 * per-user folder of the installed app).
 *
 * <p>The jobs folder: {@code --jobs}, else {@code $KEYLINE_JOBS}, else the one the state was created with (kept
 * in {@code STATE/workspace.properties}), else {@code resources/jobs} next to a state found in a workspace, else
 * {@code ./resources/jobs} (installed app: {@code $XDG_CONFIG_HOME/keyline/jobs}).
 */
public final class Places {

    /** The name of a workspace's state folder, which marks the workspace. */
    public static final String STATE_FOLDER = "state";
    /** The file whose presence makes a folder a state ({@code H2}). */
    public static final String STATE_FILE = "keyline.mv.db";
    /** In the state folder: what the state remembers of its workspace (the jobs folder it was created with). */
    public static final String MEMORY_FILE = "workspace.properties";
    /** The jobs folder of a workspace, relative to the folder that holds its state. */
    public static final Path WORKSPACE_JOBS = Path.of("resources", "jobs");

    private final Map<String, String> env;
    private final Path workingDir;

    /** @param env the process environment; the working directory is the process's */
    public Places(Map<String, String> env) {
        this(env, Path.of("").toAbsolutePath());
    }

    /**
     * @param env        the process environment
     * @param workingDir where the command runs (the folders above it are searched for a workspace)
     */
    public Places(Map<String, String> env, Path workingDir) {
        this.env = env;
        this.workingDir = workingDir.toAbsolutePath().normalize();
    }

    /** How the state in use was found. */
    public enum Source {
        /** {@code --state}. */
        OPTION,
        /** {@code $KEYLINE_STATE}. */
        ENVIRONMENT,
        /** A workspace above the jobs folder. */
        JOBS_FOLDER,
        /** A workspace above the working directory. */
        WORKING_DIRECTORY,
        /** The installed app's per-user state. */
        INSTALLED,
        /** None was found: where one would be created. */
        DEFAULT;

        /** How it was found, in words ({@code --state}, "the workspace of the working directory"). */
        public String words() {
            return t("core.places.source." + name(), "--state", "$KEYLINE_STATE");
        }
    }

    /** How the jobs folder was chosen. */
    public enum JobsSource {
        /** {@code --jobs}. */
        OPTION,
        /** {@code $KEYLINE_JOBS}. */
        ENVIRONMENT,
        /** The one the state was created with ({@link #MEMORY_FILE}). */
        REMEMBERED,
        /** {@code resources/jobs} of the workspace the state was found in. */
        WORKSPACE,
        /** The installed app's per-user jobs folder. */
        INSTALLED,
        /** {@code resources/jobs} in the working directory. */
        DEFAULT;

        /** How it was chosen, in words ({@code --jobs}, "the jobs folder the state was created with"). */
        public String words() {
            return t("core.places.jobs." + name(), "--jobs", "$KEYLINE_JOBS", WORKSPACE_JOBS);
        }
    }

    /**
     * Where the state and the jobs folder are, and how they were found.
     *
     * @param state    the state (where it was found, or where it would be created)
     * @param source   how it was found
     * @param exists   whether a state is there ({@code true} for a PostgreSQL URL: its schema is checked on open)
     * @param looked   the state folders looked at, in order (for "not found")
     * @param jobs     the jobs folder (absolute)
     * @param jobsFrom how the jobs folder was chosen
     */
    public record Found(StateLocation state, Source source, boolean exists, List<Path> looked, Path jobs,
                        JobsSource jobsFrom) {
        public Found {
            looked = List.copyOf(looked);
        }

        /** "state /w/state (the workspace of the working directory)". */
        public String stateLine() {
            return t(exists ? "core.places.stateLine" : "core.places.stateLineNone", state.display(), source.words());
        }

        /** "/w/resources/jobs (remembered by the state)". */
        public String jobsLine() {
            return t("core.places.jobsLine", jobs, jobsFrom.words());
        }

        /**
         * Why no state was found, where Keyline looked, and how to create one (the message of every command
         * that needs a state and may not create it).
         */
        public String notFound() {
            if (source == Source.OPTION || source == Source.ENVIRONMENT) {
                String init = source == Source.OPTION ? String.format("keyline --state %s init",
                        quoted(state.display())) : "keyline init";
                return t("core.places.notIn", state.display(), source.words(), init, "--init");
            }
            StringBuilder sb = new StringBuilder(t("core.places.notFound", STATE_FOLDER + "/" + STATE_FILE));
            for (Path p : looked) {
                sb.append("\n  ").append(p);
            }
            sb.append('\n').append(t("core.places.createOne", "keyline init", state.display(), jobs, "--init",
                    "--state DIR", "KEYLINE_STATE"));
            return sb.toString();
        }
    }

    /** {@code s} as one word for a POSIX shell: as it is when it is safe, else in single quotes. */
    static String quoted(String s) {
        return s.matches("[A-Za-z0-9_./:@%+=,-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }

    /**
     * Finds the state and the jobs folder as the rules above say. Never creates anything (but the installed
     * app's jobs folder when it is the default).
     *
     * @param stateOption {@code --state}, or {@code null}
     * @param jobsOption  {@code --jobs}, or {@code null}
     * @throws IllegalArgumentException when a state URL is not one Keyline can use
     */
    public Found find(String stateOption, Path jobsOption) {
        Path namedJobs = namedJobs(jobsOption);
        String given = stateOption != null ? stateOption : nonBlank(env.get("KEYLINE_STATE"));
        if (given != null) {
            StateLocation loc = StateLocation.parse(given, env);
            if (loc instanceof StateLocation.Folder) {
                loc = new StateLocation.Folder(absolute(Path.of(given.strip())));
            }
            Source source = stateOption != null ? Source.OPTION : Source.ENVIRONMENT;
            boolean exists = !(loc instanceof StateLocation.Folder f) || isState(f.dir());
            List<Path> looked = loc instanceof StateLocation.Folder f ? List.of(f.dir()) : List.of();
            return withJobs(loc, source, exists, looked, namedJobs, null);
        }
        List<Path> looked = new ArrayList<>();
        if (namedJobs != null) {
            Path w = workspaceAbove(namedJobs, looked);
            if (w != null) {
                return withJobs(new StateLocation.Folder(w.resolve(STATE_FOLDER)), Source.JOBS_FOLDER, true, looked,
                        namedJobs, w);
            }
        }
        Path w = workspaceAbove(workingDir, looked);
        if (w != null) {
            return withJobs(new StateLocation.Folder(w.resolve(STATE_FOLDER)), Source.WORKING_DIRECTORY, true, looked,
                    namedJobs, w);
        }
        if (packaged()) {
            Path installed = installedState();
            if (!looked.contains(installed)) {
                looked.add(installed);
            }
            boolean exists = isState(installed);
            return withJobs(new StateLocation.Folder(installed), exists ? Source.INSTALLED : Source.DEFAULT, exists,
                    looked, namedJobs, null);
        }
        return withJobs(new StateLocation.Folder(workingDir.resolve(STATE_FOLDER)), Source.DEFAULT, false, looked,
                namedJobs, null);
    }

    /**
     * Where {@code keyline init} creates a state: the folder or URL it is given ({@code init DIR}, {@code --state},
     * {@code $KEYLINE_STATE}), else the default ({@code ./state}; installed app: the per-user folder). No search:
     * init makes a new workspace here. The jobs folder is the one named, else the default.
     *
     * @param given the state named on the command line ({@code init DIR} or {@code --state}), or {@code null}
     */
    public Found toCreate(String given, Path jobsOption) {
        Path namedJobs = namedJobs(jobsOption);
        String named = given != null ? given : nonBlank(env.get("KEYLINE_STATE"));
        StateLocation loc;
        Source source;
        if (named != null) {
            loc = StateLocation.parse(named, env);
            if (loc instanceof StateLocation.Folder f) {
                loc = new StateLocation.Folder(absolute(Path.of(named.strip())));
            }
            source = given != null ? Source.OPTION : Source.ENVIRONMENT;
        } else {
            loc = new StateLocation.Folder(packaged() ? installedState() : workingDir.resolve(STATE_FOLDER));
            source = Source.DEFAULT;
        }
        boolean exists = !(loc instanceof StateLocation.Folder f) || isState(f.dir());
        List<Path> looked = loc instanceof StateLocation.Folder f ? List.of(f.dir()) : List.of();
        return withJobs(loc, source, exists, looked, namedJobs, null);
    }

    private Found withJobs(StateLocation state, Source source, boolean exists, List<Path> looked, Path namedJobs,
                           Path workspace) {
        if (namedJobs != null) {
            return new Found(state, source, exists, looked, namedJobs, env.get("KEYLINE_JOBS") != null
                    && namedJobs.equals(absolute(Path.of(env.get("KEYLINE_JOBS")))) ? JobsSource.ENVIRONMENT
                    : JobsSource.OPTION);
        }
        if (exists && state instanceof StateLocation.Folder f) {
            Path remembered = rememberedJobs(f.dir());
            if (remembered != null) {
                return new Found(state, source, true, looked, remembered, JobsSource.REMEMBERED);
            }
        }
        if (workspace != null) {
            return new Found(state, source, exists, looked, workspace.resolve(WORKSPACE_JOBS), JobsSource.WORKSPACE);
        }
        return new Found(state, source, exists, looked, defaultJobs(), packaged() ? JobsSource.INSTALLED
                : JobsSource.DEFAULT);
    }

    /** The first folder from {@code start} up whose {@code state/} holds a state; each folder looked at is added. */
    private static Path workspaceAbove(Path start, List<Path> looked) {
        for (Path d = start; d != null; d = d.getParent()) {
            Path candidate = d.resolve(STATE_FOLDER);
            if (!looked.contains(candidate)) {
                looked.add(candidate);
            }
            if (isState(candidate)) {
                return d;
            }
        }
        return null;
    }

    /** Whether {@code dir} holds a state (its database file). */
    public static boolean isState(Path dir) {
        return Files.isRegularFile(dir.resolve(STATE_FILE));
    }

    /** {@code --jobs}, else {@code $KEYLINE_JOBS}, as absolute paths; {@code null} when neither names one. */
    private Path namedJobs(Path jobsOption) {
        if (jobsOption != null) {
            return absolute(jobsOption);
        }
        String e = nonBlank(env.get("KEYLINE_JOBS"));
        return e == null ? null : absolute(Path.of(e));
    }

    private Path absolute(Path p) {
        return workingDir.resolve(p).normalize();
    }

    private Path defaultJobs() {
        if (packaged()) {
            Path dir = xdg("XDG_CONFIG_HOME", Path.of(".config")).resolve("keyline").resolve("jobs");
            try {
                Files.createDirectories(dir);
            } catch (IOException ex) {
                // reported by the job loader ("jobs folder does not exist")
            }
            return dir;
        }
        return workingDir.resolve(WORKSPACE_JOBS);
    }

    private Path installedState() {
        return xdg("XDG_DATA_HOME", Path.of(".local", "share")).resolve("keyline");
    }

    /** Whether this is the installed app: state and jobs then live in per-user folders. */
    public static boolean packaged() {
        return Boolean.getBoolean("keyline.packaged");
    }

    /** {@code $NAME}, or {@code ~/fallback} when it is unset or not absolute (XDG base directories). */
    private Path xdg(String name, Path fallback) {
        String v = env.get(name);
        if (v != null && !v.isBlank() && Path.of(v).isAbsolute()) {
            return Path.of(v);
        }
        String home = env.getOrDefault("HOME", System.getProperty("user.home"));
        return Path.of(home).resolve(fallback);
    }

    private static String nonBlank(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    /** The jobs folder a state folder remembers ({@link #MEMORY_FILE}), or {@code null}. */
    public static Path rememberedJobs(Path stateDir) {
        Path file = stateDir.resolve(MEMORY_FILE);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            Properties p = new Properties();
            p.load(new StringReader(Files.readString(file, StandardCharsets.UTF_8)));
            String jobs = p.getProperty("jobs");
            return jobs == null || jobs.isBlank() || !Path.of(jobs).isAbsolute() ? null : Path.of(jobs).normalize();
        } catch (IOException | RuntimeException e) {
            return null; // unreadable: the other rules choose the jobs folder
        }
    }

    /** Writes what a new state remembers of its workspace: its jobs folder (0600, like every file of the state). */
    public static void rememberJobs(Path stateDir, Path jobs) throws IOException {
        Properties p = new Properties();
        p.setProperty("jobs", jobs.toAbsolutePath().normalize().toString());
        java.io.StringWriter text = new java.io.StringWriter();
        // the comment by hand: Properties would write its Chinese as escapes, unreadable in an editor
        for (String line : t("core.places.memoryComment", "--jobs", "KEYLINE_JOBS").split("\n")) {
            text.append("# ").append(line).append(System.lineSeparator());
        }
        p.store(text, null);
        PrivateFiles.writeAtomically(stateDir.resolve(MEMORY_FILE), text.toString().getBytes(StandardCharsets.UTF_8));
    }
}
