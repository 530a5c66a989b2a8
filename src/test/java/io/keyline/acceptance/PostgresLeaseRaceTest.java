package io.keyline.acceptance;

import org.junit.jupiter.api.BeforeEach;

/**
 * {@link LeaseRaceTest} on a PostgreSQL state: the same two processes over the same keys,
 * the same assertions (every key DONE, each effect once, no step executed twice), with leases decided by
 * the workers' advisory locks and heartbeats instead of the same-host pid rule.
 */
class PostgresLeaseRaceTest extends LeaseRaceTest {

    @BeforeEach
    void onPostgres() {
        wb.usePostgres();
    }
}
