package io.keyline.testing;

import io.keyline.cli.KeylineCli;
import io.keyline.core.RunOptions;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A state folder and a jobs folder in a temp directory, and the real command line run in-process
 * on them with a clock the test moves (waiting for a retry advances the clock).
 */
public final class Workbench {
    public final Path root;
    public final Path state;
    public final Path jobs;
    /** What {@code --state} says: the state folder, or a {@code postgresql://} URL ({@link #usePostgres}). */
    public String stateArg;
    public final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T09:00:00Z"));
    public final List<Duration> sleeps = new ArrayList<>();
    /**
     * Whether commands run with {@code --init}: the state is made by the first command, as a test's set-up
     * would run {@code keyline init}. Off for tests of finding (or not finding) a state.
     */
    public boolean init = true;
    private final Map<String, String> env = new HashMap<>();

    public Workbench(Path root) throws IOException {
        this.root = root;
        this.state = root.resolve("state");
        this.jobs = root.resolve("jobs");
        this.stateArg = state.toString();
        Files.createDirectories(jobs);
        System.getenv().forEach((k, v) -> {
            if (!k.startsWith("KEYLINE_")) {
                env.put(k, v);
            }
        });
    }

    public RunOptions options() {
        return new RunOptions(clock, d -> {
            sleeps.add(d);
            if (clock.live()) {
                Thread.sleep(d.toMillis());
            } else {
                clock.advance(d);
            }
        }, new Random(7), Duration.ofMinutes(1), Duration.ofMinutes(2), "tester");
    }

    public Map<String, String> env() {
        return env;
    }

    /** A master key for tests that need one given (a shared state never creates its own). */
    public static final String TEST_MASTER_KEY = java.util.Base64.getEncoder().encodeToString(new byte[32]);

    /**
     * Runs on a new database of the embedded PostgreSQL instead of the state folder: {@code --state} is its
     * URL, the master key is given ({@link #TEST_MASTER_KEY}), run logs go to {@code ROOT/xdg/keyline/logs}.
     *
     * @return the URL
     */
    public String usePostgres() {
        stateArg = TestPostgres.newDatabase();
        env.put("KEYLINE_MASTER_KEY", TEST_MASTER_KEY);
        env.put("XDG_STATE_HOME", root.resolve("xdg").toString());
        return stateArg;
    }

    /** Stores keys of a job as PENDING (work for workers: due because they are pending), as another tool would. */
    public void seed(String job, java.util.Collection<String> keys) {
        try (io.keyline.store.Database db = io.keyline.workspace.Workspace.open(io.keyline.store.StateLocation.parse(stateArg,
                env)); io.keyline.store.JdbcStateStore store = new io.keyline.store.JdbcStateStore(db)) {
            for (String k : keys) {
                store.ensure(io.keyline.domain.KeyRecord.fresh(job, k, clock.instant()));
            }
        }
    }

    /**
     * Makes every commit that a reader of the state can see durable, as a process that relies on what it read does
     * (H2 shows other sessions a commit a moment before it has written it): opens the state as another process
     * would - through the process that serves it, if any - and syncs it, which waits for a write in progress.
     */
    public void sync() {
        try (io.keyline.store.Database db = io.keyline.workspace.Workspace.open(
                io.keyline.store.StateLocation.parse(stateArg, env))) {
            db.sync();
        }
    }

    /** Whether {@link #usePostgres} was called. */
    public boolean postgres() {
        return stateArg.startsWith("postgresql://");
    }

    /** The folder of {@code runs.jsonl}: the state folder's, or the local one of a PostgreSQL state. */
    public Path logs() {
        return postgres() ? root.resolve("xdg").resolve("keyline").resolve("logs") : state.resolve("logs");
    }

    /** Writes {@code jobs/NAME.json}; {@code BASE} in the text becomes {@code base}. */
    public Path job(String name, String json, String base) throws IOException {
        Path f = jobs.resolve(name + ".json");
        Files.writeString(f, base == null ? json : json.replace("BASE", base), StandardCharsets.UTF_8);
        return f;
    }

    /** Runs {@code keyline --state S --jobs J ARGS} in-process. */
    public Result cli(String... args) {
        return cliWithInput("", args);
    }

    /** Runs {@code keyline --state S --jobs J ARGS} in-process with {@code input} on standard input. */
    public Result cliWithInput(String input, String... args) {
        List<String> all = new ArrayList<>(List.of("--state", stateArg, "--jobs", jobs.toString()));
        if (init) {
            all.add("--init");
        }
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = KeylineCli.execute(all.toArray(String[]::new),
                    new java.io.ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), o, e, env, options());
        }
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * Runs {@code keyline ARGS} in-process from {@code workingDir}, with only what {@code args} and the
     * environment name (no {@code --state}, {@code --jobs} or {@code --init} added): how a state is found.
     */
    public Result cliIn(Path workingDir, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = KeylineCli.execute(args, new java.io.ByteArrayInputStream(new byte[0]), o, e, env, options(),
                    workingDir);
        }
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Exit code and output of one command. */
    /**
     * Everything Keyline shows of a key, for a search for what must not be there (a secret): the output of
     * {@code runs}, then export, timeline (as JSON and as text), status (both) and {@code credentials list}, each
     * of which must succeed, and the run log when there is one.
     */
    public List<String> shown(String job, String key, Result... runs) throws IOException {
        List<String> shown = new ArrayList<>();
        for (Result r : runs) {
            shown.add(r.out() + r.err());
        }
        for (Result r : List.of(cli("export", "--json", job), cli("timeline", job, key, "--json"),
                cli("timeline", job, key), cli("status", job, "--json"), cli("status", job),
                cli("credentials", "list"))) {
            if (r.exit() != 0) {
                throw new AssertionError("expected exit 0: " + r);
            }
            shown.add(r.out() + r.err());
        }
        Path log = logs().resolve("runs.jsonl");
        if (Files.exists(log)) {
            shown.add(Files.readString(log, StandardCharsets.UTF_8));
        }
        return shown;
    }

    public record Result(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }
}
