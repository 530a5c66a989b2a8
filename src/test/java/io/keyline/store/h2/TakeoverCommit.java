package io.keyline.store.h2;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.concurrent.TimeUnit;

/**
 * Child processes for {@code TakeoverCommitTest}. {@code serve STATE FOLDER}: opens the state (and serves it),
 * says "serving" in the folder and closes the state cleanly when "stop" appears there, then exits.
 * {@code take STATE FOLDER NAME}: opens the state while the other process serves it, says "ready" and waits for
 * "go" (the server has closed meanwhile); then takes the file over as the store does when its server is gone
 * ({@link H2Database#reconnect}), commits one row, prints {@code committed} and dies at once without closing the
 * file, as a process killed right after a commit returned.
 */
public final class TakeoverCommit {
    private TakeoverCommit() {
    }

    public static void main(String[] a) throws Exception {
        H2Lockdown.apply();
        Path dir = Path.of(a[2]);
        H2Database db = H2Database.open(Path.of(a[1]));
        if (a[0].equals("serve")) {
            Files.writeString(dir.resolve("serving"), "serving");
            await(dir.resolve("stop"));
            db.close();
            System.exit(0);
        }
        Files.writeString(dir.resolve("ready"), "ready");
        await(dir.resolve("go"));
        db.reconnect();
        try (Connection c = db.connection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO state_setting (name, setting_value, updated_at) VALUES (?, 'x', 0)")) {
            ps.setString(1, a[3]);
            ps.executeUpdate();
        }
        System.out.println("committed");
        System.out.flush();
        Runtime.getRuntime().halt(0); // no close: the file stays as a killed process leaves it
    }

    private static void await(Path file) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(file) && System.nanoTime() < until) {
            Thread.sleep(20);
        }
    }
}
