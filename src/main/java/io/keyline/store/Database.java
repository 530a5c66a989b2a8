package io.keyline.store;

import io.keyline.core.PrivateFiles;
import io.keyline.core.StateUnavailableException;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.h2.api.ErrorCode;
import org.h2.jdbcx.JdbcConnectionPool;
import org.h2.jdbcx.JdbcDataSource;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The state's database, migrated by Flyway: the embedded H2 database in the state folder (the
 * default, described here), or a shared PostgreSQL database ({@link #open(StateLocation)}; the
 * dialect's differences are in {@link PostgresDatabase} and {@link Dialect}).
 *
 * <p>Opened with {@code AUTO_SERVER=TRUE} so that the console and a CLI run can share one state
 * folder (the first process serves the others over loopback), and with {@code WRITE_DELAY=0} so
 * that every commit reaches the file before the call returns: H2's default of 500 ms would lose
 * a committed "step started" when the process is killed right after an unsafe request went out.
 */
public final class Database implements AutoCloseable {

    /** Settings appended to every URL; PostgreSQL mode keeps the SQL portable. */
    static final String SETTINGS = ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH"
            + ";WRITE_DELAY=0;AUTO_SERVER=TRUE;LOCK_TIMEOUT=10000";
    /**
     * The same for the non-admin user, without {@code WRITE_DELAY}: setting it needs admin rights, and
     * it is persistent (the admin's connection stores it in the database on every open).
     */
    static final String APP_SETTINGS = SETTINGS.replace(";WRITE_DELAY=0", "");

    private volatile H2Pool pool;
    private JdbcConnectionPool syncPool;
    private final Path stateDir;
    private final String url;
    private final DatabasePasswords passwords;
    /** The PostgreSQL state this is, or {@code null} for the embedded H2 state. */
    private final PostgresDatabase pg;

    private Database(H2Pool pool, Path stateDir, String url, DatabasePasswords passwords) {
        this.pool = pool;
        this.stateDir = stateDir;
        this.url = url;
        this.passwords = passwords;
        this.pg = null;
    }

    private Database(PostgresDatabase pg) {
        this.pool = null;
        this.stateDir = pg.where().logs();
        this.url = null;
        this.passwords = null;
        this.pg = pg;
    }

    /**
     * Opens the state where {@code location} says: an H2 state folder ({@link #open(Path)}), or a
     * PostgreSQL database (migrated under an advisory lock; run logs in the location's local folder).
     */
    public static Database open(StateLocation location) {
        return open(location, true);
    }

    /**
     * As {@link #open(StateLocation)}; {@code compactOnClose} false for a process that only reads (a
     * one-shot {@code status}, {@code jobs}): H2 then does not spend up to {@code MAX_COMPACT_TIME} (200 ms
     * by default, and the CPU to plan it) compacting the file when the process closes it. A process that
     * writes compacts as before, so the file is still compacted by the next run (issue 14, CLI latency).
     * It applies when this process is the one that opens the file (not when another serves it).
     */
    public static Database open(StateLocation location, boolean compactOnClose) {
        if (location instanceof StateLocation.Postgres p) {
            return new Database(PostgresDatabase.open(p));
        }
        return open(location.localDir(), compactOnClose);
    }

    /** Which database this is. */
    public Dialect dialect() {
        return pg == null ? Dialect.H2 : Dialect.POSTGRESQL;
    }

    /** The state as messages name it: the folder, or {@code postgresql://host:port/db?user=…} (no password). */
    public String where() {
        return pg == null ? stateDir.toString() : pg.where().display();
    }

    /** The PostgreSQL side of this state, or {@code null} (H2). */
    PostgresDatabase postgres() {
        return pg;
    }

    /** A clear message for a failed statement (PostgreSQL: who, where and what to do), or {@code null}. */
    String describeFailure(SQLException e) {
        return pg == null ? null : pg.describe(e);
    }

    /**
     * Keys or workers were changed by this process: on PostgreSQL, consoles that listen hear about it
     * (one announcement for the changes of 200 ms). Nothing on H2 (consoles poll).
     */
    public void touched() {
        if (pg != null) {
            pg.touched();
        }
    }

    /**
     * Calls {@code onChange} on a thread of its own when any process announces a change (PostgreSQL
     * {@code LISTEN}); on H2 there is nothing to listen to and the handle does nothing.
     */
    public AutoCloseable listen(Runnable onChange) {
        return pg == null ? () -> { } : pg.listen(onChange);
    }

    static {
        // before any H2 class reads its settings: AUTO_SERVER on loopback, no Java classes or objects by name
        H2Lockdown.apply();
    }

    /**
     * Opens (creating if needed) {@code stateDir/keyline.mv.db} and migrates it to the current schema.
     *
     * <p>The state folder is the operator's alone (SPEC §8): created 0700, its files 0600 (tightened on
     * every open, H2's own files included), and refused when others can write it. The database has a
     * random password per state ({@link DatabasePasswords}, in the folder); a state from before
     * passwords is given one here. Migrations run as the admin user; the returned connections are the
     * non-admin user's, who can read and write the tables and nothing else.
     */
    public static Database open(Path stateDir) {
        return open(stateDir, true);
    }

    /** As {@link #open(Path)}, compacting the file on close or not ({@link #open(StateLocation, boolean)}). */
    public static Database open(Path stateDir, boolean compactOnClose) {
        return open(stateDir, compactOnClose, false);
    }

    /**
     * Opens the state for a one-shot command that only reads and then ends ({@code status}, {@code jobs},
     * {@code timeline}): when another process has the state open, through that process as {@link #open}
     * does; when none has, this process opens the H2 file alone, without the AUTO_SERVER that would let
     * others in through it (starting that server - a TCP listener and an in-memory management database -
     * was 8 % of a {@code status} in B9's {@code cli.status_served_to_alone}, issue 14). Until {@link #close} this process holds the
     * open lock, so a process that opens the state meanwhile waits for it (it does not fail): the caller
     * must close the state as soon as it has read what it needs, before it writes to a pipe that may
     * block. The file is not compacted on close. A PostgreSQL state opens as {@code open(location, false)}.
     */
    public static Database openToRead(StateLocation location) {
        if (location instanceof StateLocation.Postgres) {
            return open(location, false);
        }
        return open(location.localDir(), false, true);
    }

    /**
     * For a one-shot {@code status} in its own process: the copy of what the last such {@code status} read
     * ({@link ReadSnapshot}), when this process has the state to itself (the open lock taken as an open
     * takes it, no other process in), the file was closed cleanly and has not changed since the copy was
     * made; {@code null} otherwise, and the caller opens the state ({@link #openToRead}). The folder is
     * checked as an open checks it. {@code -Dkeyline.state.readCopy=false} turns the copy off (B9 compares).
     */
    public static ReadSnapshot.Data readCopy(StateLocation location) {
        if (!(location instanceof StateLocation.Folder) || !readCopies()) {
            return null;
        }
        Path dir = location.localDir().toAbsolutePath().normalize();
        if (!Files.isRegularFile(ReadSnapshot.file(dir)) || ALONE_HERE.contains(dir)
                || Boolean.getBoolean("keyline.state.checkIndexes")) {
            return null;
        }
        java.util.concurrent.Semaphore opening = opening(dir);
        opening.acquireUninterruptibly();
        try {
            PrivateFiles.ensurePrivateDirectory(dir);
            // the passwords file as the open reads it: one that others can read, or a missing one, is the
            // open's to report
            if (!Files.isWritable(dir) || DatabasePasswords.read(dir) == null) {
                return null;
            }
            try (FileChannel ch = PrivateFiles.open(dir.resolve("keyline.open.lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE)) {
                OpenLock.take(ch, dir); // a wait that gives up is the command's answer: not waited for twice
                boolean nobody = Users.join(dir);
                try {
                    io.keyline.core.StartupTrace.mark("state folder checked and locked" + (nobody ? " (alone)" : ""));
                    return nobody && !IndexCheck.due(dir) ? ReadSnapshot.readIfCurrent(dir) : null;
                } finally {
                    Users.leave(dir);
                }
            }
        } catch (StateUnavailableException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            return null; // the open that follows says what is wrong
        } finally {
            opening.release();
        }
    }

    /** Whether one-shot readers keep and use copies ({@link ReadSnapshot}); {@code -Dkeyline.state.readCopy=false}: not. */
    private static boolean readCopies() {
        return !"false".equalsIgnoreCase(System.getProperty("keyline.state.readCopy"));
    }

    /**
     * Keeps a copy of what this one-shot reader read ({@link ReadSnapshot}) for the next one: written by
     * {@link #close} once H2 has closed the file, before the open lock is let go. Only a reader that opened
     * the file alone keeps one; nothing when a key is RUNNING.
     */
    public void keepReadCopy(ReadSnapshot.Data d) {
        if (keepsReadCopy() && d.keepable()) {
            copyOnClose = d;
        }
    }

    /** Whether {@link #keepReadCopy} would keep one: the caller need not gather what goes in it otherwise. */
    public boolean keepsReadCopy() {
        return alone() && readOnlyQuick && readCopies();
    }

    /**
     * Opened by {@link #openToReadQuickly}: read-only, with nothing left half-committed. Only such a reader keeps
     * a copy (one that opened the file read-write after a failed repair could have read rows as before a commit).
     */
    private boolean readOnlyQuick;

    private volatile ReadSnapshot.Data copyOnClose;

    /** Whether this process opened the file alone ({@link #openToRead}), holding the open lock until close. */
    public boolean alone() {
        return heldOpenLock != null;
    }

    private static Database open(Path stateDir, boolean compactOnClose, boolean toRead) {
        Path dir = stateDir.toAbsolutePath().normalize();
        refuseUrlSyntax(dir);
        try {
            PrivateFiles.ensurePrivateDirectory(dir);
        } catch (PrivateFiles.NotPrivateException e) {
            throw new StateUnavailableException(e.getMessage(), e);
        } catch (AccessDeniedException e) {
            throw new StateUnavailableException("cannot create state folder " + dir + ": permission denied", e);
        } catch (IOException e) {
            String full = diskFull(dir, e);
            throw new StateUnavailableException(full != null ? full : "cannot create state folder " + dir + ": "
                    + e.getMessage(), e);
        }
        if (!Files.isWritable(dir)) {
            throw new StateUnavailableException("state folder " + dir + " is not writable", null);
        }
        String lockdown = H2Lockdown.problem();
        if (lockdown != null) {
            throw new IllegalStateException("H2 was initialised before Keyline could restrict it (" + lockdown
                    + "): call H2Lockdown.apply() first");
        }
        // Opening and migrating is serialized across processes (and threads) by a lock file: two
        // processes migrating at once would both create the tables, and H2 commits DDL at once.
        // A reader that opened the file alone keeps both until it closes it (openToRead).
        if (ALONE_HERE.contains(dir)) {
            throw new IllegalStateException("this process has the state in " + dir + " open alone to read it: "
                    + "close that first (it would wait for itself)");
        }
        java.util.concurrent.Semaphore opening = opening(dir);
        opening.acquireUninterruptibly();
        FileChannel ch = null;
        try {
            ch = PrivateFiles.open(dir.resolve("keyline.open.lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            OpenLock.take(ch, dir); // waits for another process, says for whom, gives up in the end
            boolean nobody = Users.join(dir);
            boolean alone = nobody && toRead;
            io.keyline.core.StartupTrace.mark("state folder checked and locked" + (alone ? " (alone)" : ""));
            try {
                Database db = openLocked(dir, compactOnClose, alone, nobody);
                if (alone) {
                    db.heldOpening = opening;
                    db.heldOpenLock = ch;
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
            String full = diskFull(dir, e);
            throw new StateUnavailableException(full != null ? full : "cannot lock "
                    + dir.resolve("keyline.open.lock") + ": " + e.getMessage(), e);
        } finally {
            closeQuietly(ch); // closing the channel releases its lock
            if (opening != null) {
                opening.release();
            }
        }
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

    /** The logger, made on first use: java.util.logging's set-up is not part of a one-shot command that logs nothing. */
    private static final class Log {
        static final Logger LOG = Logger.getLogger(Database.class.getName());
    }

    /** State folders this JVM has open alone ({@link #openToRead}). */
    private static final java.util.Set<Path> ALONE_HERE = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** The open lock of a reader that opened the file alone ({@link #openToRead}), released at close. */
    private volatile FileChannel heldOpenLock;
    private java.util.concurrent.Semaphore heldOpening;

    /**
     * A state path is a path: H2 would read {@code ;} in it as the start of its URL settings (and
     * {@code INIT=...} there as SQL to run on every connection), so such a path is refused.
     */
    static void refuseUrlSyntax(Path dir) {
        String s = dir.toString();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ';') {
                throw new StateUnavailableException("the state path " + s + " contains \";\", which the database "
                        + "would read as the start of its settings: choose a folder whose path has no \";\"", null);
            }
            if (Character.isISOControl(c)) {
                throw new StateUnavailableException("the state path " + io.keyline.domain.Printable.line(s)
                        + " contains a control character: choose a folder whose path has none", null);
            }
        }
    }

    /**
     * Opens of one state folder in this JVM, one at a time (the open lock is the OS's, which does not
     * serialize threads of one process). A semaphore, not a monitor: a reader that opened the file alone
     * gives it back at close, possibly on another thread.
     */
    private static final java.util.Map<Path, java.util.concurrent.Semaphore> OPENING =
            new java.util.concurrent.ConcurrentHashMap<>();

    private static java.util.concurrent.Semaphore opening(Path dir) {
        return OPENING.computeIfAbsent(dir, d -> new java.util.concurrent.Semaphore(1));
    }

    /**
     * @param nobody no other process had the state open: this one opens the file itself, and a file that
     *               was not closed cleanly was left so by a process that died (its indexes are checked)
     */
    private static Database openLocked(Path dir, boolean compactOnClose, boolean alone, boolean nobody) {
        String url = url(dir, alone) + (compactOnClose ? "" : ";MAX_COMPACT_TIME=0");
        Path file = dir.resolve("keyline.mv.db");
        // -Dkeyline.state.checkIndexes=true: check them now (a state that a crash left so, then closed cleanly)
        boolean afterCrash = nobody && (IndexCheck.due(dir)
                || Boolean.getBoolean("keyline.state.checkIndexes") && Files.isRegularFile(file));
        if (alone && !afterCrash) {
            Database quick = openToReadQuickly(dir, url, file);
            if (quick != null) {
                return quick;
            }
        }
        // a read-write open changes the file: the copy of the last status would not be used again (ReadSnapshot)
        ReadSnapshot.forget(dir);
        for (int attempt = 1; ; attempt++) {
            // before H2 opens the file: find commits its quick recovery would skip after a killed process
            Recovery.repairIfUnclean(file);
            DatabasePasswords pw;
            try {
                pw = unlock(dir, url);
            } catch (SQLException e) {
                if (serverWentAway(e) && attempt < 5) {
                    continue;
                }
                throw new StateUnavailableException(describe(dir, e), e);
            } catch (IOException e) {
                String full = diskFull(dir, e);
                throw new StateUnavailableException(full != null ? full : "cannot read or write "
                        + DatabasePasswords.file(dir) + ": " + e.getMessage(), e);
            }
            JdbcConnectionPool admin = JdbcConnectionPool.create(url, DatabasePasswords.ADMIN_USER, pw.admin());
            admin.setMaxConnections(4);
            H2Pool app = null;
            try {
                try {
                    try (Connection c = connect(admin)) {
                        c.isValid(1);
                    }
                } catch (SQLException e) {
                    if (!wrongPassword(e)) {
                        throw e;
                    }
                    // a process killed between writing the passwords file and changing the database
                    fromEmptyPassword(dir, url, pw);
                    try (Connection c = connect(admin)) {
                        c.isValid(1);
                    }
                }
                io.keyline.core.StartupTrace.mark("H2 opened the state file");
                migrate(admin);
                io.keyline.core.StartupTrace.mark("schema checked");
                if (afterCrash) {
                    try (Connection c = connect(admin)) {
                        // half-committed transactions first: an index is rebuilt from the rows as committed
                        LeftoverTransactions.finishOnFirstOpen(c, dir);
                        IndexCheck.repairPending(c, dir);
                    }
                }
                ensureAppUser(admin, pw);
                app = appPool(dir, pw, alone);
                // the app's first connection keeps the database open while the admin's closes
                Connection first;
                try {
                    first = app.connection();
                } catch (SQLException e) {
                    if (!wrongPassword(e)) {
                        throw e;
                    }
                    resetAppPassword(admin, pw);
                    first = app.connection();
                }
                try (Connection c = first) {
                    admin.dispose();
                    c.isValid(1);
                    if (!alone) { // a reader that ends in a moment has nothing to keep tidy
                        Housekeeping.startIfOpener(c);
                    }
                }
                tightenFiles(dir);
                io.keyline.core.StartupTrace.mark("state open");
                return new Database(app, dir, url, pw);
            } catch (SQLException | FlywayException e) {
                admin.dispose();
                if (app != null) {
                    app.close();
                }
                if (serverWentAway(e) && attempt < 5) {
                    continue;
                }
                if (e instanceof SQLException s) {
                    throw new StateUnavailableException(describe(dir, s), e);
                }
                String full = diskFull(dir, e);
                throw new StateUnavailableException(full != null ? full : "cannot migrate the state in " + dir + ": "
                        + firstLine(e.getMessage()), e);
            } catch (IOException e) {
                admin.dispose();
                if (app != null) {
                    app.close();
                }
                String full = diskFull(dir, e);
                throw new StateUnavailableException(full != null ? full : "cannot open the state in " + dir + ": "
                        + e.getMessage(), e);
            } catch (RuntimeException | Error e) {
                // no session of a failed open may keep H2's file open once the open lock is let go
                admin.dispose();
                if (app != null) {
                    app.close();
                }
                throw e;
            }
        }
    }

    /**
     * A lone reader's open ({@link #openToRead} with nobody else in, on a file that was closed cleanly): the
     * app user's session only - no admin session, no check of the users - when the passwords file opens it
     * and the schema is current; {@code null} when anything is not so (a new or old state, a restored
     * passwords file, missing rights), and the full open does what it does. Half of what a one-shot
     * {@code status} spent opening the state was the admin's pool, its session and the user checks on
     * {@code information_schema} (issue 14).
     */
    private static Database openToReadQuickly(Path dir, String url, Path file) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        DatabasePasswords pw; // the file was closed cleanly (IndexCheck.due): Recovery has nothing to find
        try {
            pw = DatabasePasswords.read(dir);
        } catch (IOException e) {
            return null; // the full open says what is wrong
        }
        if (pw == null) {
            return null;
        }
        // read-only: the file is not written at all (a read-write open rewrites part of it when it closes it),
        // so a reader leaves the state file as it was and the copy of the last status stays good (ReadSnapshot);
        // a half-committed transaction that would have to be finished fails the first connection: the full open
        H2Pool app = new H2Pool(dataSource(appUrl(dir, true) + ";ACCESS_MODE_DATA=r", DatabasePasswords.APP_USER,
                pw.app()), 16, 30_000, LeftoverTransactions::refuseIfAnyLeft);
        try {
            boolean current;
            try (Connection c = app.connection()) {
                io.keyline.core.StartupTrace.mark("H2 opened the state file");
                current = Migrations.current(c, Migrations.COMMON);
            }
            if (!current) {
                app.close();
                return null;
            }
            io.keyline.core.StartupTrace.mark("schema checked");
            tightenFiles(dir);
            io.keyline.core.StartupTrace.mark("state open");
            Database db = new Database(app, dir, url, pw);
            db.readOnlyQuick = true;
            return db;
        } catch (SQLException | IOException | RuntimeException e) {
            app.close();
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

    static String url(Path dir) {
        return url(dir, false);
    }

    /** The admin's URL; {@code alone}: without AUTO_SERVER (H2 then locks the file with the OS's lock). */
    private static String url(Path dir, boolean alone) {
        return "jdbc:h2:file:" + dir.resolve("keyline") + (alone ? withoutServer(SETTINGS) : SETTINGS);
    }

    static String appUrl(Path dir) {
        return appUrl(dir, false);
    }

    private static String appUrl(Path dir, boolean alone) {
        return "jdbc:h2:file:" + dir.resolve("keyline") + (alone ? withoutServer(APP_SETTINGS) : APP_SETTINGS);
    }

    private static String withoutServer(String settings) {
        return settings.replace(";AUTO_SERVER=TRUE", "");
    }

    /**
     * The state's passwords, set up where they are missing: a new state gets a passwords file before
     * its database exists; a state from before passwords is given them ({@link #fromEmptyPassword}).
     * An existing file is not checked here: the admin pool's first connection does that.
     */
    private static DatabasePasswords unlock(Path dir, String url) throws SQLException, IOException {
        DatabasePasswords pw = DatabasePasswords.read(dir);
        if (pw != null) {
            return pw;
        }
        if (!Files.exists(dir.resolve("keyline.mv.db"))) {
            pw = DatabasePasswords.generate();
            pw.write(dir);
            return pw;
        }
        return fromEmptyPassword(dir, url, null);
    }

    /**
     * A database that still has the empty password (a state from before passwords, or one whose
     * passwords file was written by a process killed before it changed the database): the file is
     * written (atomically) before the password is changed, so a crash in between loses nothing - the
     * next open finds the file, the empty password still works, and the change is made then.
     *
     * @param pw the passwords from the file, or {@code null} when there is no file yet
     */
    private static DatabasePasswords fromEmptyPassword(Path dir, String url, DatabasePasswords pw)
            throws SQLException, IOException {
        Connection legacy;
        try {
            legacy = connect(dataSource(url, DatabasePasswords.ADMIN_USER, ""));
        } catch (SQLException e) {
            if (!wrongPassword(e)) {
                throw e;
            }
            throw new SQLException(pw == null
                    ? "the database in " + dir + " has a password, but its passwords file " + DatabasePasswords.file(dir)
                            + " is missing: restore that file from the backup of this state folder"
                    : "the passwords in " + DatabasePasswords.file(dir) + " do not open the database in " + dir
                            + " (the file was replaced?): restore it from the backup of this state folder",
                    "28000", ErrorCode.WRONG_USER_OR_PASSWORD);
        }
        DatabasePasswords passwords = pw;
        try (legacy; Statement st = legacy.createStatement()) {
            if (passwords == null) {
                passwords = DatabasePasswords.generate();
                passwords.write(dir);
            }
            st.execute("ALTER USER " + DatabasePasswords.ADMIN_USER + " SET PASSWORD " + literal(passwords.admin()));
        }
        return passwords;
    }

    /**
     * Creates the non-admin user (table rights only) where it is missing. Each part is checked, so a
     * process killed between two of these statements leaves nothing the next open does not finish (a
     * password that does not match the file is reset when the first connection fails: resetAppPassword).
     */
    private static void ensureAppUser(JdbcConnectionPool admin, DatabasePasswords pw) throws SQLException {
        try (Connection c = connect(admin); Statement st = c.createStatement()) {
            boolean exists = count(c, "SELECT COUNT(*) FROM information_schema.users WHERE UPPER(user_name) = UPPER(?)") > 0;
            if (!exists) {
                st.execute("CREATE USER IF NOT EXISTS " + DatabasePasswords.APP_USER + " PASSWORD " + literal(pw.app()));
            }
            if (count(c, "SELECT COUNT(*) FROM information_schema.rights WHERE UPPER(grantee) = UPPER(?)") == 0) {
                // on the schema: the tables of later migrations are covered too
                st.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON SCHEMA public TO " + DatabasePasswords.APP_USER);
            }
        }
    }

    /** Gives the non-admin user the password of the file (when the file was restored or replaced). */
    private static void resetAppPassword(JdbcConnectionPool admin, DatabasePasswords pw) throws SQLException {
        try (Connection c = connect(admin); Statement st = c.createStatement()) {
            st.execute("ALTER USER " + DatabasePasswords.APP_USER + " SET PASSWORD " + literal(pw.app()));
        }
    }

    private static int count(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, DatabasePasswords.APP_USER);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static boolean wrongPassword(SQLException e) {
        return e.getErrorCode() == ErrorCode.WRONG_USER_OR_PASSWORD;
    }

    /** A password as an SQL string literal (generated passwords are base64url: nothing to escape). */
    private static String literal(String password) {
        if (!password.matches("[A-Za-z0-9_-]+")) {
            throw new IllegalArgumentException("a database password must be base64url text");
        }
        return "'" + password + "'";
    }

    /**
     * The app user's sessions: up to 16, waiting up to 30 s for one to be free (as H2's pool did). A new
     * session may be the first of this JVM on a file it opens itself - at {@link #open}, at a takeover after
     * the serving process died, or when the driver opens the file behind a broken pool (AUTO_SERVER tries
     * embedded first) - so each new one looks for half-committed leftovers (once per store: a set lookup
     * after that).
     */
    private static H2Pool appPool(Path dir, DatabasePasswords pw, boolean alone) {
        return new H2Pool(dataSource(appUrl(dir, alone), DatabasePasswords.APP_USER, pw.app()), 16, 30_000,
                c -> LeftoverTransactions.finishOnFirstOpen(c, dir));
    }

    private static JdbcDataSource dataSource(String url, String user, String password) {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL(url);
        ds.setUser(user);
        ds.setPassword(password);
        return ds;
    }

    /**
     * Every file of the state folder (H2's included) 0600, every folder 0700 - except the key files,
     * which their readers refuse when others can read them ({@code secret.key}, {@code database.secret}).
     */
    private static void tightenFiles(Path dir) throws IOException {
        PrivateFiles.tightenContents(dir, 1, java.util.Set.of("secret.key", DatabasePasswords.FILE_NAME));
    }

    /**
     * Migrates to the current schema. The migrations are idempotent ({@code IF NOT EXISTS}), so a
     * migration that a killed process left half done is repaired and run again.
     */
    private static void migrate(JdbcConnectionPool pool) throws SQLException {
        try (Connection c = connect(pool)) {
            if (Migrations.current(c, Migrations.COMMON)) {
                return;
            }
        }
        Migrations.FLYWAY_RUNS.incrementAndGet();
        Flyway flyway = Flyway.configure()
                .dataSource(new PatientDataSource(pool))
                .locations("classpath:db/migration")
                // Tables without a history table can only be a first migration cut short (the history
                // table may not have been written yet): start the history at 0 and run every migration.
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .loggers("slf4j")
                .load();
        try {
            flyway.migrate();
        } catch (FlywayException e) {
            if (serverWentAway(e)) {
                throw e;
            }
            flyway.repair();
            flyway.migrate();
        }
    }

    /** The process that served the database over AUTO_SERVER exited while we talked to it. */
    static boolean serverWentAway(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && (s.getErrorCode() == ErrorCode.CONNECTION_BROKEN_1
                    || s.getErrorCode() == ErrorCode.DATABASE_CALLED_AT_SHUTDOWN)) {
                return true;
            }
            if (t.getMessage() != null && t.getMessage().contains("Connection is broken")) {
                return true;
            }
        }
        return false;
    }

    /** How long to wait for another process that is opening the same state at the same moment. */
    static final Duration OPEN_PATIENCE = Duration.ofSeconds(30);

    /**
     * A connection from the pool. With AUTO_SERVER every new physical connection goes through H2's
     * lock-file protocol; while another process is opening the same state (it holds the lock file
     * but has not published its server address yet) H2 answers "Locked by another process" or
     * "Lock file recently modified". That is transient: wait and try again instead of failing.
     */
    static Connection connect(DataSource pool) throws SQLException {
        long deadline = System.nanoTime() + OPEN_PATIENCE.toNanos();
        while (true) {
            try {
                return pool.getConnection();
            } catch (SQLException e) {
                if (!lockRace(e) || System.nanoTime() > deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(100 + ThreadLocalRandom.current().nextInt(200));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    static boolean lockRace(SQLException e) {
        String msg = e.getMessage() == null ? "" : e.getMessage();
        return e.getErrorCode() == ErrorCode.DATABASE_ALREADY_OPEN_1
                || msg.contains("Lock file recently modified") || msg.contains("Another process was faster");
    }

    /** The pool with {@link #connect}'s patience, for Flyway. */
    private static final class PatientDataSource implements DataSource {
        private final JdbcConnectionPool pool;

        PatientDataSource(JdbcConnectionPool pool) {
            this.pool = pool;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return connect(pool);
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return connect(pool);
        }

        @Override
        public PrintWriter getLogWriter() throws SQLException {
            return pool.getLogWriter();
        }

        @Override
        public void setLogWriter(PrintWriter out) throws SQLException {
            pool.setLogWriter(out);
        }

        @Override
        public void setLoginTimeout(int seconds) throws SQLException {
            pool.setLoginTimeout(seconds);
        }

        @Override
        public int getLoginTimeout() throws SQLException {
            return pool.getLoginTimeout();
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getLogger("org.h2");
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            return pool.unwrap(iface);
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) throws SQLException {
            return pool.isWrapperFor(iface);
        }
    }

    private static String describe(Path dir, SQLException e) {
        String msg = firstLine(e.getMessage());
        String full = diskFull(dir, e);
        if (full != null) {
            return full;
        }
        if ((e.getErrorCode() == ErrorCode.IO_EXCEPTION_1 || e.getErrorCode() == ErrorCode.IO_EXCEPTION_2) && Files.isRegularFile(dir.resolve("keyline.mv.db"))
                && causedBy(e, java.io.EOFException.class)) {
            // H2 read past the end of the file: truncated, or not an H2 file at all
            return "the state file " + dir.resolve("keyline.mv.db") + " is unreadable (corrupt, truncated or not a "
                    + "Keyline state): it ends before the data it describes - restore it from a backup "
                    + "(SCRIPT/BACKUP) or move it aside";
        }
        if (msg.contains("Database may be already in use") || msg.contains("locked")) {
            return "the state in " + dir + " is locked by another process and could not be shared: " + msg;
        }
        if (msg.contains("File corrupted") || msg.contains("is not a valid") || msg.contains("Unsupported")) {
            return "the state file " + dir.resolve("keyline.mv.db") + " is unreadable (corrupt or not a Keyline state): "
                    + msg + " - restore it from a backup (SCRIPT/BACKUP) or move it aside";
        }
        return "cannot open the state in " + dir + ": " + msg;
    }

    /**
     * A clear message when opening failed because the disk holding the state is full (H2 only says
     * "Could not save properties" or "Writing to ... failed"), else null.
     */
    public static String diskFull(Path dir, Throwable e) {
        boolean noSpace = false;
        noSpace = mentionsNoSpace(e, 0);
        if (!noSpace) {
            return null;
        }
        String free = "";
        try {
            free = ", " + Files.getFileStore(dir).getUsableSpace() / 1024 + " KiB free";
        } catch (IOException | RuntimeException ignored) {
            // the message is clear without the figure
        }
        return "the disk that holds the state in " + dir + " is full (No space left on device" + free
                + "): free some space and run again (nothing committed is lost; a key cut short resumes)";
    }

    private static boolean mentionsNoSpace(Throwable t, int depth) {
        if (t == null || depth > 12) {
            return false;
        }
        if (t.getMessage() != null && t.getMessage().contains("No space left on device")) {
            return true;
        }
        for (Throwable s : t.getSuppressed()) {
            if (mentionsNoSpace(s, depth + 1)) {
                return true;
            }
        }
        return t.getCause() != t && mentionsNoSpace(t.getCause(), depth + 1);
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** A connection of the user that runs jobs: it reads and writes the tables, nothing else. */
    public Connection connection() throws SQLException {
        if (pg != null) {
            return pg.connection();
        }
        return pool.connection();
    }

    /**
     * The process that served the state to us (AUTO_SERVER) is gone: opens it again the way {@link #open}
     * does (under the open lock, repairing what H2's quick recovery would miss), instead of letting the
     * driver reopen the file behind our back (AUTO_RECONNECT is off for that reason). Connections of the
     * old pool fail; callers retry.
     */
    public void serverWentAway() {
        if (pg != null) {
            pg.connectionsLost();
            return;
        }
        H2Pool broken = pool;
        if (alone()) {
            return; // nobody served this process: it has the file itself, there is no server to lose
        }
        java.util.concurrent.Semaphore opening = opening(stateDir);
        opening.acquireUninterruptibly();
        try {
            if (pool != broken) {
                return;
            }
            try (FileChannel ch = PrivateFiles.open(stateDir.resolve("keyline.open.lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); FileLock lock = OpenLock.take(ch, stateDir)) {
                // before anything opens it: whether the process that served it left it cleanly
                boolean check = IndexCheck.due(stateDir);
                Recovery.repairIfUnclean(stateDir.resolve("keyline.mv.db"));
                H2Pool fresh = appPool(stateDir, passwords, false);
                try (Connection c = fresh.connection()) {
                    c.isValid(1);
                    if (check && LeftoverTransactions.embedded(c)) {
                        // this process took the file over from one that died: check its indexes as an open does
                        try (Connection a = dataSource(url(stateDir), DatabasePasswords.ADMIN_USER, passwords.admin())
                                .getConnection()) {
                            IndexCheck.repairPending(a, stateDir);
                        }
                    }
                    Housekeeping.startIfOpener(c);
                } catch (SQLException e) {
                    fresh.close();
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
                throw new StateUnavailableException("cannot lock " + stateDir.resolve("keyline.open.lock") + ": "
                        + e.getMessage(), e);
            } finally {
                broken.close();
            }
        } finally {
            opening.release();
        }
    }

    /**
     * Makes every commit so far durable (H2 writes what it holds and forces the file: CHECKPOINT SYNC),
     * after the "step started" of an unsafe step and before its request leaves. Needs admin rights: a
     * small pool of its own, used for nothing else.
     *
     * <p>[issue 14] Group sync: keys running side by side that ask at once share one checkpoint. A
     * caller's commit is done before it asks; a checkpoint that starts after its request was counted
     * writes that commit too, so a caller returns without its own checkpoint only when such a later
     * checkpoint has finished. A checkpoint that fails covers no one: each waiting caller tries its own.
     */
    public void sync() {
        if (pg != null) {
            // PostgreSQL's commit returned after the WAL was flushed (synchronous_commit=on): already durable
            return;
        }
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

    private final java.util.concurrent.atomic.AtomicLong syncRequested = new java.util.concurrent.atomic.AtomicLong();
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
                syncPool = JdbcConnectionPool.create(url, DatabasePasswords.ADMIN_USER, passwords.admin());
                syncPool.setMaxConnections(2);
            }
            p = syncPool;
        }
        try (Connection c = connect(p); Statement st = c.createStatement()) {
            st.execute("CHECKPOINT SYNC");
        } catch (SQLException e) {
            throw new StateUnavailableException("cannot make the state durable in " + stateDir + ": "
                    + firstLine(e.getMessage()), e);
        }
    }

    /**
     * A connection with admin rights, for maintenance that needs them ({@code BACKUP TO},
     * {@code SCRIPT TO}); never for running jobs or serving the console.
     */
    public Connection adminConnection() throws SQLException {
        if (pg != null) {
            return pg.connection();
        }
        return connect(dataSource(url, DatabasePasswords.ADMIN_USER, passwords.admin()));
    }

    /**
     * What the state housekeeping (fsync and compaction of the H2 file, {@link Housekeeping}) did so far
     * in this process, for bench logs and diagnostics.
     */
    public String housekeepingSummary() {
        try (Connection c = connection()) {
            Housekeeping h = Housekeeping.of(c);
            return h == null ? "not running in this process" : h.summary();
        } catch (SQLException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    /** The local state folder: the whole state (H2), or only the run logs (PostgreSQL). */
    public Path stateDir() {
        return stateDir;
    }

    @Override
    public void close() {
        if (pg != null) {
            pg.close();
            return;
        }
        pool.close();
        synchronized (this) {
            if (syncPool != null) {
                syncPool.dispose();
                syncPool = null;
            }
        }
        Housekeeping.forgetClosed();
        synchronized (this) {
            if (left) {
                return;
            }
            left = true;
        }
        Users.leave(stateDir);
        FileChannel held = heldOpenLock;
        if (held != null) {
            int stillOut = pool.open();
            if (stillOut > 0) {
                // a session still handed out keeps H2's file open: others would find it locked, not wait;
                // the open lock goes when this process ends (a brief reader ends right after closing)
                Log.LOG.warning(() -> "the state in " + stateDir + " was closed with " + stillOut + " session(s) still in "
                        + "use: other processes wait until this one ends");
                return;
            }
            // H2 closed the file with the pool's last session (DB_CLOSE_DELAY 0): the copy is of the file as it
            // is now, and nobody can change it before the open lock goes; others may open it after that
            ReadSnapshot.Data copy = copyOnClose;
            if (copy != null) {
                ReadSnapshot.write(stateDir, copy);
            }
            closeQuietly(held);
            ALONE_HERE.remove(stateDir);
            heldOpening.release();
        }
    }

    /** Whether {@link #close} has let go of the users lock (once per open). */
    private boolean left;

    /**
     * The processes that have the state open hold a shared OS lock on {@code keyline.users.lock} for as
     * long as they have it open; the OS drops it when a process dies, SIGKILL included (issue 14).
     *
     * <p>Why: after a process that had the state open was killed, H2 finds its lock file
     * ({@code keyline.lock.db}) and, not knowing whether its writer is alive, waits until the file is 2 s
     * old and then 2 s more to see that nobody rewrites it: the first command after a SIGKILL took about
     * 3.5 s longer than the others. When the opener (under the open lock) can take the users lock
     * exclusively, no Keyline process has the state open, so H2's lock file is stale and is removed
     * before H2 looks at it. When anyone holds it, H2's own protocol decides, as before.
     */
    static final class Users {
        private static final java.util.Map<Path, Users> HELD = new java.util.HashMap<>();
        private final FileChannel channel;
        private final FileLock shared;
        private int opens = 1;

        private Users(FileChannel channel, FileLock shared) {
            this.channel = channel;
            this.shared = shared;
        }

        /**
         * Called under the open lock, before H2 opens the file. Returns whether no process (this one
         * included) had the state open: nobody can join meanwhile, every opener takes the open lock first.
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
