package io.keyline.store.h2;

import io.keyline.store.Database;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The first command after a SIGKILL took ~3.5 s longer than the others, because H2 found the
 * dead process's lock file and waited it out (until 2 s old, then 2 s more). A state nobody has open
 * now has its stale H2 lock file removed before H2 looks; a state a live process has open is left to
 * H2's own protocol.
 */
class StaleLockTest {

    @TempDir
    Path tmp;

    @Test
    void aLockFileLeftByAKilledProcessIsRemovedAndOneOfALiveProcessIsNot() throws Exception {
        Path state = tmp.resolve("state");
        Path jobs = Files.createDirectories(tmp.resolve("jobs"));
        try (HoldingRun run = HoldingRun.start(state, jobs, tmp)) {
            Path h2Lock = state.resolve("keyline.lock.db");
            assertThat(h2Lock).exists();

            // a live process has the state open: its lock file stays, and we get in through it (AUTO_SERVER)
            int removed = H2Database.Users.staleLocksRemoved.get();
            try (H2Database db = H2Database.open(state)) {
                assertThat(running(db)).isEqualTo(1);
            }
            assertThat(H2Database.Users.staleLocksRemoved.get()).isEqualTo(removed);

            assertThat(run.kill()).as("the run was killed").isTrue();
            assertThat(h2Lock).as("the killed process's lock file").exists();

            long t0 = System.nanoTime();
            try (H2Database db = H2Database.open(state)) {
                long ms = (System.nanoTime() - t0) / 1_000_000;
                System.out.println("MEASURED open after SIGKILL: " + ms + " ms");
                assertThat(running(db)).as("the killed run's key is still there").isEqualTo(1);
            }
            assertThat(H2Database.Users.staleLocksRemoved.get()).as("the stale lock was removed").isEqualTo(removed + 1);
        }
    }

    private static int running(Database db) throws Exception {
        try (Connection c = db.connection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM key_state WHERE job = 'slow' AND state = 'RUNNING'")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
