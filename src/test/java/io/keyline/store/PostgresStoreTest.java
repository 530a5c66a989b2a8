package io.keyline.store;

import io.keyline.core.LeaseKeeper;
import io.keyline.core.RunOptions;
import io.keyline.core.WorkerRegistry;
import io.keyline.credentials.MasterKeyException;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.testing.TestPostgres;
import io.keyline.testing.Workbench;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The store's contract on PostgreSQL (a real server: {@link TestPostgres}), and what only a shared state
 * has: migrations under an advisory lock, byte-wise key collation, liveness by lock and heartbeat,
 * the master key given and checked, changes announced to listeners.
 */
class PostgresStoreTest extends StoreContract {

    String url;

    @Override
    Database open() {
        url = TestPostgres.newDatabase();
        return io.keyline.workspace.Workspace.open(location(url));
    }

    StateLocation location(String u) {
        return StateLocation.parse(u, Map.of("HOME", tmp.toString(), "XDG_STATE_HOME", tmp.resolve("xdg").toString()));
    }

    @Override
    Map<String, String> env() {
        return Map.of("KEYLINE_MASTER_KEY", Workbench.TEST_MASTER_KEY);
    }

    @Override
    void aliveAfterDeregister(WorkerRegistry workers, KeyRecord running, Instant now) {
        // a holder that said goodbye is gone at once, whatever its lease says
        assertThat(workers.holderAlive(running, now)).isFalse();
    }

    @Override
    void otherKey(JdbcCredentialStore wrong) {
        refused(wrong);
    }

