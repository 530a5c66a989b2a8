package io.keyline.store.h2;

import org.h2.api.ErrorCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A process served by another one over AUTO_SERVER reads the server's close, in the middle of a statement, as the
 * connection lost (it opens the state again and tries once more), whichever way H2 words it: the database has been
 * closed, or the open transaction was rolled back by the close. Three runs that cron starts in the same minute met
 * both (one in about 120 runs failed with exit 1; {@code RaceSuite} runs that loop). A process that opened the
 * file itself does not: there the same words mean it was closed here.
 */
class ServerClosingTest {

    @TempDir
    Path tmp;

    /** As H2's client reports them when the serving process closes the database under a statement. */
    static final SQLException CLOSED = new SQLException("The database has been closed [90098-252]", "90098",
            ErrorCode.DATABASE_IS_CLOSED);
    static final SQLException ROLLED_BACK = new SQLException("General error: \"Transaction 1 has status ROLLED_BACK, "
            + "not OPEN [2.5.252/103]\"; SQL statement:\nINSERT INTO worker …", "HY000", ErrorCode.GENERAL_ERROR_1);
    static final SQLException OTHER = new SQLException("General error: \"java.lang.IllegalStateException\"", "HY000",
            ErrorCode.GENERAL_ERROR_1);

    @Test
    void aServedProcessReadsTheServersCloseAsTheConnectionLost() throws Exception {
        Path state = tmp.resolve("state");
        Path jobs = Files.createDirectories(tmp.resolve("jobs"));
        try (HoldingRun run = HoldingRun.start(state, jobs, tmp); H2Database db = H2Database.open(state)) {
            assertThat(run.alive()).as("the run that serves the state").isTrue();
            assertThat(db.alone()).isFalse();
            assertThat(db.connectionLost(CLOSED)).as("closed by the server").isTrue();
            assertThat(db.connectionLost(ROLLED_BACK)).as("rolled back by the server's close").isTrue();
            assertThat(db.connectionLost(new SQLException("wrapped", ROLLED_BACK))).isTrue();
            assertThat(db.connectionLost(OTHER)).as("another general error").isFalse();
        }
    }

    @Test
    void theProcessThatOpenedTheFileDoesNot() {
        try (H2Database db = H2Database.open(tmp.resolve("state"))) {
            assertThat(db.connectionLost(CLOSED)).isFalse();
            assertThat(db.connectionLost(ROLLED_BACK)).isFalse();
        }
    }
}
