package io.keyline.ui;

import io.keyline.acceptance.Jobs;
import io.keyline.app.ConsoleApp;
import io.keyline.workspace.Workspace;
import io.keyline.core.RunTrace;
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
        services = ConsoleApp.services(ws, RunTrace.NONE, wb.env());
    }

    /** Writes job {@code name}: write (command, writes out/KEY.md) then publish (unsafe POST with a probe). */
    public void publishJob(String name, String credential) throws IOException {
        wb.job(name, publish(name, credential), site.base());
    }

    public KeyState state(String job, String key) {
        return ws.store().key(job, key).map(KeyRecord::state).orElse(null);
    }

    static String publish(String name, String credential) {
        return Jobs.publish(name, "unsafe", true, credential == null ? null : "\"credential\": \"" + credential + "\",");
    }

    @Override
    public void close() throws IOException {
        site.close();
        ws.close();
    }
}
