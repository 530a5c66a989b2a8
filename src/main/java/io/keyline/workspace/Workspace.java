package io.keyline.workspace;

import io.keyline.core.CredentialStore;
import io.keyline.core.Engine;
import io.keyline.core.OperatorActions;
import io.keyline.core.Planner;
import io.keyline.core.RunOptions;
import io.keyline.core.RunTrace;
import io.keyline.core.Scheduler;
import io.keyline.core.StateStore;
import io.keyline.core.operations.Operations;
import io.keyline.core.exec.Executors;
import io.keyline.core.jobfile.JobCatalog;
import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.store.Database;
import io.keyline.store.StateLocation;
import io.keyline.store.h2.H2Database;
import io.keyline.store.postgres.PostgresDatabase;
import io.keyline.store.JdbcCredentialStore;
import io.keyline.store.JdbcStateStore;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The wiring of one state folder and one jobs folder: what the CLI and the console work on.
 * The database is opened on first use, so commands that only read job files never touch it.
 */
public final class Workspace implements AutoCloseable {

    private final io.keyline.store.StateLocation location;
    private final Path stateDir;
    private final Path jobsDir;
    private final RunOptions options;
    private final Map<String, String> env;
    private JobCatalog catalog;
    private Database database;
    private StateStore store;
    private CredentialStore credentials;
    private RunTrace operatorLog;

    /**
     * @param env the process environment ({@code KEYLINE_MASTER_KEY} is read from it)
     */
    public Workspace(Path stateDir, Path jobsDir, RunOptions options, Map<String, String> env) {
        this(new io.keyline.store.StateLocation.Folder(stateDir), jobsDir, options, env);
    }

    /** A workspace on a state folder or a shared PostgreSQL database. */
    public Workspace(io.keyline.store.StateLocation location, Path jobsDir, RunOptions options, Map<String, String> env) {
        this.location = location;
        this.stateDir = location.localDir();
        this.jobsDir = jobsDir.toAbsolutePath().normalize();
        this.options = options;
        this.env = Map.copyOf(env);
    }

    /** The local state folder: the whole state (H2), or the run logs of a shared state ($XDG_STATE_HOME/keyline). */
    public Path stateDir() {
        return stateDir;
    }

    /** Where the state is. */
    public io.keyline.store.StateLocation location() {
        return location;
    }

    /** The state as messages and the console name it (a folder, or the URL without its password). */
    public String stateName() {
        return location.display();
    }

    /** Whether the state is a PostgreSQL database shared by several machines. */
    public boolean shared() {
        return location.shared();
    }

    public Path jobsDir() {
        return jobsDir;
    }

    /** A setting from the process environment (e.g. {@code KEYLINE_CATCH_UP}), or {@code null}. */
    public String setting(String name) {
        return env.get(name);
    }

    public RunOptions options() {
        return options;
    }

    public synchronized JobCatalog catalog() {
        if (catalog == null) {
            catalog = JobFileLoader.loadFolder(jobsDir);
            io.keyline.core.StartupTrace.mark("job files loaded");
        }
        return catalog;
    }

    public synchronized Database database() {
        if (database == null) {
            requireState();
            boolean created = location instanceof StateLocation.Folder f && !Places.isState(f.dir());
            database = reader && location instanceof StateLocation.Folder f ? H2Database.openToRead(f.dir())
                    : location instanceof StateLocation.Postgres p ? PostgresDatabase.open(p, notFound == null)
                    : H2Database.open(location.localDir());
            if (created) {
                remember();
            }
        }
        return database;
    }

    /** Opens the state where {@code location} says: an H2 state folder, or a PostgreSQL database. */
    public static Database open(StateLocation location) {
        return location instanceof StateLocation.Postgres p ? PostgresDatabase.open(p)
                : H2Database.open(location.localDir());
    }

    /**
     * Why the state may not be created here ({@link #existingOnly}), or {@code null} when it may. Volatile, not
     * guarded by the workspace: the console reads it while another thread holds the workspace to open the state.
     */
    private volatile java.util.function.Supplier<String> notFound;

