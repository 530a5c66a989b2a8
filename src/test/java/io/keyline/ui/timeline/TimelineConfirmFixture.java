package io.keyline.ui.timeline;

import io.keyline.acceptance.Jobs;
import io.keyline.app.ConsoleApp;
import io.keyline.workspace.Workspace;
import io.keyline.core.RunTrace;
import io.keyline.credentials.CredentialParser;
import io.keyline.credentials.CredentialType;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.testing.TestSite;
import io.keyline.testing.Workbench;
import io.keyline.ui.ConsoleServices;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A real state folder (H2 in a temp folder), a jobs folder and a loopback publishing site, with
 * the console's services built on them the way the app builds them.
 */
public final class TimelineConfirmFixture implements AutoCloseable {
    public static final String KEY = "2026-11-29";

    public final Workbench wb;
    public final TestSite site;
    private Workspace ws;
    private ConsoleServices services;

    public TimelineConfirmFixture(Path tmp) throws IOException {
        wb = new Workbench(tmp);
        site = new TestSite();
    }

    /**
     * write (command: writes {@code out/{key}.md}) then publish (http POST of that file, unsafe).
     *
     * @param extra extra fields of the publish step (e.g. a credential or {@code "confirm": "always",})
     * @param probe whether publish has a probe
     */
    public static String publishJob(String name, String extra, boolean probe) {
        return Jobs.publish(name, "unsafe", probe, extra);
    }

    public TimelineConfirmFixture job(String name, String json) throws IOException {
        if (services != null) {
            throw new IllegalStateException("write job files before the services are built");
        }
        wb.job(name, json, site.base());
        return this;
    }

    public synchronized ConsoleServices services() {
        if (services == null) {
            ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env());
            services = ConsoleApp.services(ws, RunTrace.NONE, wb.env());
        }
        return services;
    }

    public void setCookie(String name, String cookieHeader) {
        services().credentials().set(name, CredentialParser.parse(CredentialType.COOKIE, cookieHeader, null), "tester");
    }

    public JobDefinition def(String job) {
        return services().catalog().get().job(job).orElseThrow(() -> new AssertionError(
                "job " + job + " did not load: " + services().catalog().get().errors()));
    }

    /** Runs one key with the console's engine and returns its final record. */
    public KeyRecord run(String job, String key) {
        return services().engine().run(def(job), List.of(key)).keys().get(0);
    }

    /** The workspace the services are built on (the state, for what a test checks). */
    public Workspace ws() {
        services();
        return ws;
    }

    public KeyRecord record(String job, String key) {
        services();
        return ws.store().key(job, key).orElseThrow();
    }

    public Path bodyFile(String key) {
        return wb.jobs.resolve("out").resolve(key + ".md");
    }

    @Override
    public void close() throws IOException {
        if (ws != null) {
            ws.close();
        }
        site.close();
    }
}
