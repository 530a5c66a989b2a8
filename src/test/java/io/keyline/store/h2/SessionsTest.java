package io.keyline.store.h2;

import org.h2.api.ErrorCode;
import org.h2.command.Command;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.PooledConnection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The sessions of the state's pool: a session given back keeps what it parsed (H2's query cache), and one given
 * back with a transaction open is rolled back, as before.
 */
class SessionsTest {

    private static final String SQL = "SELECT paused FROM job_control WHERE job = ?";

    @TempDir
    Path tmp;

    /** The store takes a session for each transaction: a statement it prepared before is not parsed again. */
    @Test
    void aSessionGivenBackToThePoolKeepsTheStatementsItParsed() throws Exception {
        try (H2Database db = H2Database.open(tmp.resolve("state"))) {
            SessionLocal session;
            Command parsed;
            try (Connection c = db.connection()) {
                session = local(c);
                parsed = session.prepareLocal(SQL);
                parsed.close();
            }
            try (Connection c = db.connection()) {
                assertThat(local(c)).as("the pool hands out the session it took back").isSameAs(session);
                assertThat(session.prepareLocal(SQL)).as("the statement parsed before, from the session's cache")
                        .isSameAs(parsed);
            }
        }
    }

    @Test
    void aSessionGivenBackWithATransactionOpenIsRolledBack() throws Exception {
        try (H2Database db = H2Database.open(tmp.resolve("state"))) {
            try (Connection c = db.connection(); Statement st = c.createStatement()) {
                c.setAutoCommit(false);
                st.executeUpdate("INSERT INTO key_state (job, key_value, state, attempts, version, created_at, "
                        + "updated_at) VALUES ('daily', 'k1', 'PENDING', 0, 1, 0, 0)");
                // given back without a commit
            }
            try (Connection c = db.connection(); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM key_state")) {
                assertThat(c.getAutoCommit()).as("handed out in auto-commit").isTrue();
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).as("the insert that was not committed").isZero();
            }
        }
    }

    /** A handle used after it was given back must not reach the session, which someone else may hold by then. */
    @Test
    void aHandleGivenBackAnswersAsAClosedConnection() throws Exception {
        try (H2Database db = H2Database.open(tmp.resolve("state"))) {
            Connection c = db.connection();
            c.close();
            c.close(); // twice is harmless
            assertThat(c.isClosed()).isTrue();
            assertThatThrownBy(() -> c.prepareStatement(SQL)).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(ErrorCode.OBJECT_CLOSED));
            try (Connection next = db.connection(); PreparedStatement ps = next.prepareStatement(SQL)) {
                ps.setString(1, "daily");
                assertThat(ps.executeQuery().next()).isFalse();
            }
        }
    }

    /**
     * Why the pool's handle is ours ({@link Sessions.Reusable}): H2's own pooled handle rolls its session back when
     * it is taken and when it is given back, which empties the session's query cache. When this fails, H2 keeps the
     * cache across its own handles and ours can go.
     */
    @Test
    void h2sOwnPooledHandleStillEmptiesTheQueryCache() throws Exception {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:file:" + tmp.resolve("plain"));
        ds.setUser("sa");
        ds.setPassword("");
        PooledConnection pc = ds.getPooledConnection();
        try {
            Command parsed;
            SessionLocal session;
            try (Connection c = pc.getConnection(); Statement st = c.createStatement()) {
                st.execute("CREATE TABLE job_control (job VARCHAR(63) PRIMARY KEY, paused BOOLEAN)");
                session = local(c);
                parsed = session.prepareLocal(SQL);
                parsed.close();
            }
            try (Connection c = pc.getConnection()) {
                assertThat(local(c)).isSameAs(session);
                assertThat(session.prepareLocal(SQL)).as("H2's handle rolled the session back: parsed again")
                        .isNotSameAs(parsed);
            }
        } finally {
            pc.close();
        }
    }

    private static SessionLocal local(Connection c) throws SQLException {
        return (SessionLocal) c.unwrap(JdbcConnection.class).getSession();
    }
}
