package io.keyline.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * The plain command lines of the brief readers ({@code status}, {@code jobs}, {@code timeline}), read
 * without picocli.
 *
 * <p>Building picocli's model of the root and one command (reflection over their annotations, a proxy
 * class per annotation type) was the largest single piece of a one-shot {@code status} after the JVM
 * itself: 50-65 ms of 280 with the AppCDS archive, about 60 ms of 600 without (issue 14,
 * {@code KEYLINE_TRACE_STARTUP=1}). These three commands are what a script or a person types most
 * often, and their grammar is small, so this reads it directly and fills in the same fields picocli
 * would. It takes only the forms it knows for certain: the root's {@code --state}, {@code --jobs} and
 * {@code --master-key-file}, each at most once, as {@code --opt VALUE} or {@code --opt=VALUE}, before
 * the command; then the command's own flags, each at most once, and its positional parameters.
 * Anything else (help, version, an unknown or repeated option, an {@code @file}, {@code --}, a value
 * that is empty or starts with {@code -}, too many or too few parameters) returns {@code null}, and
 * picocli reads the command line and says what it says (and {@code BriefCommandLineTest} checks that
 * both readings agree on every accepted line). {@code -Dkeyline.cli.fastParse=false} turns it off.
 */
final class BriefCommandLine {

    /** The root's options that take a value. */
    private static final Set<String> ROOT_OPTIONS = Set.of("--state", "--jobs", "--master-key-file");

    private BriefCommandLine() {
    }

    /** Whether this process reads brief command lines itself (the default). */
    static boolean enabled() {
        return !"false".equalsIgnoreCase(System.getProperty("keyline.cli.fastParse"));
    }

    /** A command line read: the command with its fields filled in, and the root's options. */
    record Parsed(String name, Sub command, String state, Path jobs, Path masterKeyFile) {
        /** Gives {@code root} the root's options and links the command to it, as picocli would. */
        Parsed bind(KeylineCli root) {
            root.state = state;
            root.jobs = jobs;
            root.masterKeyFile = masterKeyFile;
            command.parentCommand = root;
            return this;
        }

        /** Runs the command (after {@link #bind}); its exit code. */
        int call() throws Exception {
            return (Integer) ((Callable<?>) command).call();
        }
    }

    /** {@code args} read, or {@code null} when picocli must read them. */
    static Parsed parse(String[] args) {
        String state = null;
        String jobs = null;
        String masterKeyFile = null;
        int i = 0;
        for (; i < args.length && args[i].startsWith("-"); i++) {
            String a = args[i];
            int eq = a.indexOf('=');
            String name = eq > 0 ? a.substring(0, eq) : a;
            if (!ROOT_OPTIONS.contains(name)) {
                return null;
            }
            String value;
            if (eq > 0) {
                value = a.substring(eq + 1);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                return null;
            }
            if (!plainValue(value)) {
                return null;
            }
            switch (name) {
                case "--state" -> {
                    if (state != null) {
                        return null;
                    }
                    state = value;
                }
                case "--jobs" -> {
                    if (jobs != null) {
                        return null;
                    }
                    jobs = value;
                }
                default -> {
                    if (masterKeyFile != null) {
                        return null;
                    }
                    masterKeyFile = value;
                }
            }
        }
        if (i >= args.length) {
            return null;
        }
        String command = args[i++];
        List<String> parameters = new ArrayList<>();
        Set<String> flags = new HashSet<>();
        for (; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("-")) {
                if (!flags.add(a)) {
                    return null;
                }
            } else if (a.startsWith("@")) {
                return null; // picocli reads it as a file of arguments
            } else {
                parameters.add(a);
            }
        }
        Sub sub;
        switch (command) {
            case "status" -> {
                if (parameters.size() > 1 || !Set.of("--attention", "--json").containsAll(flags)) {
                    return null;
                }
                StatusCommand s = new StatusCommand();
                s.jobName = parameters.isEmpty() ? null : parameters.get(0);
                s.attention = flags.contains("--attention");
                s.json = flags.contains("--json");
                sub = s;
            }
            case "jobs" -> {
                if (!parameters.isEmpty() || !flags.isEmpty()) {
                    return null;
                }
                sub = new JobsCommand();
            }
            case "timeline" -> {
                if (parameters.size() != 2 || !Set.of("--json").containsAll(flags)) {
                    return null;
                }
                TimelineCommand t = new TimelineCommand();
                t.jobName = parameters.get(0);
                t.key = parameters.get(1);
                t.json = flags.contains("--json");
                sub = t;
            }
            default -> {
                return null;
            }
        }
        try {
            return new Parsed(command, sub, state, jobs == null ? null : Path.of(jobs),
                    masterKeyFile == null ? null : Path.of(masterKeyFile));
        } catch (InvalidPathException e) {
            return null; // picocli says which value is invalid
        }
    }

    /** A value picocli takes as it is: not empty, not an option, not a file of arguments. */
    private static boolean plainValue(String value) {
        return !value.isEmpty() && !value.startsWith("-") && !value.startsWith("@");
    }
}
