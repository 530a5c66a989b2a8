package io.keyline.store.h2;

import io.keyline.core.PrivateFiles;
import org.h2.api.ErrorCode;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.Properties;

/**
 * The random passwords of a state's database, kept in {@code STATE/database.secret} (0600, in the
 * 0700 state folder): {@code admin} for the owner user {@code keyline} (migrations, backups) and
 * {@code app} for {@code keyline_app}, the user that runs jobs, which may read and write the tables
 * and nothing else. A process that cannot read the state folder cannot pass them, so it cannot use
 * the AUTO_SERVER port even when it finds it.
 *
 * @param admin password of {@value #ADMIN_USER}
 * @param app   password of {@value #APP_USER}
 */
public record DatabasePasswords(String admin, String app) {

    public static final String FILE_NAME = "database.secret";
    /** The owner (admin) user; migrations run as it. Keyline's states have always had it. */
    public static final String ADMIN_USER = "keyline";
    /** The user job runs, the console and the CLI work as: table rights only (no admin rights). */
    public static final String APP_USER = "keyline_app";

    /** Made on first use: seeding it is not part of opening a state that has its passwords. */
    private static final class Random {
        static final SecureRandom RANDOM = new SecureRandom();
    }

    /** New random passwords (32 bytes each). */
    static DatabasePasswords generate() {
        return new DatabasePasswords(random(), random());
    }

    private static String random() {
        byte[] b = new byte[32];
        Random.RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** The passwords file of a state folder. */
    public static Path file(Path stateDir) {
        return stateDir.resolve(FILE_NAME);
    }

    /**
     * Reads the passwords of a state, or {@code null} when it has no passwords file yet.
     *
     * @throws IOException when the file cannot be read or is malformed (the message names it)
     */
    public static DatabasePasswords read(Path stateDir) throws IOException {
        Path f = file(stateDir);
        if (!Files.exists(f)) {
            return null;
        }
        if (Files.getFileStore(f).supportsFileAttributeView(java.nio.file.attribute.PosixFileAttributeView.class)) {
            var mode = Files.getPosixFilePermissions(f);
            if (mode.stream().anyMatch(p -> p.name().startsWith("GROUP_") || p.name().startsWith("OTHERS_"))) {
                throw new PrivateFiles.NotPrivateException(io.keyline.text.Said.of("core.store.passwords.open",
                        f.toString(), PrivateFiles.octal(mode)));
            }
        }
        if (Files.size(f) > 4096) {
            throw new IOException(f + " is not a Keyline passwords file (larger than 4 KiB)");
        }
        Properties p = new Properties();
        p.load(new StringReader(Files.readString(f, StandardCharsets.ISO_8859_1)));
        String admin = p.getProperty("admin");
        String app = p.getProperty("app");
        if (admin == null || admin.isBlank() || app == null || app.isBlank()) {
            throw new IOException(f + " is damaged (it must hold the lines admin=... and app=...): restore it from "
                    + "the backup of this state folder");
        }
        return new DatabasePasswords(admin.strip(), app.strip());
    }

    /** Writes the passwords file atomically (0600): a crash leaves the old file or the new one. */
    void write(Path stateDir) throws IOException {
        String text = "# Passwords of the database in this folder (users " + ADMIN_USER + " and " + APP_USER + ").\n"
                + "# Keep this file with the state (0600): without it the state cannot be opened.\n"
                + "admin=" + admin + "\napp=" + app + "\n";
        PrivateFiles.writeAtomically(file(stateDir), text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * The state's passwords, set up where they are missing: a new state gets a passwords file before its database
     * exists; a state from before passwords is given them ({@link #fromEmptyPassword}). An existing file is not
     * checked here: the admin's first session does that.
     */
    static DatabasePasswords unlock(Path dir, String url) throws SQLException, IOException {
        DatabasePasswords pw = read(dir);
        if (pw != null) {
            return pw;
        }
        if (!Files.exists(dir.resolve("keyline.mv.db"))) {
            pw = generate();
            pw.write(dir);
            return pw;
        }
        return fromEmptyPassword(dir, url, null);
    }

    /**
     * A database that still has the empty password (a state from before passwords, or one whose passwords file was
     * written by a process killed before it changed the database): the file is written (atomically) before the
     * password is changed, so a crash in between loses nothing - the next open finds the file, the empty password
     * still works, and the change is made then.
     *
     * @param pw the passwords from the file, or {@code null} when there is no file yet
     */
    static DatabasePasswords fromEmptyPassword(Path dir, String url, DatabasePasswords pw)
            throws SQLException, IOException {
        Connection legacy;
        try {
            legacy = Sessions.connect(url, ADMIN_USER, "");
        } catch (SQLException e) {
            if (!wrong(e)) {
                throw e;
            }
            throw new SQLException(pw == null
                    ? "the database in " + dir + " has a password, but its passwords file " + file(dir)
                            + " is missing: restore that file from the backup of this state folder"
                    : "the passwords in " + file(dir) + " do not open the database in " + dir
                            + " (the file was replaced?): restore it from the backup of this state folder",
                    "28000", ErrorCode.WRONG_USER_OR_PASSWORD);
        }
        DatabasePasswords passwords = pw;
        try (legacy; Statement st = legacy.createStatement()) {
            if (passwords == null) {
                passwords = generate();
                passwords.write(dir);
            }
            st.execute("ALTER USER " + ADMIN_USER + " SET PASSWORD " + literal(passwords.admin()));
        }
        return passwords;
    }

    /**
     * Creates the non-admin user (table rights only) where it is missing. Each part is checked, so a process killed
     * between two of these statements leaves nothing the next open does not finish (a password that does not match
     * the file is reset when the first session fails: {@link #resetApp}).
     */
    void ensureAppUser(Connection admin) throws SQLException {
        try (Statement st = admin.createStatement()) {
            if (count(admin, "SELECT COUNT(*) FROM information_schema.users WHERE UPPER(user_name) = UPPER(?)") == 0) {
                st.execute("CREATE USER IF NOT EXISTS " + APP_USER + " PASSWORD " + literal(app));
            }
            if (count(admin, "SELECT COUNT(*) FROM information_schema.rights WHERE UPPER(grantee) = UPPER(?)") == 0) {
                // on the schema: the tables of later migrations are covered too
                st.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON SCHEMA public TO " + APP_USER);
            }
        }
    }

    /** Gives the non-admin user the password of the file (when the file was restored or replaced). */
    void resetApp(Connection admin) throws SQLException {
        try (Statement st = admin.createStatement()) {
            st.execute("ALTER USER " + APP_USER + " SET PASSWORD " + literal(app));
        }
    }

    private static int count(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, APP_USER);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** H2 refused the user or password. */
    static boolean wrong(SQLException e) {
        return e.getErrorCode() == ErrorCode.WRONG_USER_OR_PASSWORD;
    }

    /** A password as an SQL string literal (generated passwords are base64url: nothing to escape). */
    private static String literal(String password) {
        if (!password.matches("[A-Za-z0-9_-]+")) {
            throw new IllegalArgumentException("a database password must be base64url text");
        }
        return "'" + password + "'";
    }

    /** Masks both passwords. */
    @Override
    public String toString() {
        return "DatabasePasswords[admin=***, app=***]";
    }
}
