package io.keyline.acceptance;

import org.junit.jupiter.api.BeforeEach;

/**
 * {@link CrashTest} on a PostgreSQL state: a child killed with SIGKILL at random points, and
 * right after its unsafe request went out; every key ends DONE with its effect applied exactly once. A
 * killed holder is recognised by its advisory lock, which the server releases when the process dies.
 */
class PostgresCrashTest extends CrashTest {

    @BeforeEach
    void onPostgres() {
        wb.usePostgres();
    }
}
