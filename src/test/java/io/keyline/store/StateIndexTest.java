package io.keyline.store;

import io.keyline.store.h2.H2Database;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * key_state keeps only the indexes its queries use (every index a state change touches is
 * written by that commit). The queries on a holder's keys and on a credential's parked keys find them
 * through key_state_by_state, since each also names the state; none reads the whole table.
 */
class StateIndexTest {

    @TempDir
    Path tmp;

    /** 3,000 keys: most DONE, 5 RUNNING (two holders), 4 NEEDS_CREDENTIAL (two credentials). */
    private static void fill(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("INSERT INTO key_state (job, key_value, state, attempts, version, created_at, updated_at, "
                    + "credential) SELECT 'daily', 'k' || LPAD(CAST(\"X\" AS VARCHAR), 5, '0'), 'DONE', 1, 1, 0, 0, "
                    + "CASE WHEN MOD(\"X\", 2) = 0 THEN 'site-a' ELSE 'site-b' END FROM SYSTEM_RANGE(1, 3000)");
            st.execute("UPDATE key_state SET state = 'RUNNING', lease_owner = CASE WHEN key_value < 'k00003' "
                    + "THEN 'host/1/a' ELSE 'host/2/b' END, lease_until = 1 WHERE key_value <= 'k00005'");
            st.execute("UPDATE key_state SET state = 'NEEDS_CREDENTIAL' WHERE key_value BETWEEN 'k00010' AND 'k00013'");
            st.execute("INSERT INTO credential (name, cred_type, secret, master_key, fingerprint, cookie_count, "
                    + "updated_at, version) VALUES ('site-a', 'COOKIE', 'x', 'k', 'f', 1, 0, 1), "
                    + "('site-b', 'COOKIE', 'x', 'k', 'f', 1, 0, 1)");
            st.execute("ANALYZE");
        }
    }

    private static String plan(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("EXPLAIN " + sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1).replaceAll("\\s+", " ");
        }
    }

    @Test
    void theQueriesOnHoldersAndParkedKeysUseTheStateIndexAndOnlyTheIndexesTheyNeedAreKept() throws Exception {
        try (Database db = H2Database.open(tmp.resolve("state")); Connection c = db.adminConnection()) {
            fill(c);
            List<String> indexes = new ArrayList<>();
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT index_name FROM "
                    + "information_schema.indexes WHERE table_name = 'key_state' ORDER BY index_name")) {
                while (rs.next()) {
                    indexes.add(rs.getString(1));
                }
            }
            assertThat(indexes).as("key_state's indexes").hasSize(2).contains("key_state_by_state")
                    .anyMatch(n -> n.toLowerCase(java.util.Locale.ROOT).startsWith("primary_key"));

            // the SQL of JdbcStateStore.renewLeases (one statement per held key), JdbcWorkers.list,
            // JdbcCredentialStore.list and parkedOnMissing, and StateMigration's check of running keys (values in
            // place of parameters)
            List<String> queries = List.of(
                    "UPDATE key_state SET lease_until = 2 WHERE job = 'daily' AND key_value = 'k00001' "
                            + "AND lease_owner = 'host/1/a' AND state = 'RUNNING'",
                    "SELECT lease_owner, job, key_value FROM key_state WHERE state = 'RUNNING' AND lease_owner IS NOT "
                            + "NULL ORDER BY job, key_value",
                    "SELECT c.name, COALESCE(p.parked, 0) FROM credential c LEFT JOIN ("
                            + JdbcCredentialStore.PARKED_BY_CREDENTIAL + ") p ON p.credential = c.name ORDER BY c.name",
                    "SELECT credential, COUNT(*) FROM key_state WHERE state = 'NEEDS_CREDENTIAL' AND credential IS NOT "
                            + "NULL AND credential NOT IN (SELECT name FROM credential) GROUP BY credential",
                    "SELECT job, key_value, lease_owner, lease_until FROM key_state WHERE state = 'RUNNING'");
            // a holder's key by its primary key, the others through the state
            assertThat(plan(c, queries.get(0))).contains("job = 'daily' AND key_value = 'k00001'")
                    .containsIgnoringCase("primary_key");
            for (String q : queries.subList(1, queries.size())) {
                String plan = plan(c, q);
                assertThat(plan).as(q).contains("key_state_by_state").doesNotContainIgnoringCase("key_state.tableScan");
            }

            // and they still answer as before
            try (Statement st = c.createStatement()) {
                assertThat(st.executeUpdate(queries.get(0))).isEqualTo(1);
                try (ResultSet rs = st.executeQuery(queries.get(2))) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(2)).as("site-a's parked keys").isEqualTo(2);
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(2)).as("site-b's parked keys").isEqualTo(2);
                }
            }
        }
    }
}
