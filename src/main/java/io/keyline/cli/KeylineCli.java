package io.keyline.cli;

import io.keyline.workspace.Places;
import io.keyline.workspace.Workspace;
import io.keyline.core.OperatorException;
import io.keyline.core.RunOptions;
import io.keyline.core.RunReport;
import io.keyline.core.StateUnavailableException;
import io.keyline.core.jobfile.JobCatalog;
import io.keyline.core.jobfile.JobFileError;
import io.keyline.domain.InvalidKeyException;
import io.keyline.domain.JobDefinition;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import static io.keyline.text.Text.t;

/** The command line: {@code keyline [--state DIR] [--jobs DIR] COMMAND}. */
@Command(name = "keyline",
        mixinStandardHelpOptions = true,
        versionProvider = KeylineCli.Version.class,
        sortOptions = false,
        usageHelpAutoWidth = true)
public final class KeylineCli implements Callable<Integer> {

    /** {@code keyline --version}: this build's, as its requests name it. */
    static final class Version implements picocli.CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {io.keyline.domain.Build.nameAndVersion()};
        }
    }

    /**
     * The commands, in the order help lists them. Not in {@code @Command(subcommands)}: picocli builds the
     * model of every subcommand it is given (reflection over each class's options); a command line that names
     * its command gets only that one's model ({@link #commandLine(KeylineCli, String[])}).
     */
    static List<Class<?>> commands() {
        return Commands.ALL;
    }

    private static final class Commands {
        static final List<Class<?>> ALL = List.of(
                JobsCommand.class, StatusCommand.class, TimelineCommand.class, PlanCommand.class, RunCommand.class,
                ApplyCommand.class, ApproveCommand.class, ConfirmCommand.class, MarkDoneCommand.class, RetryCommand.class,
                SkipCommand.class,
                RearmCommand.class, PauseCommand.class, ResumeCommand.class, CredentialsCommand.class,
                BackupCommand.class, ExportCommand.class, PruneCommand.class, NotifyCommand.class, DoctorCommand.class,
                WorkerCommand.class, MigrateStateCommand.class, InitCommand.class, DemoCommand.class,
                SandboxCommand.class);
    }

    /**
     * Commands that only read the state and end: in their own process they open it to read
     * ({@link Workspace#reader}) and close it before they print ({@link Sub#doneReading}).
     */
    private static final java.util.Set<Class<?>> READERS = java.util.Set.of(JobsCommand.class, StatusCommand.class,
            TimelineCommand.class, ExportCommand.class);

    /** The real process runs a reader ({@link #READERS}). */
    private boolean reader;

    /** Commands that create the state when none is found (the console, without a command, too). */
    private static final java.util.Set<Class<?>> CREATORS = java.util.Set.of(InitCommand.class, DemoCommand.class);

    /** The root's options that take a value (their value is never the command's name). */
    private static final java.util.Set<String> VALUED_OPTIONS = java.util.Set.of("--state", "--jobs",
            "--master-key-file");
    /** The root's flags (no value): the command's name may follow them. */
    private static final java.util.Set<String> ROOT_FLAGS = java.util.Set.of("--init");

    @Option(names = "--state", paramLabel = "DIR|URL")
    String state;

    @Option(names = "--init")
    boolean init;

    @Option(names = "--master-key-file", paramLabel = "FILE")
    Path masterKeyFile;

    @Option(names = "--jobs", paramLabel = "DIR")
    Path jobs;

    PrintStream out;
    PrintStream err;
    /** stdout as given, before control characters are escaped (the live counter draws on it). */
    PrintStream rawOut;
    /** The real process (Main), not a test in-process: signals are handled, a terminal gets a live counter. */
    boolean asProcess;
    private java.io.InputStream in = System.in;
    private Console console = Console.NONE;
    private Workspace workspace;
    private RunOptions options = RunOptions.standard();
    Map<String, String> env = System.getenv();
    /** Where the command runs: the folders above it are searched for a workspace ({@link Places}). */
    private Path workingDir = Path.of("").toAbsolutePath();
    /** The command may create the state when none is found: the console, init, demo (and --init). */
    private boolean creates;
    private Places.Found found;
    /** The command line as given (the root's help reads --state and --jobs from it before picocli has parsed it). */
    private String[] argsSeen = new String[0];

    /**
     * What {@code keyline} without a command opens: the operator console. The wiring ({@code app}) passes
     * it in, so the command line does not depend on the console (nor on the wiring above it).
     */
    @FunctionalInterface
    public interface Console {
        /** Shows the console on the workspace and returns the exit code when its window is closed. */
        int open(Workspace workspace, Map<String, String> env) throws InterruptedException;

        /** No console in this entry point. */
        Console NONE = (ws, env) -> {
            throw new UsageError(t("cli.root.noCommand"));
        };
    }

    /**
     * Runs the command line as the {@code keyline} process (Main): without a command it opens {@code console};
     * Ctrl+C and SIGTERM during a run stop it gracefully, and a run on a terminal shows a live counter.
     */
    public static int executeAsProcess(String[] args, Console console) {
        return execute(args, System.in, System.out, System.err, System.getenv(), RunOptions.standard(), console,
                true);
    }

    /** Runs the command line with the given environment and engine options (tests). */
    public static int execute(String[] args, PrintStream out, PrintStream err, Map<String, String> env,
                              RunOptions options) {
        return execute(args, System.in, out, err, env, options);
    }

    /** Runs the command line with the given standard input, environment and engine options (tests). */
    public static int execute(String[] args, java.io.InputStream in, PrintStream stdout, PrintStream stderr,
                              Map<String, String> env, RunOptions options) {
        return execute(args, in, stdout, stderr, env, options, Path.of("").toAbsolutePath());
    }

    /** As {@link #execute(String[], java.io.InputStream, PrintStream, PrintStream, Map, RunOptions)}, run from {@code workingDir}. */
    public static int execute(String[] args, java.io.InputStream in, PrintStream stdout, PrintStream stderr,
                              Map<String, String> env, RunOptions options, Path workingDir) {
        return execute(args, in, stdout, stderr, env, options, Console.NONE, false, workingDir);
    }

    private static int execute(String[] args, java.io.InputStream in, PrintStream stdout, PrintStream stderr,
                               Map<String, String> env, RunOptions options, Console console, boolean asProcess) {
        return execute(args, in, stdout, stderr, env, options, console, asProcess, Path.of("").toAbsolutePath());
    }

    private static int execute(String[] args, java.io.InputStream in, PrintStream stdout, PrintStream stderr,
                               Map<String, String> env, RunOptions options, Console console, boolean asProcess,
                               Path workingDir) {
        Class<?> named = namedCommand(args);
        if (asProcess) {
            // what another process that waits for this one's open lock is told (OpenLock), on the real stderr
            String what = named != null ? named.getAnnotation(Command.class).name()
                    : args.length == 0 ? t("cli.root.consoleProcess") : null;
            io.keyline.store.h2.OpenLock.describeThisProcess(what == null ? "keyline" : "keyline " + what);
            PrintStream notices = TerminalOut.of(stderr);
            io.keyline.store.h2.OpenLock.notices(m -> notices.println(t("cli.worker.problem", m.text())));
        }
        // every string printed passes through one place: control characters from outside become visible escapes
        PrintStream out = TerminalOut.of(stdout);
        PrintStream err = TerminalOut.of(stderr);
        KeylineCli root = new KeylineCli();
        root.in = in;
        root.out = out;
        root.err = err;
        root.rawOut = stdout;
        root.asProcess = asProcess;
        root.env = env;
        root.options = options;
        root.console = console;
        root.workingDir = workingDir.toAbsolutePath().normalize();
        root.argsSeen = args;
        root.reader = asProcess && named != null && READERS.contains(named); // Set.of refuses to look for null
        // the console's first run, init and the demo make a state when none is found; --init lets any command
        root.creates = named == null || CREATORS.contains(named);
        try {
            return picocli(root, args, err).execute(args);
        } finally {
            root.closeWorkspace();
        }
    }

    /** The command tree for {@code args}, with Keyline's output, parsing rules and error handlers. */
    private static CommandLine picocli(KeylineCli root, String[] args, PrintStream err) {
        CommandLine cl = commandLine(root, args);
        cl.setOut(new PrintWriter(root.out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // "--jobs jobs", "--note run": an option value that happens to be a command name is still the value
        cl.setAllowSubcommandsAsOptionParameters(true);
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println(t("cli.worker.problem", ParseErrors.sentence(ex, a)));
            if (ex instanceof CommandLine.UnmatchedArgumentException u) {
                java.util.List<String> near = u.getSuggestions();
                if (!near.isEmpty()) {
                    err.println(t("cli.root.didYouMean", String.join(", ", near)));
                }
            }
            CommandLine c = ex.getCommandLine();
            err.println(c == cl ? t("cli.root.tryHelp") : t("cli.root.tryCommandHelp", c.getCommandName()));
            return RunReport.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, c, parsed) -> handle(ex, err));
        if (namedCommand(args) == null && !opensTheConsole(args)) {
            inUse(root, cl);
        }
        return cl;
    }

    /** The help section that says which state and jobs folder are in use, after the root's footer. */
    private static final String IN_USE = "inUse";

    /**
     * Adds to the root's help which state and jobs folder a command run here would use (from the options on the
     * command line, the environment and the working directory), or where it looked.
     */
    private static void inUse(KeylineCli root, CommandLine cl) {
        String stateOption = optionValue(root.argsSeen, "--state");
        String jobsOption = optionValue(root.argsSeen, "--jobs");
        List<String> lines = new java.util.ArrayList<>();
        lines.add("");
        lines.add(t("cli.root.inUse"));
        try {
            Places.Found f = new Places(root.env, root.workingDir).find(stateOption,
                    jobsOption == null ? null : Path.of(jobsOption));
            lines.add("  " + t("cli.root.inUseState", f.exists() ? f.stateLine()
                    : t("cli.root.inUseNoState", "keyline init", f.state().display())));
            lines.add("  " + t("cli.root.inUseJobs", f.jobsLine()));
        } catch (RuntimeException e) {
            lines.add("  " + t("cli.root.inUseState", e.getMessage()));
        }
        // picocli formats each line (%n, %s): a path's own percent sign stays one
        String[] shown = lines.stream().map(l -> l.replace("%", "%%")).toArray(String[]::new);
        cl.getHelpSectionMap().put(IN_USE, help -> CommandLine.Help.join(help.ansi(),
                help.commandSpec().usageMessage().width(),
                help.commandSpec().usageMessage().adjustLineBreaksForWideCJKCharacters(), shown,
                new StringBuilder()).toString());
        List<String> sections = new java.util.ArrayList<>(cl.getHelpSectionKeys());
        sections.add(sections.indexOf(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER) + 1, IN_USE);
        cl.setHelpSectionKeys(sections);
    }

    /** The value of a root option in {@code args} ({@code --state X} or {@code --state=X}), or {@code null}. */
    private static String optionValue(String[] args, String name) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals(name) && i + 1 < args.length) {
                return args[i + 1];
            }
            if (a.startsWith(name + "=")) {
                return a.substring(name.length() + 1);
            }
            if (VALUED_OPTIONS.contains(a)) {
                i++;
            } else if (!a.startsWith("-") || a.equals("--")) {
                return null; // the command and its own options follow
            }
        }
        return null;
    }

    /**
     * The command tree: every command and subcommand gets {@code -h, --help} (exit 0), also the ones
     * added later, so that {@code keyline COMMAND --help} works everywhere; the help's words are the
     * {@code cli} bundle's ({@link HelpBundle}), in the language in use.
     */
    static CommandLine commandLine(KeylineCli root) {
        CommandLine cl = new CommandLine(root);
        for (Class<?> c : commands()) {
            cl.addSubcommand(c);
        }
        addHelp(cl);
        cl.setResourceBundle(HelpBundle.current());
        return cl;
    }

    /**
     * The command tree for {@code args}: when they name a command, the root and that command only (the
     * others' models are never built); otherwise (no command, help, a typo that needs suggestions) all.
     */
    static CommandLine commandLine(KeylineCli root, String[] args) {
        Class<?> named = namedCommand(args);
        if (named == null) {
            return opensTheConsole(args) ? new CommandLine(root) : commandLine(root);
        }
        CommandLine cl = new CommandLine(root);
        cl.addSubcommand(named);
        addHelp(cl);
        cl.setResourceBundle(HelpBundle.current());
        return cl;
    }

    /**
     * Whether {@code args} are only root options with their values: the console opens, and no command's model is
     * needed (building all of them is a fifth of the console's time to its first frame).
     */
    static boolean opensTheConsole(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (VALUED_OPTIONS.contains(a) && i + 1 < args.length) {
                i++;
            } else if (!ROOT_FLAGS.contains(a) && !(a.contains("=") && a.startsWith("--")
                    && VALUED_OPTIONS.contains(a.substring(0, a.indexOf('='))))) {
                return false;
            }
        }
        return true;
    }

    /** The command class {@code args} name (the first argument that is neither a root option nor its value). */
    static Class<?> namedCommand(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (VALUED_OPTIONS.contains(a)) {
                i++;
                continue;
            }
            if (ROOT_FLAGS.contains(a)) {
                continue;
            }
            if (a.startsWith("-")) {
                if (a.contains("=") && VALUED_OPTIONS.contains(a.substring(0, a.indexOf('=')))) {
                    continue;
                }
                return null; // help, version, or an unknown option: picocli says what it says with all commands
            }
            for (Class<?> c : commands()) {
                if (c.getAnnotation(Command.class).name().equals(a)) {
                    return c;
                }
            }
            return null;
        }
        return null;
    }

    private static void addHelp(CommandLine c) {
        for (CommandLine sub : c.getSubcommands().values()) {
            CommandLine.Model.CommandSpec spec = sub.getCommandSpec();
            if (spec.findOption("--help") == null) {
                spec.addOption(CommandLine.Model.OptionSpec.builder("-h", "--help").usageHelp(true)
                        .descriptionKey("helpOption").build());
            }
            addHelp(sub);
        }
    }

    private static int handle(Exception ex, PrintStream err) {
        if (ex instanceof UsageError || ex instanceof InvalidKeyException) {
            err.println(t("cli.worker.problem", ex.getMessage()));
            return RunReport.USAGE;
        }
        if (ex instanceof OperatorException || ex instanceof StateUnavailableException
                || ex instanceof JobFileInvalid) {
            err.println(t("cli.worker.problem", ex.getMessage()));
            return RunReport.EXECUTION_FAILURE;
        }
        if (ex instanceof IllegalArgumentException) {
            err.println(t("cli.worker.problem", ex.getMessage()));
            return RunReport.USAGE;
        }
        err.println(t("cli.root.unexpected", ex.getClass().getSimpleName(), ex.getMessage()));
        err.println(t("cli.root.bug"));
        return RunReport.EXECUTION_FAILURE;
    }

    /** Without a command: the operator console. */
    @Override
    public Integer call() throws InterruptedException {
        return console.open(workspace(), env);
    }

    /** Whether runs show a live counter: the real process, with a terminal on stdin and stdout. */
    boolean liveCounter() {
        return asProcess && rawOut == System.out && System.console() != null;
    }

    RunOptions runOptions() {
        return options;
    }

    java.io.InputStream in() {
        return in;
    }

    Map<String, String> env() {
        return env;
    }

    Workspace workspace() {
        if (workspace == null) {
            Map<String, String> wsEnv = env;
            if (masterKeyFile != null) {
                wsEnv = new java.util.HashMap<>(env);
                wsEnv.put(io.keyline.credentials.SecretBox.MASTER_KEY_FILE_VARIABLE,
                        masterKeyFile.toAbsolutePath().normalize().toString());
            }
            Places.Found f = found();
            workspace = new Workspace(f.state(), f.jobs(), options, wsEnv).reader(reader);
            if (!creates && !init) {
                workspace.existingOnly(f::notFound);
            }
        }
        return workspace;
    }

    /**
     * Where the state and the jobs folder are ({@link Places}: --state, KEYLINE_STATE, the workspace above the
     * jobs folder or the working directory, the installed app's); a bad URL is a usage error.
     */
    Places.Found found() {
        if (found == null) {
            try {
                found = new Places(env, workingDir).find(state, jobs);
            } catch (IllegalArgumentException e) {
                throw new UsageError(e.getMessage());
            }
        }
        return found;
    }

    /** The working directory of the command. */
    Path workingDir() {
        return workingDir;
    }

    private void closeWorkspace() {
        if (workspace != null) {
            workspace.close();
        }
    }

    /** The named job, or a clear error: exit 1 when its file is invalid, 64 when no such job exists. */
    JobDefinition job(String name) {
        JobCatalog catalog = workspace().catalog();
        return catalog.job(name).orElseThrow(() -> {
            List<JobFileError> own = catalog.errors().stream()
                    .filter(e -> e.file().getFileName() != null
                            && e.file().getFileName().toString().equals(name + ".json"))
                    .toList();
            if (!own.isEmpty()) {
                return new JobFileInvalid(t("cli.root.jobFileInvalid", name) + "\n  "
                        + own.stream().map(JobFileError::toString).collect(Collectors.joining("\n  ")));
            }
            String known = catalog.jobs().stream().map(JobDefinition::name).collect(Collectors.joining(", "));
            return new UsageError(known.isEmpty() ? t("cli.root.unknownJobNone", name, workspace().jobsDir())
                    : t("cli.root.unknownJob", name, workspace().jobsDir(), known));
        });
    }

    /** A named job whose file did not validate: exit 1. */
    static final class JobFileInvalid extends RuntimeException {
        JobFileInvalid(String message) {
            super(message);
        }
    }
}
