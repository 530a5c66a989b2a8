package io.keyline.store.h2;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A process that takes the state file over when the process serving it closed it, then commits and is killed:
 * the commit that returned is in the file. H2 sets a database's write delay from the URL of the session that opens
 * the file (500 ms when the URL says nothing), whatever was stored before; the app user's URL cannot say it (it
 * needs admin rights), and a takeover opens the file with that user's session.
 */
class TakeoverCommitTest {

    @TempDir
    Path tmp;

    @Test
    void aCommitThatReturnedAfterATakeoverSurvivesAKillRightAfterIt() throws Exception {
        Path state = tmp.resolve("state");
        Process server = child(tmp.resolve("server.log"), "serve", state.toString(), tmp.toString());
        Process taker = null;
        try {
            await(tmp.resolve("serving"), server, tmp.resolve("server.log"));
            taker = child(tmp.resolve("taker.log"), "take", state.toString(), tmp.toString(), "after-takeover");
            await(tmp.resolve("ready"), taker, tmp.resolve("taker.log"));
            Files.writeString(tmp.resolve("stop"), "stop");
            assertThat(server.waitFor(90, TimeUnit.SECONDS)).as("the server closed the state").isTrue();
            Files.writeString(tmp.resolve("go"), "go");
            assertThat(taker.waitFor(90, TimeUnit.SECONDS)).isTrue();
            assertThat(Files.readString(tmp.resolve("taker.log"))).contains("committed");
        } finally {
            server.destroyForcibly();
            if (taker != null) {
                taker.destroyForcibly();
            }
        }
        try (H2Database db = H2Database.openToRead(state); Connection c = db.connection();
             PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM state_setting WHERE name = ?")) {
            ps.setString(1, "after-takeover");
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getInt(1)).as("the row committed after the takeover, then killed").isEqualTo(1);
            }
        }
    }

    private static Process child(Path log, String... args) throws Exception {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                TakeoverCommit.class.getName()));
        cmd.addAll(java.util.List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        return pb.start();
    }

    private static void await(Path file, Process p, Path log) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!Files.exists(file)) {
            assertThat(p.isAlive() && System.nanoTime() < until).as(Files.exists(log) ? Files.readString(log) : "")
                    .isTrue();
            Thread.sleep(20);
        }
    }
}