    /**
     * Says that this workspace's state must exist: opening a state folder that holds none (or a PostgreSQL
     * database without Keyline's tables), or writing its run log, throws {@link io.keyline.core.StateUnavailableException}
     * with {@code notFound}'s message instead of creating one. Only the console's first run, {@code init} and
     * {@code --init} create a state.
     */
    public synchronized Workspace existingOnly(java.util.function.Supplier<String> notFound) {
        this.notFound = notFound;
        return this;
    }

    /** Whether a state is there (a PostgreSQL state is checked when it is opened). */
    public boolean exists() {
        return !(location instanceof StateLocation.Folder f) || Places.isState(f.dir());
    }

    /** Refuses a state folder that holds no state when this workspace may not create one. */
    private void requireState() {
        java.util.function.Supplier<String> nf = notFound;
        if (nf != null && !exists()) {
            if (location instanceof StateLocation.Folder f) {
                H2Database.refuseUrlSyntax(f.dir()); // a path that is not one says so first, not "create it"
            }
            throw new io.keyline.core.StateUnavailableException(nf.get(), null);
        }
    }

    /** A new state folder remembers its jobs folder, for commands that name neither (see {@link Places}). */
    private void remember() {
        try {
            if (Places.rememberedJobs(stateDir) == null) {
                Places.rememberJobs(stateDir, jobsDir);
            }
        } catch (java.io.IOException e) {
            // the state works without it; commands then need --jobs or a workspace's resources/jobs
        }
    }

    /** Whether this workspace's process reads the state and ends: see {@link #reader}. */
    private boolean reader;

    /**
     * Says, before the state is opened, that this process only reads the state, then ends (a one-shot
     * {@code status}, {@code jobs}, {@code timeline}, {@code export}): it opens an H2 state with
     * {@link H2Database#openToRead} - alone and read-only when nobody else has it open, so that others wait until
     * {@link #doneReading} or {@link #close}; through the process that has it open otherwise.
     */
    public synchronized Workspace reader(boolean reader) {
        this.reader = reader;
        return this;
    }

    /**
     * A reader has read what it prints: the state is closed before the output is written, which may go to a pipe
     * that nobody reads for a while ({@code keyline status | less}) and would otherwise keep every other process
     * out of a state this one opened alone. Asking for the state again opens it again.
     */
    public synchronized void doneReading() {
        if (database != null) {
            database.close();
            database = null;
            store = null;
            credentials = null;
        }
    }

    public synchronized StateStore store() {
        if (store == null) {
            store = new JdbcStateStore(database());
        }
        return store;
    }

    /**
     * Guards the services built over the state (not the workspace's own lock, which {@link #store} holds
     * while it opens the state: the console builds its services meanwhile).
     */
    private final Object services = new Object();
    /** Whether the services are built over a state that opens on first use ({@link #openLater}). */
    private boolean openLater;
    /** After {@link #openLater}: by the type the services get, the one store of it that opens on first use. */
    private final Map<Class<?>, Object> later = new java.util.HashMap<>();

    /**
     * Builds this workspace's services (operations, engine, leases, scheduler) over a state that opens on
     * their first use, from the thread that uses them: the console shows its window while the state opens in
     * the background. Call before the first service is built.
     */
    public Workspace openLater() {
        synchronized (services) {
            openLater = true;
            return this;
        }
    }

    /** The state as the services get it: the store, or one that opens it on first use ({@link #openLater}). */
    private StateStore state() {
        return forServices(StateStore.class, this::store);
    }

    /**
     * The credential store as the services get it: after {@link #openLater}, one that opens the state on first
     * use (the console's credentials page reads it; building the page's services must not wait for the state).
     */
    public CredentialStore credentialService() {
        return credentialState();
    }

    private CredentialStore credentialState() {
        return forServices(CredentialStore.class, this::credentials);
    }

    /** What {@code open} returns; after {@link #openLater}, one stand-in per type that calls it on first use. */
    private <T> T forServices(Class<T> type, java.util.function.Supplier<T> open) {
        synchronized (services) {
            if (!openLater) {
                return open.get();
            }
            return type.cast(later.computeIfAbsent(type, t -> Deferred.of(type, open)));
        }
    }

