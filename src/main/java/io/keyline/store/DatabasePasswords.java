package io.keyline.store;

import io.keyline.core.PrivateFiles;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
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
                throw new PrivateFiles.NotPrivateException(f + " is accessible to group or others (mode "
                        + PrivateFiles.octal(mode) + "): whoever read it can open the state's database. Run \"chmod 600 "
                        + f + "\"");
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

    /** Masks both passwords. */
    @Override
    public String toString() {
        return "DatabasePasswords[admin=***, app=***]";
    }
}
