package io.keyline.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The embedded state's own pool of sessions (issue 14): a session comes back the way a new one is handed
 * out, a closed handle cannot reach the session any more, and the session given back last is the next one
 * handed out (its query cache holds the hot path's statements).
 */
class H2PoolTest {

    @TempDir
    Path tmp;

    @Test
    void aTransactionLeftOpenIsRolledBackAndAutoCommitRestored() throws Exception {
        try (Database db = Database.open(tmp)) {
            try (Connection c = db.connection(); Statement st = c.createStatement()) {
                // (H2 commits an open transaction when the isolation level changes: set it first)
                c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                c.setAutoCommit(false);
                st.executeUpdate("INSERT INTO job_control (job, paused, version) VALUES ('left-open', TRUE, 1)");
                // closed without commit or rollback
            }
            try (Connection c = db.connection(); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM job_control WHERE job = 'left-open'")) {
                assertThat(c.getAutoCommit()).isTrue();
                assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
                rs.next();
                assertThat(rs.getInt(1)).as("the uncommitted insert was rolled back").isZero();
            }
        }
    }

    @Test
    void aClosedHandleRefusesEveryCallAndClosingTwiceGivesBackOnce() throws Exception {
        try (Database db = Database.open(tmp)) {
            Connection c = db.connection();
            c.close();
            c.close();
            assertThat(c.isClosed()).isTrue();
            assertThatThrownBy(() -> c.prepareStatement("SELECT 1")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("closed");
            // the session went back once: two borrowers now get two different sessions
            try (Connection a = db.connection(); Connection b = db.connection()) {
                assertThat(session(a)).isNotEqualTo(session(b));
            }
        }
    }

    @Test
    void theSessionGivenBackLastIsHandedOutNext() throws Exception {
        try (Database db = Database.open(tmp)) {
            List<Connection> three = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                three.add(db.connection());
            }
            int last = session(three.get(1));
            three.get(0).close();
            three.get(2).close();
            three.get(1).close();
            for (int i = 0; i < 5; i++) {
                try (Connection c = db.connection()) {
                    assertThat(session(c)).isEqualTo(last);
                }
            }
        }
    }

    @Test
    void aClosedPoolRefusesNewConnections() throws Exception {
        Database db = Database.open(tmp);
        db.close();
        assertThatThrownBy(db::connection).isInstanceOf(SQLException.class).hasMessageContaining("closed");
    }

    private static int session(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT SESSION_ID()"); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
