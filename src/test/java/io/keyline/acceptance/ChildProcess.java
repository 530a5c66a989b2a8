package io.keyline.acceptance;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts {@code keyline} in a child JVM with the test class path, as cron would run the jar. */
public final class ChildProcess {
    private ChildProcess() {
    }

    public static Process start(Path state, Path jobs, Path log, String... args) throws IOException {
        return start(state.toString(), jobs, log, java.util.Map.of(), args);
    }

    /** {@code keyline} on the workbench's state (a folder or a PostgreSQL URL) with its environment. */
    public static Process start(io.keyline.testing.Workbench wb, Path log, String... args) throws IOException {
        java.util.Map<String, String> env = new java.util.HashMap<>();
        wb.env().forEach((k, v) -> {
            if (k.startsWith("KEYLINE_") || k.startsWith("XDG_") || k.startsWith("PG")) {
                env.put(k, v);
            }
        });
        return start(wb.stateArg, wb.jobs, log, env, args);
    }

    /** {@code keyline --state STATE --jobs JOBS --init ARGS}, with {@code env} added to a clean (no KEYLINE_) environment. */
    public static Process start(String state, Path jobs, Path log, java.util.Map<String, String> env, String... args)
            throws IOException {
        ProcessBuilder pb = builder(state, jobs, env, args).redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        return pb.start();
    }

    /** The same command, its output left to the caller (a pipe unless redirected). */
    public static ProcessBuilder builder(String state, Path jobs, java.util.Map<String, String> env, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-Xshare:auto");
        cmd.add("-cp");
        cmd.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        cmd.add("io.keyline.app.Main");
        cmd.add("--state");
        cmd.add(state);
        cmd.add("--jobs");
        cmd.add(jobs.toString());
        // as a test's set-up would run "keyline init": the first command makes the state
        cmd.add("--init");
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().keySet().removeIf(k -> k.startsWith("KEYLINE_"));
        pb.environment().putAll(env);
        return pb;
    }
}
