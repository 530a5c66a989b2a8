package io.keyline.store.h2;

import io.keyline.store.Database;
import io.keyline.testing.CpuBurn;
import org.h2.mvstore.FileStore;
import org.h2.mvstore.MVStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The state file stays bounded under sustained commits (it grew by gigabytes): the opener
 * forces the file to the disk twice a second, shortens H2's retention and compacts mostly dead chunks.
 */
class CompactionTest {

    @TempDir
    Path tmp;

    private int next;

    /** {@code n} commits of about 2 KB of new data each. */
    private void commits(Connection c, int n) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO state_setting (name, setting_value, updated_at) VALUES (?, ?, ?)")) {
            for (int i = 0; i < n; i++) {
                int k = next++;
                ps.setString(1, "hk-" + k);
                ps.setString(2, (k + "-" + "x".repeat(200)).substring(0, 200));
                ps.setLong(3, k);
                ps.executeUpdate();
            }
        }
    }

    /** {@code n} commits that each rewrite one of 100 rows: the live data stays the same size. */
    private void rewrites(Connection c, int n) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "MERGE INTO state_setting (name, setting_value, updated_at) KEY (name) VALUES (?, ?, ?)")) {
            for (int i = 0; i < n; i++) {
                int k = next++;
                ps.setString(1, "hk-" + (k % 100));
                ps.setString(2, (k + "-" + "x".repeat(200)).substring(0, 200));
                ps.setLong(3, k);
                ps.executeUpdate();
            }
        }
    }

    /** Runs rounds until one finds nothing to sync (at most 50). */
    private static void quiet(Compaction h) {
        for (int i = 0; i < 50; i++) {
            if (!h.round()) {
                return;
            }
        }
        throw new AssertionError("50 rounds and still something to sync: " + h.summary());
    }

    /** What H2 wrote to the file so far (its own counter). */
    private static long writtenBytes(MVStore store) throws Exception {
        Field f = FileStore.class.getDeclaredField("writeBytes");
        f.setAccessible(true);
        return ((AtomicLong) f.get(store.getFileStore())).get();
    }

    private static long size(Path dir) throws Exception {
        return Files.size(dir.resolve("keyline.mv.db"));
    }

    @Test
    void aRoundSyncsOnlyWhatWasWrittenSinceTheLastOneAndTheOpenerShortensTheRetention() throws Exception {
        Path dir = tmp.resolve("state");
        try (H2Database db = H2Database.open(dir); Connection c = db.connection()) {
            MVStore store = Compaction.localStore(c);
            // the opener's thread sets it (and raises it after a slow round, so not exactly)
            assertThat(store.getRetentionTime()).as("retention set by the opener's compaction")
                    .isBetween(Compaction.retentionMillis, Compaction.H2_RETENTION_MILLIS - 1);
            Compaction h = Compaction.manual(c, 0);
            commits(c, 20);
            assertThat(h.round()).as("a round after 20 commits").isTrue();
            long afterCommits = h.rounds();
            // what a compaction rewrote is synced by the next round: they end when nothing is left
            quiet(h);
            assertThat(h.round()).as("a round with nothing written since").isFalse();
            long before = h.rounds();
            commits(c, 1);
            assertThat(h.round()).as("a round after one more commit").isTrue();
            assertThat(h.rounds()).isEqualTo(before + 1);
            assertThat(afterCommits).isEqualTo(1);
            assertThat(h.summary()).startsWith(before + 1 + " rounds, fsync ");
            h.stop();
        }
    }

    @Test
    void aRoundLongerAfterTheLastThanTheRetentionRaisesItToTwiceThatTime() throws Exception {
        Path dir = tmp.resolve("state");
        try (H2Database db = H2Database.open(dir); Connection c = db.connection()) {
            MVStore store = Compaction.localStore(c);
            // the rounds' clock is the test's: the figures below do not depend on how fast this machine is
            AtomicLong now = new AtomicLong(1_000_000_000L);
            Compaction h = Compaction.manual(c, 50, now::get);
            commits(c, 1);
            assertThat(h.round()).isTrue();
            assertThat(store.getRetentionTime()).as("after the first round (nothing to compare with)")
                    .isEqualTo(50);
            // 20 ms later: within the retention
            now.addAndGet(20_000_000L);
            commits(c, 1);
            assertThat(h.round()).isTrue();
            assertThat(store.getRetentionTime()).as("after a round 20 ms after the last").isEqualTo(50);
            // a stall as a starved thread or a slow disk makes it: a chunk written just after the last
            // check reaches the disk only with this round's fsync, 300 ms later
            now.addAndGet(300_000_000L);
            commits(c, 1);
            assertThat(h.round()).isTrue();
            assertThat(store.getRetentionTime()).as("after a round 300 ms after the last").isEqualTo(600);
            // never lowered again by a quick round
            now.addAndGet(10_000_000L);
            commits(c, 1);
            assertThat(h.round()).isTrue();
            assertThat(store.getRetentionTime()).isEqualTo(600);
            h.stop();
        }
    }

    @Test
    void onByDefaultInTheProcessThatOpensTheFileAndNotInAOneShotReader() throws Exception {
        Path dir = tmp.resolve("state");
        try (H2Database db = H2Database.open(dir); Connection c = db.connection()) {
            assertThat(Compaction.of(c)).as("compaction in the process that opened the file").isNotNull();
            assertThat(Compaction.localStore(c).getRetentionTime()).as("shorter than H2's 45 s")
                    .isLessThan(Compaction.H2_RETENTION_MILLIS);
        }
        try (H2Database db = H2Database.openToRead(dir); Connection c = db.connection()) {
            assertThat(db.alone()).isTrue();
            assertThat(Compaction.of(c)).as("a reader that ends in a moment").isNull();
        }
    }

    @Test
    void underSustainedCommitsTheFileStopsGrowingWhereH2sDefaultsLetItGrow() throws Exception {
        Path dir = tmp.resolve("state");
        try (H2Database db = H2Database.open(dir); Connection c = db.connection()) {
            MVStore store = Compaction.localStore(c);
            // H2's defaults (45 s retention, no compaction): every byte written is new file
            Compaction.manual(c, 45_000);
            rewrites(c, 500);
            long before = size(dir);
            long written = writtenBytes(store);
            rewrites(c, 1_000);
            long growthDefault = size(dir) - before;
            long writtenDefault = writtenBytes(store) - written;
            assertThat(growthDefault).as("growth with H2's defaults, of %d bytes written", writtenDefault)
                    .isGreaterThan(writtenDefault * 7 / 10);

            // rounds by hand (no timing: the retention is 0, so nothing waits for a clock): once the first
            // rounds have freed the dead space, the same commits fit in it
            Compaction h = Compaction.manual(c, 0);
            for (int i = 0; i < 20; i++) {
                rewrites(c, 50);
                h.round();
            }
            before = size(dir);
            written = writtenBytes(store);
            for (int i = 0; i < 20; i++) {
                rewrites(c, 50);
                h.round();
            }
            assertThat(store.getRetentionTime()).as("retention after 40 rounds by hand").isZero();
            long growth = size(dir) - before;
            long writtenKept = writtenBytes(store) - written;
            assertThat(writtenKept).as("bytes written by 1,000 commits").isGreaterThan(1L << 20);
            assertThat(growth).as("growth with compaction, of %d bytes written (file %d bytes)", writtenKept,
                    size(dir)).isLessThan(writtenKept / 4);
            h.stop();
        }
    }

    @Test
    void closingTheStateStopsItsCompaction() throws Exception {
        Path dir = tmp.resolve("state");
        MVStore store;
        Thread thread;
        try (CpuBurn burn = CpuBurn.start(2); H2Database db = H2Database.open(dir); Connection c = db.connection()) {
            store = Compaction.localStore(c);
            Compaction h = Compaction.of(c);
            thread = h.thread();
            assertThat(thread.isAlive()).isTrue();
            commits(c, 10);
            // the thread's own rounds (every 0.1 s) sync what was committed, on a busy machine too
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (h.rounds() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(h.rounds()).as("rounds of the compaction thread within 20 s").isPositive();
        }
        assertThat(store.isClosed()).isTrue();
        assertThat(Compaction.running(store)).isNull();
        thread.join(5_000);
        assertThat(thread.isAlive()).as("the compaction thread after close").isFalse();
    }
}
