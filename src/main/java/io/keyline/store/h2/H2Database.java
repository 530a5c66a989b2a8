package io.keyline.store.h2;

import io.keyline.core.PrivateFiles;
import io.keyline.core.StartupTrace;
import io.keyline.core.StateUnavailableException;
import io.keyline.domain.Printable;
import io.keyline.store.Database;
import io.keyline.store.Dialect;
import io.keyline.store.Migrations;
import io.keyline.text.Said;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.h2.api.ErrorCode;
import org.h2.jdbcx.JdbcConnectionPool;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * The embedded state: {@code STATE/keyline.mv.db}, an H2 file in PostgreSQL mode, migrated by Flyway.
 *
 * <p>Opened with {@code AUTO_SERVER=TRUE} so that the console and a CLI run can share one state folder (the first
 * process serves the others over loopback), and with {@code WRITE_DELAY=0} so that every commit reaches the file
 * before the call returns: H2's default of 500 ms would lose a committed "step started" when the process is killed
 * right after an unsafe request went out.
 *
 * <p>Every open runs under the folder's open lock ({@link OpenLock}) and, before H2 sees the file, repairs what H2's
 * own recovery would miss after a killed process ({@link Recovery}); the first session then finishes transactions a
 * kill left half-committed ({@link LeftoverTransactions}) and, after an unclean shutdown, the indexes are checked
 * against their rows ({@link IndexCheck}). The process that has the file open keeps it compact ({@link Compaction}).
 * docs/durability.md explains each of these.
 *
 * <p>A one-shot reader ({@link #openToRead}) that finds nobody else with the state open opens the file alone and,
 * when it was closed cleanly, read-only; otherwise it goes through the process that serves it, as everyone does.
 */
public final class H2Database implements Database {

    /** Settings of every URL; PostgreSQL mode keeps the SQL portable. */
    static final String SETTINGS = ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH"
            + ";WRITE_DELAY=0;AUTO_SERVER=TRUE;LOCK_TIMEOUT=10000";
    /**
     * The same for the non-admin user, without {@code WRITE_DELAY}: setting it needs admin rights, and it is
     * persistent (the admin's session stores it in the database on every open).
     */
    static final String APP_SETTINGS = SETTINGS.replace(";WRITE_DELAY=0", "");

    static {
        // before any H2 class reads its settings: AUTO_SERVER on loopback, no Java classes or objects by name
        H2Lockdown.apply();
    }

    private volatile JdbcConnectionPool pool;
    private JdbcConnectionPool syncPool;
    private final Path stateDir;
    private final String url;
    private final DatabasePasswords passwords;
    /** The guard of this state's new sessions (its {@code served} follows takeovers). */
    private final NewSessions guard;
    /** The open lock of a reader that opened the file alone, released at close; null otherwise. */
    private final FileChannel heldOpenLock;

    private H2Database(JdbcConnectionPool pool, Path stateDir, String url, DatabasePasswords passwords,
                       FileChannel heldOpenLock, NewSessions guard) {
        this.pool = pool;
        this.guard = guard;
        this.stateDir = stateDir;
        this.url = url;
        this.passwords = passwords;
        this.heldOpenLock = heldOpenLock;
    }

    /**
     * Opens (creating if needed) {@code stateDir/keyline.mv.db} and migrates it to the current schema.
     *
     * <p>The state folder is the operator's alone: created 0700, its files 0600 (tightened on every open, H2's own
     * files included), and refused when others can write it. The database has a random password per state
     * ({@link DatabasePasswords}, in the folder); a state from before passwords is given one here. Migrations run as
     * the admin user; the returned sessions are the non-admin user's, who can read and write the tables and nothing
     * else.
     */
    public static H2Database open(Path stateDir) {
        return open(stateDir, false);
    }

    /**
     * Opens the state for a one-shot command that only reads and then ends ({@code status}, {@code jobs},
     * {@code timeline}, {@code export}): when another process has the state open, through that process as
     * {@link #open} does; when none has, this process opens the file alone - read-only when it was closed cleanly
     * and needs nothing done - without the AUTO_SERVER that would let others in through it. Until {@link #close}
     * this process holds the open lock, so a process that opens the state meanwhile waits for it (it does not
     * fail): the caller must close the state as soon as it has read what it needs, before it writes to a pipe that
     * may block. The file is not compacted on close.
     */
    public static H2Database openToRead(Path stateDir) {
        return open(stateDir, true);
    }

    @Override
    public Dialect dialect() {
        return Dialect.H2;
    }

    @Override
    public String where() {
        return stateDir.toString();
    }

    @Override
    public Path stateDir() {
        return stateDir;
    }

    /** Whether this process opened the file alone to read it ({@link #openToRead}), holding the open lock until close. */
    public boolean alone() {
        return heldOpenLock != null;
    }

    /** The logger, made on first use: java.util.logging's set-up is not part of a one-shot command that logs nothing. */
    private static final class Log {
        static final Logger LOG = Logger.getLogger(H2Database.class.getName());
    }

    /** Whether this thread holds the state's open lock (in an open or a takeover): its new sessions need no guard. */
    private static final ThreadLocal<Boolean> LOCKING = ThreadLocal.withInitial(() -> false);

    /**
     * The guard of new physical sessions when another process serves the state. With AUTO_SERVER, H2's driver tries
     * the file first: when the serving process has died, a new session opens the file here, behind the open lock and
     * without the repair of {@link Recovery}, and a file whose store header lags would lose its last commits. So such
     * a session is opened under the open lock, after the header was repaired (nothing to repair, and nothing
     * opened, while the server lives and holds the file).
     */
    private static final class NewSessions implements Sessions.Guard {
        private final Path dir;
        /** Whether the state is served by another process (the pool's first session was remote). */
        volatile boolean served;

        NewSessions(Path dir) {
            this.dir = dir;
        }

        @Override
        public Sessions.Held enter() throws SQLException {
            if (!served || LOCKING.get()) {
                return Sessions.Held.NOTHING;
            }
            Semaphore opening = opening(dir);
            opening.acquireUninterruptibly();
            FileChannel ch = null;
            try {
                ch = PrivateFiles.open(dir.resolve("keyline.open.lock"), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                OpenLock.take(ch, dir);
                Recovery.repairIfUnclean(dir.resolve("keyline.mv.db"));
                FileChannel held = ch;
                return () -> {
                    closeQuietly(held);
                    opening.release();
                };
            } catch (IOException | RuntimeException e) {
                closeQuietly(ch);
                opening.release();
                throw new SQLException(Said.of("core.store.h2.newSessionLock", dir.toString(),
                        String.valueOf(e.getMessage())).text(), "08001", e);
            }
        }
    }

    /** State folders this JVM has open alone ({@link #openToRead}). */
    private static final Set<Path> ALONE_HERE = ConcurrentHashMap.newKeySet();

    /**
     * Opens of one state folder in this JVM, one at a time (the open lock is the OS's, which does not serialize
     * threads of one process). A semaphore, not a monitor: a reader that opened the file alone gives it back at
     * close, possibly on another thread.
     */
    private static final Map<Path, Semaphore> OPENING = new ConcurrentHashMap<>();

    private static Semaphore opening(Path dir) {
        return OPENING.computeIfAbsent(dir, d -> new Semaphore(1));
    }

    private static H2Database open(Path stateDir, boolean toRead) {
        Path dir = stateDir.toAbsolutePath().normalize();
        refuseUrlSyntax(dir);
        if (!Files.isRegularFile(dir.resolve("keyline.mv.db"))) {
            refuseOthersFolder(dir);
        }
        try {
            PrivateFiles.ensurePrivateDirectory(dir);
        } catch (PrivateFiles.NotPrivateException e) {
            throw new StateUnavailableException(e.said(), e);
        } catch (AccessDeniedException e) {
            throw new StateUnavailableException(Said.of("core.state.cannotCreateDenied", dir.toString()), e);
        } catch (IOException e) {
            throw new StateUnavailableException(orElse(Database.diskFull(dir, e), Said.of("core.state.cannotCreate",
                    dir.toString(), String.valueOf(e.getMessage()))), e);
        }
        if (!Files.isWritable(dir)) {
            throw new StateUnavailableException(Said.of("core.state.notWritable", dir.toString()), null);
        }
        String lockdown = H2Lockdown.problem();
        if (lockdown != null) {
            throw new IllegalStateException("H2 was initialised before Keyline could restrict it (" + lockdown
                    + "): call H2Lockdown.apply() first");
        }
        // Opening and migrating is serialized across processes (and threads) by a lock file: two processes
        // migrating at once would both create the tables, and H2 commits DDL at once. A reader that opened the file
        // alone keeps both until it closes it.
        if (ALONE_HERE.contains(dir)) {
            throw new IllegalStateException("this process has the state in " + dir + " open alone to read it: "
                    + "close that first (it would wait for itself)");
        }
        Semaphore opening = opening(dir);
        opening.acquireUninterruptibly();
        FileChannel ch = null;
        try {
            ch = PrivateFiles.open(dir.resolve("keyline.open.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            OpenLock.take(ch, dir); // waits for another process, says for whom, gives up in the end
            LOCKING.set(true);
            boolean nobody = Users.join(dir);
            boolean alone = nobody && toRead;
            StartupTrace.mark("state folder checked and locked" + (alone ? " (alone)" : ""));
            try {
                H2Database db = openLocked(dir, toRead, alone, nobody, alone ? ch : null);
                if (alone) {
                    ALONE_HERE.add(dir);
                    ch = null;
                    opening = null;
                }
                return db;
            } catch (RuntimeException | Error e) {
                Users.leave(dir);
                throw e;
            }
        } catch (IOException e) {
            throw new StateUnavailableException(orElse(Database.diskFull(dir, e), Said.of("core.state.cannotLock",
                    dir.resolve("keyline.open.lock").toString(), String.valueOf(e.getMessage()))), e);
        } finally {
            LOCKING.set(false);
            closeQuietly(ch); // closing the channel releases its lock
            if (opening != null) {
                opening.release();
            }
        }
    }

    private static Said orElse(Said first, Said otherwise) {
        return first != null ? first : otherwise;
    }

    private static void closeQuietly(FileChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // the lock goes with the channel, and with the process
            }
        }
    }

    /**
     * What Keyline itself keeps in a state folder besides its {@code keyline.*} files, and the README.md a checkout
     * keeps in its own ./state.
     */
    private static final Set<String> STATE_NAMES = Set.of("secret.key", DatabasePasswords.FILE_NAME,
            "workspace.properties", "logs", "README.md");

    /**
     * Refuses to make a state in a folder that holds another program's files: a state folder is made private
     * (0700, its files 0600), which would take the other program's files from their readers (and a script's
     * execute bit). A folder that does not exist, an empty one, and one that holds only what Keyline keeps there (a
     * {@code secret.key} put there first, what a killed first open left) are a state's to be.
     */
    public static void refuseOthersFolder(Path dir) {
        if (!Files.isDirectory(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return; // missing: made 0700; a file or a link: refused by the private folder's own checks
        }
        List<String> others = new java.util.ArrayList<>();
        try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
            entries.map(p -> p.getFileName().toString()).filter(n -> !keylines(n)).sorted().forEach(others::add);
        } catch (IOException e) {
            return; // unreadable: opening it says so
        }
        if (!others.isEmpty()) {
            String shown = others.stream().limit(3).map(io.keyline.domain.Printable::line)
                    .collect(java.util.stream.Collectors.joining(", ")) + (others.size() > 3 ? ", …" : "");
            throw new StateUnavailableException(Said.of("core.state.othersFolder", dir.toString(), shown,
                    dir.resolve("state").toString()), null);
        }
    }

    /** Whether a state folder's entry is Keyline's: its files, or the temporary file of one being written. */
    private static boolean keylines(String name) {
        String n = name;
        int dash = name.indexOf('-');
        if (name.startsWith(".") && name.endsWith(".tmp") && dash > 1) {
            n = name.substring(1, dash);
        }
        return n.startsWith("keyline.") || STATE_NAMES.contains(n);
    }

    /**
     * A state path is a path: H2 would read {@code ;} in it as the start of its URL settings (and {@code INIT=...}
     * there as SQL to run on every connection), so such a path is refused.
     */
    public static void refuseUrlSyntax(Path dir) {
        String s = dir.toString();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ';') {
                throw new StateUnavailableException(Said.of("core.store.h2.pathSemicolon", s), null);
            }
            if (Character.isISOControl(c)) {
                throw new StateUnavailableException(Said.of("core.store.h2.pathControl", Printable.line(s)), null);
            }
        }
    }

    /**
     * @param toRead  a one-shot reader: the file is not compacted when it closes
     * @param alone   a reader with nobody else in: no AUTO_SERVER, read-only when the file allows
     * @param nobody  no other process had the state open: this one opens the file itself, and a file that was not
     *                closed cleanly was left so by a process that died (its indexes are checked)
     * @param held    the open lock a reader alone keeps until it closes the state
     */
    private static H2Database openLocked(Path dir, boolean toRead, boolean alone, boolean nobody, FileChannel held) {
        String url = url(dir, alone) + (toRead ? ";MAX_COMPACT_TIME=0" : "");
        Path file = dir.resolve("keyline.mv.db");
        // -Dkeyline.state.checkIndexes=true: check them now (a state that a crash left so, then closed cleanly)
        boolean afterCrash = nobody && (IndexCheck.due(dir)
                || Boolean.getBoolean("keyline.state.checkIndexes") && Files.isRegularFile(file));
        if (alone && !afterCrash) {
            H2Database readOnly = openReadOnly(dir, url, file, held);
            if (readOnly != null) {
                return readOnly;
            }
        }
        for (int attempt = 1; ; attempt++) {
            // before H2 opens the file: find commits its quick recovery would skip after a killed process
            Recovery.repairIfUnclean(file);
            DatabasePasswords pw;
            try {
                pw = DatabasePasswords.unlock(dir, url);
            } catch (SQLException e) {
                if ((Sessions.serverWentAway(e) || Sessions.serverClosing(e)) && attempt < 5) {
                    continue;
                }
                throw new StateUnavailableException(describe(dir, e), e);
            } catch (IOException e) {
                throw new StateUnavailableException(orElse(Database.diskFull(dir, e), Said.of(
                        "core.state.cannotReadWrite", String.valueOf(DatabasePasswords.file(dir)),
                        String.valueOf(e.getMessage()))), e);
            }
            JdbcConnectionPool admin = Sessions.pool(url, DatabasePasswords.ADMIN_USER, pw.admin(), 4, c -> { });
            NewSessions guard = new NewSessions(dir);
            JdbcConnectionPool app = null;
            try {
                try (Connection c = adminSession(admin, dir, url, pw)) {
                    StartupTrace.mark("H2 opened the state file");
                    migrate(admin, c);
                    StartupTrace.mark("schema checked");
                    if (afterCrash) {
                        // half-committed transactions first: an index is rebuilt from the rows as committed
                        LeftoverTransactions.finishOnFirstOpen(c, dir);
                        IndexCheck.repairPending(c, dir);
                    }
                    pw.ensureAppUser(c);
                    app = appPool(dir, pw, alone, guard);
                    // the app's first session keeps the database open while the admin's close
                    Connection first;
                    try {
                        first = app.getConnection();
                    } catch (SQLException e) {
                        if (!DatabasePasswords.wrong(e)) {
                            throw e;
                        }
                        pw.resetApp(c);
                        first = app.getConnection();
                    }
                    c.close();
                    admin.dispose();
                    try (Connection f = first) {
                        f.isValid(1);
                        guard.served = !LeftoverTransactions.embedded(f);
                        if (!toRead) { // a reader that ends in a moment has nothing to keep compact
                            Compaction.startIfOpener(f);
                        }
                    }
                }
                tightenFiles(dir);
                StartupTrace.mark("state open");
                return new H2Database(app, dir, url, pw, held, guard);
            } catch (SQLException | FlywayException e) {
                admin.dispose();
                dispose(app);
                if ((Sessions.serverWentAway(e) || Sessions.serverClosing(e)) && attempt < 5) {
                    continue;
                }
                if (e instanceof SQLException s) {
                    throw new StateUnavailableException(describe(dir, s), e);
                }
                throw new StateUnavailableException(orElse(Database.diskFull(dir, e), Said.of(
                        "core.state.cannotMigrate", dir.toString(), Database.firstLine(e.getMessage()))), e);
            } catch (IOException e) {
                admin.dispose();
                dispose(app);
                throw new StateUnavailableException(orElse(Database.diskFull(dir, e), Said.of(
                        "core.state.cannotOpen", dir.toString(), String.valueOf(e.getMessage()))), e);
            } catch (RuntimeException | Error e) {
                // no session of a failed open may keep H2's file open once the open lock is let go
                admin.dispose();
                dispose(app);
                throw e;
            }
        }
    }

    /** The admin's session of an open; a database still on the empty password (killed mid-change) gets its own. */
    private static Connection adminSession(JdbcConnectionPool admin, Path dir, String url, DatabasePasswords pw)
            throws SQLException, IOException {
        try {
            return admin.getConnection();
        } catch (SQLException e) {
            if (!DatabasePasswords.wrong(e)) {
                throw e;
            }
            // a process killed between writing the passwords file and changing the database
            DatabasePasswords.fromEmptyPassword(dir, url, pw);
            return admin.getConnection();
        }
    }

    private static void dispose(JdbcConnectionPool pool) {
        if (pool != null) {
            pool.dispose();
        }
    }

    /**
     * A lone reader's open on a file that was closed cleanly: read-only ({@code ACCESS_MODE_DATA=r}: not one byte of
     * the file written), as the app user only - no admin session, no check of the users - when the passwords file
     * opens it and the schema is current; {@code null} when anything is not so (a new or old state, a restored
     * passwords file, missing rights, a transaction left half-committed), and the full open does what it does.
     */
    private static H2Database openReadOnly(Path dir, String url, Path file, FileChannel held) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        DatabasePasswords pw;
        try {
            pw = DatabasePasswords.read(dir);
        } catch (IOException e) {
            return null; // the full open says what is wrong
        }
        if (pw == null) {
            return null;
        }
        // a half-committed transaction, which only a read-write open can finish, fails the first session
        JdbcConnectionPool app = Sessions.pool(appUrl(dir, true) + ";ACCESS_MODE_DATA=r", DatabasePasswords.APP_USER,
                pw.app(), 16, LeftoverTransactions::refuseIfAnyLeft);
        try {
            try (Connection c = app.getConnection()) {
                StartupTrace.mark("H2 opened the state file");
                if (!Migrations.current(c, Migrations.COMMON)) {
                    app.dispose();
                    return null;
                }
            }
            StartupTrace.mark("schema checked");
            tightenFiles(dir);
            StartupTrace.mark("state open");
            return new H2Database(app, dir, url, pw, held, new NewSessions(dir));
        } catch (SQLException | IOException | RuntimeException e) {
            app.dispose();
            return null;
        }
    }

    /**
     * How many transactions that a killed process had left half-committed the opens in this JVM finished
     * ({@link LeftoverTransactions}; the crash loop reports it).
     */
    public static int halfCommitsFinished() {
        return LeftoverTransactions.FINISHED.get();
    }

    /** The admin's URL of the state in {@code dir}. */
    static String url(Path dir) {
        return url(dir, false);
    }

    /** The admin's URL; {@code alone}: without AUTO_SERVER (H2 then locks the file with the OS's lock). */
    private static String url(Path dir, boolean alone) {
        return "jdbc:h2:file:" + dir.resolve("keyline") + (alone ? withoutServer(SETTINGS) : SETTINGS);
    }

    /** The app user's URL of the state in {@code dir}; {@code alone}: without AUTO_SERVER. */
    private static String appUrl(Path dir, boolean alone) {
        return "jdbc:h2:file:" + dir.resolve("keyline") + (alone ? withoutServer(APP_SETTINGS) : APP_SETTINGS);
    }

    private static String withoutServer(String settings) {
        return settings.replace(";AUTO_SERVER=TRUE", "");
    }

    /**
     * The app user's sessions: up to 16, waiting up to 30 s for one to be free. Each new one looks for half-committed
     * leftovers ({@link Sessions}: once per store, a set lookup after that).
     */
    private static JdbcConnectionPool appPool(Path dir, DatabasePasswords pw, boolean alone, NewSessions guard) {
        return Sessions.pool(appUrl(dir, alone), DatabasePasswords.APP_USER, pw.app(), 16, guard, c -> {
            writeEachCommit(c);
            LeftoverTransactions.finishOnFirstOpen(c, dir);
        });
    }

    /**
     * When this process has the file itself (the session is local), every commit is written before it returns, as
     * {@code WRITE_DELAY=0} says. Why: H2 sets the write delay from the URL of the session that opens the file - 500
     * ms when the URL does not say, whatever was stored before - and the app user's URL cannot say it (it needs
     * admin rights). The app user opens the file at a takeover (the serving process closed the state or died) and
     * when H2's driver opens it behind a broken pool; a process that then served the state with H2's 500 ms lost
     * commits that had returned when it was killed within that time ({@code TakeoverCommitTest}).
     */
    static void writeEachCommit(Connection c) throws SQLException {
        org.h2.mvstore.MVStore store = Compaction.localStore(c);
        if (store != null && !store.isReadOnly() && store.getAutoCommitDelay() != 0) {
            store.setAutoCommitDelay(0);
        }
    }

    /**
     * Every file of the state folder (H2's included) 0600, every folder 0700 - except the key files, which their
     * readers refuse when others can read them ({@code secret.key}, {@code database.secret}).
     */
    private static void tightenFiles(Path dir) throws IOException {
        PrivateFiles.tightenContents(dir, 1, Set.of("secret.key", DatabasePasswords.FILE_NAME));
    }

    /**
     * Migrates to the current schema. The migrations are idempotent ({@code IF NOT EXISTS}), so a migration that a
     * killed process left half done is repaired and run again. A current schema does not start Flyway.
     */
    private static void migrate(JdbcConnectionPool admin, Connection session) throws SQLException {
        if (Migrations.current(session, Migrations.COMMON)) {
            return;
        }
        Flyway flyway = Migrations.flyway(session, admin, "classpath:db/migration");
        try {
            flyway.migrate();
        } catch (FlywayException e) {
            if (Sessions.serverWentAway(e)) {
                throw e;
            }
            flyway.repair();
            flyway.migrate();
        }
    }

    private static Said describe(Path dir, SQLException e) {
        String msg = Database.firstLine(e.getMessage());
        Said full = Database.diskFull(dir, e);
        if (full != null) {
            return full;
        }
        if ((e.getErrorCode() == ErrorCode.IO_EXCEPTION_1 || e.getErrorCode() == ErrorCode.IO_EXCEPTION_2)
                && Files.isRegularFile(dir.resolve("keyline.mv.db")) && causedBy(e, java.io.EOFException.class)) {
            // H2 read past the end of the file: truncated, or not an H2 file at all
            return Said.of("core.state.truncated", dir.resolve("keyline.mv.db").toString());
        }
        if (msg.contains("Database may be already in use") || msg.contains("locked")) {
            return Said.of("core.state.locked", dir.toString(), msg);
        }
        if (msg.contains("File corrupted") || msg.contains("is not a valid") || msg.contains("Unsupported")) {
            return Said.of("core.state.corrupt", dir.resolve("keyline.mv.db").toString(), msg);
        }
        return Said.of("core.state.cannotOpen", dir.toString(), msg);
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Connection connection() throws SQLException {
        return pool.getConnection();
    }

    @Override
    public boolean connectionLost(SQLException e) {
        return Sessions.serverWentAway(e) || guard.served && Sessions.serverClosing(e);
    }

    @Override
    public Said describe(SQLException e) {
        return orElse(Database.diskFull(stateDir, e), Said.of("core.state.failed", stateDir.toString(),
                Database.firstLine(e.getMessage())));
    }

    /**
     * The process that served the state to us (AUTO_SERVER) is gone: opens it again the way {@link #open} does (under
     * the open lock, repairing what H2's quick recovery would miss), instead of letting the driver reopen the file
     * behind our back (AUTO_RECONNECT is off for that reason). Sessions of the old pool fail; callers retry.
     */
    @Override
    public void reconnect() {
        if (alone()) {
            return; // nobody served this process: it has the file itself, there is no server to lose
        }
        JdbcConnectionPool broken = pool;
        Semaphore opening = opening(stateDir);
        opening.acquireUninterruptibly();
        try {
            if (pool != broken) {
                return;
            }
            try (FileChannel ch = PrivateFiles.open(stateDir.resolve("keyline.open.lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); FileLock lock = OpenLock.take(ch, stateDir)) {
                LOCKING.set(true);
                // before anything opens it: whether the process that served it left it cleanly
                boolean check = IndexCheck.due(stateDir);
                Recovery.repairIfUnclean(stateDir.resolve("keyline.mv.db"));
                JdbcConnectionPool fresh = appPool(stateDir, passwords, false, guard);
                try (Connection c = fresh.getConnection()) {
                    c.isValid(1);
                    guard.served = !LeftoverTransactions.embedded(c);
                    if (check && LeftoverTransactions.embedded(c)) {
                        // this process took the file over from one that died: check its indexes as an open does
                        try (Connection a = Sessions.connect(url, DatabasePasswords.ADMIN_USER, passwords.admin())) {
                            IndexCheck.repairPending(a, stateDir);
                        }
                    }
                    Compaction.startIfOpener(c);
                } catch (SQLException e) {
                    fresh.dispose();
                    throw new StateUnavailableException(describe(stateDir, e), e);
                }
                pool = fresh;
                synchronized (this) {
                    if (syncPool != null) {
                        syncPool.dispose();
                        syncPool = null;
                    }
                }
            } catch (IOException e) {
                throw new StateUnavailableException(Said.of("core.state.cannotLock",
                        stateDir.resolve("keyline.open.lock").toString(), String.valueOf(e.getMessage())), e);
            } finally {
                LOCKING.set(false);
                broken.dispose();
            }
        } finally {
            opening.release();
        }
    }

    /**
     * Makes every commit so far durable (H2 writes what it holds and forces the file: {@code CHECKPOINT SYNC}), after
     * the "step started" of an unsafe step and before its request leaves. Needs admin rights: a small pool of its
     * own, used for nothing else.
     *
     * <p>Group sync: keys running side by side that ask at once share one checkpoint. A caller's commit is done before
     * it asks; a checkpoint that starts after its request was counted writes that commit too, so a caller returns
     * without its own checkpoint only when such a later checkpoint has finished. A checkpoint that fails covers no
     * one: each waiting caller tries its own.
     */
    @Override
    public void sync() {
        long mine = syncRequested.incrementAndGet();
        synchronized (syncLock) {
            if (syncCovered >= mine) {
                return;
            }
            long upTo = syncRequested.get();
            checkpointSync();
            syncCovered = upTo;
            checkpoints++;
        }
    }

    private final AtomicLong syncRequested = new AtomicLong();
    /** Held while a checkpoint is made (package-private: a test holds it to make requests meet). */
    final Object syncLock = new Object();
    /** The highest request a finished checkpoint covers (guarded by {@link #syncLock}). */
    private long syncCovered;
    /** Checkpoints made by {@link #sync} (guarded by {@link #syncLock}). */
    private long checkpoints;

    /** How many times {@link #sync} was called so far. */
    long syncRequests() {
        return syncRequested.get();
    }

    /** How many checkpoints {@link #sync} made so far (tests: concurrent requests share one). */
    long checkpoints() {
        synchronized (syncLock) {
            return checkpoints;
        }
    }

    private void checkpointSync() {
        JdbcConnectionPool p;
        synchronized (this) {
            if (syncPool == null) {
                syncPool = Sessions.pool(url, DatabasePasswords.ADMIN_USER, passwords.admin(), 2, guard, c -> { });
            }
            p = syncPool;
        }
        try (Connection c = p.getConnection(); Statement st = c.createStatement()) {
            st.execute("CHECKPOINT SYNC");
        } catch (SQLException e) {
            throw new StateUnavailableException(Said.of("core.state.cannotSync", stateDir.toString(),
                    Database.firstLine(e.getMessage())), e);
        }
    }

    @Override
    public Connection adminConnection() throws SQLException {
        return Sessions.connect(url, DatabasePasswords.ADMIN_USER, passwords.admin());
    }

    @Override
    public void close() {
        JdbcConnectionPool p = pool;
        synchronized (this) {
            if (left) {
                return;
            }
            left = true;
            if (syncPool != null) {
                syncPool.dispose();
                syncPool = null;
            }
        }
        int stillOut = p.getActiveConnections();
        p.dispose();
        Compaction.forgetClosed();
        Users.leave(stateDir);
        if (heldOpenLock != null) {
            if (stillOut > 0) {
                // a session still handed out keeps H2's file open: others would find it locked, not wait; the open
                // lock goes when this process ends (a one-shot reader ends right after closing)
                Log.LOG.warning(() -> "the state in " + stateDir + " was closed with " + stillOut + " session(s) "
                        + "still in use: other processes wait until this one ends");
                return;
            }
            closeQuietly(heldOpenLock);
            ALONE_HERE.remove(stateDir);
            opening(stateDir).release();
        }
    }

    /** Whether {@link #close} has run (once per open). */
    private boolean left;

    /**
     * The processes that have the state open hold a shared OS lock on {@code keyline.users.lock} for as long as they
     * have it open; the OS drops it when a process dies, SIGKILL included.
     *
     * <p>Why: after a process that had the state open was killed, H2 finds its lock file ({@code keyline.lock.db})
     * and, not knowing whether its writer is alive, waits until the file is 2 s old and then 2 s more to see that
     * nobody rewrites it: the first command after a SIGKILL took about 3.5 s longer than the others. When the opener
     * (under the open lock) can take the users lock exclusively, no Keyline process has the state open, so H2's lock
     * file is stale and is removed before H2 looks at it. When anyone holds it, H2's own protocol decides.
     */
    static final class Users {
        private static final Map<Path, Users> HELD = new java.util.HashMap<>();
        private final FileChannel channel;
        private final FileLock shared;
        private int opens = 1;

        private Users(FileChannel channel, FileLock shared) {
            this.channel = channel;
            this.shared = shared;
        }

        /**
         * Called under the open lock, before H2 opens the file. Returns whether no process (this one included) had
         * the state open: nobody can join meanwhile, every opener takes the open lock first.
         */
        static boolean join(Path dir) throws IOException {
            synchronized (HELD) {
                Users u = HELD.get(dir);
                if (u != null) {
                    u.opens++; // this process has it open already: it is alive, H2's lock file is ours
                    return false;
                }
                FileChannel ch = PrivateFiles.open(dir.resolve("keyline.users.lock"), StandardOpenOption.CREATE,
                        StandardOpenOption.READ, StandardOpenOption.WRITE);
                try {
                    FileLock alone = ch.tryLock();
                    boolean nobody = alone != null;
                    if (nobody) {
                        try {
                            if (Files.deleteIfExists(dir.resolve("keyline.lock.db"))) {
                                staleLocksRemoved.incrementAndGet();
                            }
                        } finally {
                            alone.release();
                        }
                    }
                    HELD.put(dir, new Users(ch, ch.lock(0, Long.MAX_VALUE, true)));
                    return nobody;
                } catch (IOException | RuntimeException e) {
                    ch.close();
                    throw e;
                }
            }
        }

        static void leave(Path dir) {
            synchronized (HELD) {
                Users u = HELD.get(dir);
                if (u == null || --u.opens > 0) {
                    return;
                }
                HELD.remove(dir);
                try {
                    u.shared.release();
                    u.channel.close();
                } catch (IOException ignored) {
                    // closing the channel releases the lock; the process's end does too
                }
            }
        }

        /** How many stale H2 lock files this process removed (tests). */
        static final java.util.concurrent.atomic.AtomicInteger staleLocksRemoved =
                new java.util.concurrent.atomic.AtomicInteger();
    }
}
