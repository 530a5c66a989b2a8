package io.keyline.security;

import io.keyline.acceptance.ChildProcess;
import io.keyline.testing.Workbench;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keyline's own secrets stay in Keyline: a command step, a command probe and a notify command hook
 * started by a real {@code keyline} process whose environment holds the master key, a PostgreSQL
 * password and a state URL with a password get none of them.
 */
class ChildEnvironmentTest {

    static final String MASTER_KEY = Base64.getEncoder().encodeToString("0123456789abcdef0123456789ABCDEF".getBytes());
    static final String PG_PASSWORD = "Pg-Passw0rd-Of-Keyline";
    static final String URL_PASSWORD = "St4te-Url-Passw0rd";

    @TempDir
    Path tmp;

    @Test
    void noChildGetsKeylinesOwnSecrets() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("dump", """
                {
                  "name": "dump",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                  "retry": { "maxAttempts": 1 },
                  "steps": [
                    { "id": "work", "kind": "command", "effect": "unsafe", "command": ["sh", "-c", "env > step-env.txt; exit 65"],
                      "probe": { "kind": "command", "command": ["sh", "-c", "env > probe-env.txt; echo '{{\\"present\\": false}}'"] } }
                  ]
                }
                """, null);
        Files.writeString(wb.jobs.resolve("notify.json"), """
                { "hooks": [ { "on": ["attention"], "command": ["sh", "-c", "env > hook-env.txt"] } ] }
                """);
        Path log = tmp.resolve("child.log");
        Map<String, String> env = Map.of("KEYLINE_MASTER_KEY", MASTER_KEY, "PGPASSWORD", PG_PASSWORD,
                "KEYLINE_STATE", "postgresql://keyline:" + URL_PASSWORD + "@127.0.0.1:1/keyline");
        Process p = ChildProcess.start(wb.state.toString(), wb.jobs, log, env, "run", "dump", "--key", "2026-11-02");
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String out = Files.readString(log);
        assertThat(p.exitValue()).as(out).isEqualTo(2);
        for (String f : List.of("step-env.txt", "probe-env.txt", "hook-env.txt")) {
            String dumped = Files.readString(wb.jobs.resolve(f));
            assertThat(dumped).as(f + " is the child's environment").contains("PATH=");
            assertThat(dumped).as(f).doesNotContain(MASTER_KEY).doesNotContain(PG_PASSWORD).doesNotContain(URL_PASSWORD)
                    .doesNotContain("KEYLINE_MASTER_KEY");
        }
        assertThat(Files.readString(wb.jobs.resolve("step-env.txt"))).as("what a step is given").contains("KEYLINE_KEY=2026-11-02");
    }
}
