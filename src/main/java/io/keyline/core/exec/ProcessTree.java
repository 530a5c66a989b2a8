package io.keyline.core.exec;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A child process of Keyline (a command step, a command probe, a command hook) and everything it
 * starts: started in a session and process group of its own, and ended as a whole, also the
 * descendants that left both (a grandchild that ran {@code setsid}, a daemon that double-forked).
 *
 * <p>How the whole is found, best first:
 * <ol>
 *   <li>a cgroup v2 of its own ({@link CgroupScope}), where Keyline's cgroup is writable (a systemd user
 *       session, a delegated service, root): the child is moved into it before its program starts, so
 *       nothing it starts can leave it, and {@code cgroup.kill} ends them all at once;</li>
 *   <li>every process that carries the tree's mark ({@link #MARK_VARIABLE}, a random value in the
 *       environment, inherited by everything the child starts unless a program clears its
 *       environment), found in {@code /proc};</li>
 *   <li>every process of its session and process group, and every descendant Keyline saw while the
 *       child ran (looked at every {@value #LOOK_MILLIS} ms).</li>
 * </ol>
 * A descendant that cleared its environment, left the session and escaped between two looks is out
 * of reach where no cgroup is available; a cgroup reaches every one.
 *
 * <p>The program starts only once Keyline lets it (a gate reads one line from Keyline, then execs the
 * program): Keyline moves the child into its cgroup and the engine records its pid first.
 */
public final class ProcessTree implements AutoCloseable {

    /** The environment variable that marks every process of a tree. */
    public static final String MARK_VARIABLE = "KEYLINE_PROCESS_TREE";
    static final long LOOK_MILLIS = 250;

    /** What the program gets on its standard input. */
    public enum Stdin {
        /** nothing ({@code /dev/null}) */
        NONE,
        /** what Keyline writes to {@link #stdin()} after the gate opened */
        PIPE
    }

    /** {@code setsid}, which starts a program as the leader of a new session and process group. */
    static final String SETSID = findSetsid();
    /**
     * Reads one line from Keyline, then execs the program (argv passed as data, never parsed as shell).
     * A Keyline killed before that line closes the pipe, the read fails and nothing is started.
     */
    static final String GATE = "IFS= read -r go || exit 125; exec \"$@\" </dev/null";
    /** The same gate for a program that reads what follows the line on its standard input. */
    static final String GATE_PIPE = "IFS= read -r go || exit 125; exec \"$@\"";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Process process;
    private final String mark;
    private final CgroupScope cgroup;
    private final boolean gated;
    /** Descendants seen while the child ran, by pid: a handle checks its start time before it signals. */
    private final Map<Long, ProcessHandle> seen = new LinkedHashMap<>();
    private final Instant started;

    private ProcessTree(Process process, String mark, CgroupScope cgroup, boolean gated) {
        this.process = process;
        this.mark = mark;
        this.cgroup = cgroup;
        this.gated = gated;
        this.started = process.info().startInstant().orElse(Instant.now());
    }

    /**
     * Starts {@code argv} in {@code workdir} with {@link ChildEnvironment} plus {@code env}; with
     * {@code setsid} available the program waits at the gate until {@link #open()}.
     *
     * @throws IOException when the program cannot be started (not found, not executable)
     */
    public static ProcessTree start(List<String> argv, Path workdir, Map<String, String> env, Stdin stdin)
            throws IOException {
        String mark = HexFormat.of().formatHex(randomBytes());
        Map<String, String> all = new LinkedHashMap<>(env);
        all.put(MARK_VARIABLE, mark);
        boolean gated = SETSID != null;
        if (gated) {
            // setsid would start and then fail to exec: say so the way starting the program directly does
            requireRunnable(argv.get(0), workdir, System.getenv("PATH"));
        }
        List<String> command = gated ? behindGate(argv, stdin) : argv;
        ProcessBuilder pb = ChildEnvironment.apply(new ProcessBuilder(command).directory(workdir.toFile()), all);
        if (!gated && stdin == Stdin.NONE) {
            pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        }
        Process p = pb.start();
        CgroupScope scope = null;
        if (gated) {
            scope = CgroupScope.create();
            if (scope != null && !scope.add(p.pid())) {
                scope.close();
                scope = null;
            }
        }
        return new ProcessTree(p, mark, scope, gated);
    }

    private static byte[] randomBytes() {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        return b;
    }

    /** The command line that runs {@code argv} behind the gate, as the leader of a new session. */
    static List<String> behindGate(List<String> argv, Stdin stdin) {
        List<String> out = new ArrayList<>(argv.size() + 6);
        out.add(SETSID);
        out.add("--");
        out.add("/bin/sh");
        out.add("-c");
        out.add(stdin == Stdin.PIPE ? GATE_PIPE : GATE);
        out.add("keyline-child");
        out.addAll(argv);
        return out;
    }

    private static String findSetsid() {
        for (String dir : List.of("/usr/bin", "/bin", "/usr/local/bin")) {
            File f = new File(dir, "setsid");
            if (f.canExecute()) {
                return f.getPath();
            }
        }
        return null;
    }

    /** Throws like {@link ProcessBuilder#start} when {@code program} cannot be run. */
    static void requireRunnable(String program, Path workdir, String path) throws IOException {
        if (program.contains("/")) {
            Path p = workdir.resolve(program);
            if (!java.nio.file.Files.isRegularFile(p)) {
                throw new IOException("Cannot run program \"" + program + "\": error=2, No such file or directory");
            }
            if (!java.nio.file.Files.isExecutable(p)) {
                throw new IOException("Cannot run program \"" + program + "\": error=13, Permission denied");
            }
            return;
        }
        for (String dir : (path == null ? "/usr/bin:/bin" : path).split(":")) {
            if (!dir.isEmpty()) {
                Path p = Path.of(dir, program);
                if (java.nio.file.Files.isRegularFile(p) && java.nio.file.Files.isExecutable(p)) {
                    return;
                }
            }
        }
        throw new IOException("Cannot run program \"" + program + "\": error=2, No such file or directory");
    }

    public long pid() {
        return process.pid();
    }

    public Instant startedAt() {
        return started;
    }

    /** Lets the program start (a no-op without the gate). */
    public void open() {
        if (!gated) {
            return;
        }
        try {
            OutputStream go = process.getOutputStream();
            go.write('\n');
            go.flush();
        } catch (IOException e) {
            // the gate is gone (the child died): its exit status says so
        }
    }

    /** The program's standard input ({@link Stdin#PIPE}); close it when done. */
    public OutputStream stdin() {
        return process.getOutputStream();
    }

    public InputStream stdout() {
        return process.getInputStream();
    }

    public InputStream stderr() {
        return process.getErrorStream();
    }

    /** The child's exit code (after {@link #waitFor} returned true). */
    public int exitValue() {
        return process.exitValue();
    }

    /**
     * Waits for the child to exit, at most {@code timeout}, looking at its descendants meanwhile.
     *
     * @return true when it exited
     */
    public boolean waitFor(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            look();
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return !process.isAlive();
            }
            if (process.waitFor(Math.min(left, TimeUnit.MILLISECONDS.toNanos(LOOK_MILLIS)), TimeUnit.NANOSECONDS)) {
                return true;
            }
        }
    }

    private void look() {
        try {
            process.descendants().forEach(h -> seen.putIfAbsent(h.pid(), h));
        } catch (RuntimeException e) {
            // the process table could not be read this time: the next look may
        }
    }

    /**
     * Ends the child and everything it started: SIGTERM first when {@code grace} is positive, SIGKILL
     * to what is left after it. Returns when nothing of the tree is left (or after a bounded number of
     * rounds against a tree that keeps forking).
     */
    public void end(Duration grace) throws InterruptedException {
        look();
        if (!grace.isZero() && !grace.isNegative()) {
            members().forEach(ProcessHandle::destroy);
            if (cgroup != null) {
                cgroup.signal(false);
            }
            long deadline = System.nanoTime() + grace.toNanos();
            while (System.nanoTime() < deadline && (!members().isEmpty() || cgroup != null && !cgroup.empty())) {
                Thread.sleep(50);
            }
        }
        if (cgroup != null) {
            cgroup.kill();
        }
        for (int round = 0; round < 20; round++) {
            List<ProcessHandle> left = members();
            if (left.isEmpty()) {
                break;
            }
            left.forEach(ProcessHandle::destroyForcibly);
            Thread.sleep(20);
        }
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
    }

    /** The live processes of the tree, as far as they can be found without the cgroup. */
    private List<ProcessHandle> members() {
        Map<Long, ProcessHandle> out = new LinkedHashMap<>();
        if (process.isAlive()) {
            out.put(process.pid(), process.toHandle());
            try {
                process.descendants().forEach(h -> out.put(h.pid(), h));
            } catch (RuntimeException e) {
                // look in /proc below
            }
        }
        seen.values().stream().filter(ProcessHandle::isAlive).forEach(h -> out.putIfAbsent(h.pid(), h));
        for (long pid : ProcTable.marked(mark, gated ? process.pid() : -1, started)) {
            ProcessHandle.of(pid).ifPresent(h -> out.putIfAbsent(pid, h));
        }
        out.remove(ProcessHandle.current().pid());
        out.values().removeIf(h -> !h.isAlive() || ProcTable.zombie(h.pid()));
        return new ArrayList<>(out.values());
    }

    /** Releases the cgroup: what a child that exited left running keeps running, outside it. */
    @Override
    public void close() {
        if (cgroup != null) {
            cgroup.close();
        }
    }
}