    private Operations operations;

    /** The operator's use cases and the reads the CLI and the console show, over this state: built once. */
    public Operations operations() {
        synchronized (services) {
            if (operations == null) {
                operations = new Operations(state(), credentialState(), this::planner, this::actions, options.clock());
            }
            return operations;
        }
    }

    /** The encrypted credential store (the provider steps obtain credentials from). */
    public synchronized CredentialStore credentials() {
        if (credentials == null) {
            credentials = new JdbcCredentialStore(database(), env, options.clock());
        }
        return credentials;
    }

    /** An engine that traces to {@code trace}, holding keys under this process's leases. */
    public Engine engine(RunTrace trace) {
        return new Engine(state(), executors(), credentialState(), trace, options, leases());
    }

    /** The embedded scheduler over this state and jobs folder, running keys through {@code engine}. */
    public Scheduler scheduler(Engine engine, Duration window) {
        StateStore s = state();
        return new Scheduler(() -> JobFileLoader.loadFolder(jobsDir), s, s, s, engine, options.clock(), window);
    }

    private io.keyline.core.LeaseKeeper leases;
    private String kind = "run";

    /** What this process is for the Workers panel ({@code worker}, {@code console}; default {@code run}). */
    public void kind(String kind) {
        synchronized (services) {
            this.kind = kind;
        }
    }

    /** This process's lease keeper: one heartbeat for every key its engines hold (deregistered on close). */
    public io.keyline.core.LeaseKeeper leases() {
        synchronized (services) {
            if (leases == null) {
                leases = new io.keyline.core.LeaseKeeper(state(), options, kind);
            }
            return leases;
        }
    }

    /** A run trace to {@code human} (or nowhere but the file) and {@code logs/runs.jsonl}, rotated per the env. */
    public RunTrace trace(PrintStream human) {
        requireState();
        try {
            return RunTrace.open(stateDir, human, env);
        } catch (IllegalArgumentException e) {
            throw new io.keyline.core.StateUnavailableException(e.getMessage(), e);
        }
    }

    /** The planner, which asks the unsafe steps' probes read-only (and never executes a step). */
    private Planner planner() {
        Executors probes = executors();
        StateStore s = state();
        return new Planner(s, s, s, s, credentialState(), options.clock(),
                ctx -> probes.forKind(ctx.step().probe().kind()).probe(ctx));
    }

    private Executors executors;

    private Executors executors() {
        synchronized (services) {
            if (executors == null) {
                executors = Executors.standard(options.clock());
            }
            return executors;
        }
    }

    /**
     * The notifier over this state and jobs folder ({@code notify.json}, else the default channels: a desktop
     * notification when {@code notify-send} is installed); failures are said on {@code warn}.
     */
    public io.keyline.core.notify.Notifier notifier(RunTrace trace, java.util.function.Consumer<String> warn) {
        return new io.keyline.core.notify.Notifier(
                () -> io.keyline.core.notify.Channels.effective(io.keyline.core.jobfile.NotifyFileReader.load(jobsDir),
                        env),
                new io.keyline.store.JdbcNotifyStore(database()), credentials(), trace, options.clock(),
                options.sleeper(), warn, jobsDir, io.keyline.core.CredentialAlerts.warnWindow(env));
    }

    /** Operator actions; each one taken also appends an {@code operator} line to the run log. */
    private OperatorActions actions() {
        StateStore s = state();
        return new OperatorActions(s, s, s, options, operatorLog(), s, s);
    }

    /** The run log for operator lines, opened once per workspace. */
    public RunTrace operatorLog() {
        synchronized (services) {
            if (operatorLog == null) {
                operatorLog = trace(null);
            }
            return operatorLog;
        }
    }

    @Override
    public synchronized void close() {
        if (leases != null) {
            leases.close();
        }
        if (operatorLog != null) {
            operatorLog.close();
        }
        if (database != null) {
            database.close();
        }
    }
}
