package io.keyline.store;

import io.keyline.store.h2.H2Database;
import io.keyline.core.WorkerRegistry;
import io.keyline.domain.KeyRecord;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The store's contract on the embedded H2 state (the default). */
class H2StoreTest extends StoreContract {

    @Override
    Database open() {
        return H2Database.open(tmp.resolve("state"));
    }

    @Override
    Map<String, String> env() {
        return Map.of();
    }

    @Override
    void aliveAfterDeregister(WorkerRegistry workers, KeyRecord running, Instant now) {
        // one machine: a holder is alive while its lease runs and its process lives (this JVM)
        assertThat(workers.holderAlive(running, now)).isTrue();
        assertThat(workers.holderAlive(running, running.leaseUntil().plusMillis(1))).isFalse();
    }

    @Override
    void otherKey(JdbcCredentialStore wrong) {
        // the embedded state keeps its rule: a credential stored with another key cannot be read, and says so
        assertThat(wrong.lookup("site").present()).isFalse();
        assertThat(wrong.lookup("site").problem().english()).contains("wrong master key");
    }
}
