package io.keyline.ui;

import io.keyline.app.Workspace;
import io.keyline.core.CredentialAlerts;
import io.keyline.core.RunTrace;
import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.testing.TestSite;
import io.keyline.testing.Workbench;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A real state folder (H2 in a temp folder), a jobs folder and a real loopback site, wired into the
 * {@link ConsoleServices} the console's view models work on.
 */
public final class ConsoleFixture implements AutoCloseable {

    public final Workbench wb;
    public final TestSite site;
    public final Workspace ws;
    public final ConsoleServices services;

    public ConsoleFixture(Path tmp) throws IOException {
        wb = new Workbench(tmp);
        site = new TestSite();
        ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env());
        services = new ConsoleServices(() -> JobFileLoader.loadFolder(wb.jobs), ws.store(), ws.planner(), ws.actions(),
                ws.engine(RunTrace.NONE), ws.credentials(), wb.clock, "tester", wb.state, wb.jobs,
                CredentialAlerts.DEFAULT_WARN);
    }

    /** Writes job {@code name}: write (command, writes out/KEY.md) then publish (unsafe POST with a probe). */
    public void publishJob(String name, String credential) throws IOException {
        wb.job(name, publish(name, credential), site.base());
    }

    public KeyState state(String job, String key) {
        return services.store().key(job, key).map(KeyRecord::state).orElse(null);
    }

    static String publish(String name, String credential) {
        return """
            {
              "name": "%s",
              "description": "write and publish the daily article",
              "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
              "retry": { "maxAttempts": 3, "initialDelay": "PT2S", "multiplier": 2.0, "maxDelay": "PT30S",
                         "jitter": 0.0, "maxElapsed": "PT10M" },
              "steps": [
                { "id": "write", "kind": "command", "effect": "none",
                  "command": ["sh", "-c", "mkdir -p out && printf 'article for %%s' {key} > out/{key}.md"] },
                { "id": "publish", "kind": "http", "effect": "unsafe", %s
                  "request": { "method": "POST", "url": "BASE/api/articles",
                               "headers": { "Content-Type": "text/markdown" }, "bodyFile": "out/{key}.md" },
                  "probe": { "kind": "http", "url": "BASE/api/articles?date={key}",
                             "presentWhen": { "jsonPointer": "/total", "notEquals": 0 } },
                  "timeout": "PT2S" }
              ]
            }
            """.formatted(name, credential == null ? "" : "\"credential\": \"" + credential + "\",");
    }

    @Override
    public void close() throws IOException {
        site.close();
        ws.close();
    }
}