    @Test
    void keyColumnsCompareByteWise() throws Exception {
        try (Connection c = db.connection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT table_name || '.' || column_name, collation_name FROM "
                     + "information_schema.columns WHERE column_name IN ('job', 'key_value') ORDER BY 1")) {
            List<String> cols = new ArrayList<>();
            while (rs.next()) {
                cols.add(rs.getString(1) + "=" + rs.getString(2));
            }
            assertThat(cols).contains("key_state.key_value=C", "key_state.job=C", "key_event.key_value=C",
                    "step_state.key_value=C", "saved_plan.job=C").allMatch(s -> s.endsWith("=C"));
        }
    }

    @Test
    void processesOpeningAnEmptyDatabaseAtOnceMigrateItOnce() throws Exception {
        for (int round = 0; round < 3; round++) {
            String fresh = TestPostgres.newDatabase();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<?>> opens = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    opens.add(pool.submit(() -> {
                        go.await();
                        io.keyline.workspace.Workspace.open(location(fresh)).close();
                        return null;
                    }));
                }
                go.countDown();
                for (Future<?> f : opens) {
                    f.get(120, TimeUnit.SECONDS); // throws if one failed ("Unable to baseline ...")
                }
            } finally {
                pool.shutdownNow();
            }
            try (Connection c = TestPostgres.connect(TestPostgres.databaseOf(fresh)); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT COUNT(*), COUNT(DISTINCT version) FROM flyway_schema_history "
                         + "WHERE success AND version IS NOT NULL")) {
                rs.next();
                assertThat(rs.getInt(1)).as("each migration applied once").isEqualTo(rs.getInt(2)).isGreaterThan(5);
            }
        }
    }

    /** The backend of the session that holds the advisory lock of {@code owner}. */
    private int lockBackend(String owner) throws Exception {
        try (Connection c = db.connection(); PreparedStatement ps = c.prepareStatement("SELECT l.pid FROM pg_locks l "
                + "JOIN worker w ON l.objid = CAST(w.lock_no AS oid) WHERE l.locktype = 'advisory' AND l.granted "
                + "AND l.classid = CAST(? AS oid) AND w.id = ?")) {
            ps.setInt(1, Dialect.LOCK_SPACE);
            ps.setString(2, owner);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("the lock of " + owner + " is held").isTrue();
                return rs.getInt(1);
            }
        }
    }

    private KeyRecord runningBy(String owner) {
        KeyRecord k = stored("daily", "k-" + owner.hashCode(), KeyState.PENDING);
        return store.apply(k, k.withState(KeyState.RUNNING).withLease("r", owner, Instant.now().plusSeconds(3600)),
                null, null);
    }

    @Test
    void aHolderWhoseLockIsGoneIsDeadWhateverItsLeaseSays() throws Exception {
        LeaseKeeper keeper = new LeaseKeeper(store, RunOptions.standard(), "worker");
        // registered as start() does, without its beat thread: a beat (every 5 s) between the kill of the
        // session and the check below would take the lock again on a busy machine; the test beats by hand
        store.workers().register(new WorkerRegistry.Registration(keeper.owner(), io.keyline.core.LeaseOwner.host(),
                ProcessHandle.current().pid(), "worker", LeaseKeeper.version()));
        KeyRecord running = runningBy(keeper.owner());
        Instant now = Instant.now();
        assertThat(store.workers().holderAlive(running, now)).isTrue();
        // the process dies, or its connection drops: the server ends its session, the lock goes
        try (Connection c = db.connection(); Statement st = c.createStatement()) {
            st.execute("SELECT pg_terminate_backend(" + lockBackend(keeper.owner()) + ")");
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (store.workers().holderAlive(running, now) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(store.workers().holderAlive(running, now)).as("lease until " + running.leaseUntil()).isFalse();
        // the same host name and a live pid (this JVM) do not make it alive: that rule is not used here
        assertThat(running.leaseOwner()).startsWith(io.keyline.core.LeaseOwner.host() + "/"
                + ProcessHandle.current().pid() + "/");
        // its next beat takes the lock again on a new session: alive again (its keys were free meanwhile)
        keeper.beat();
        assertThat(store.workers().holderAlive(running, now)).isTrue();
        store.workers().deregister(keeper.owner());
        keeper.close();
    }

    @Test
    void aHolderWhoseHeartbeatStoppedIsDeadThoughItsLockIsHeld() throws Exception {
        JdbcWorkers workers = new JdbcWorkers(db, Duration.ofSeconds(5), Duration.ofSeconds(30));
        String id = "cloned-vm/4242/cafe";
        workers.register(new WorkerRegistry.Registration(id, "cloned-vm", 4242, "worker", "test"));
        KeyRecord running = runningBy(id);
        assertThat(workers.holderAlive(running, Instant.now())).isTrue();
        // it hangs (or the network cut it off while the server keeps its session): no beat for 31 s
        try (Connection c = db.connection(); Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE worker SET heartbeat_at = heartbeat_at - 31000 WHERE id = '" + id + "'");
        }
        assertThat(lockBackend(id)).isPositive();
        assertThat(workers.holderAlive(running, Instant.now())).isFalse();
        workers.beat(id);
        assertThat(workers.holderAlive(running, Instant.now())).isTrue();
        workers.deregister(id);
    }

    @Test
    void aHolderThatNeverRegisteredIsNotAlive() {
        // a state copied from H2 with a key left RUNNING, or an older Keyline: the first worker takes it over
        KeyRecord running = runningBy(io.keyline.core.LeaseOwner.forThisProcess());
        assertThat(store.workers().holderAlive(running, Instant.now())).isFalse();
    }

    @Test
    void aWorkerNeverCreatesAMasterKeyForASharedState() {
        JdbcCredentialStore none = new JdbcCredentialStore(db, Map.of(), Clock.fixed(T0, ZoneOffset.UTC));
        assertThatThrownBy(none::checkMasterKey).isInstanceOf(MasterKeyException.class)
                .hasMessageContaining("KEYLINE_MASTER_KEY").hasMessageContaining("--master-key-file");
        assertThat(tmp.resolve("xdg").resolve("keyline").resolve("secret.key")).doesNotExist();
        // the key given in a file works as well as in the environment
        Map<String, String> file = new HashMap<>();
        file.put("KEYLINE_MASTER_KEY_FILE", writeKey(Workbench.TEST_MASTER_KEY).toString());
        new JdbcCredentialStore(db, env(), Clock.fixed(T0, ZoneOffset.UTC)).checkMasterKey();
        assertThat(new JdbcCredentialStore(db, file, Clock.fixed(T0, ZoneOffset.UTC)).checkMasterKey())
                .isEqualTo(new JdbcCredentialStore(db, env(), Clock.fixed(T0, ZoneOffset.UTC)).checkMasterKey());
    }

    private java.nio.file.Path writeKey(String key) {
        try {
            java.nio.file.Path f = tmp.resolve("master.key");
            java.nio.file.Files.writeString(f, key + "\n");
            java.nio.file.Files.setPosixFilePermissions(f, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            return f;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aChangeByAnotherProcessIsAnnouncedToListeners() throws Exception {
        // the listener reports once when it starts listening (what changed before), then once per announcement
        CountDownLatch listening = new CountDownLatch(1);
        CountDownLatch heard = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        try (AutoCloseable watch = store.watch(() -> (calls.incrementAndGet() == 1 ? listening : heard).countDown());
             Database other = io.keyline.workspace.Workspace.open(location(url))) {
            assertThat(listening.await(20, TimeUnit.SECONDS)).isTrue();
            new JdbcStateStore(other).ensure(KeyRecord.fresh("daily", "2026-12-01", T0));
            assertThat(heard.await(20, TimeUnit.SECONDS)).as("the change was announced").isTrue();
        }
    }
}
