package io.keyline.workspace;

import io.keyline.sandbox.SandboxSite;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;

/**
 * The console's in-process sandbox site: started when the jobs folder is a demo workspace, or
 * adopted from the demo the console created; stopped when the console closes.
 */
public final class DemoSandbox implements AutoCloseable {

    private final int demoPort;
    private SandboxSite site;

    /** @param demoPort the port a demo created from the console asks for (0 = any free one) */
    public DemoSandbox(int demoPort) {
        this.demoPort = demoPort;
    }

    public int demoPort() {
        return demoPort;
    }

    /** Starts the demo workspace's sandbox if {@code jobsDir} is one; a failure is reported, not thrown. */
    public synchronized void startIfDemo(Path jobsDir, Clock clock, PrintStream err) {
        if (site != null || !Demo.isDemo(jobsDir)) {
            return;
        }
        try {
            site = Demo.startSandbox(jobsDir, clock);
        } catch (IOException | RuntimeException e) {
            err.println("keyline: the demo's sandbox site did not start (" + e.getMessage() + "); if 'keyline "
                    + "sandbox' runs it already, all is well, else the demo's http steps cannot reach it");
        }
    }

    /** Keeps a sandbox the console started (the demo's), replacing none. */
    public synchronized void adopt(SandboxSite s) {
        if (site != null) {
            site.close();
        }
        site = s;
    }

    /** The running site, or {@code null}. */
    public synchronized SandboxSite site() {
        return site;
    }

    @Override
    public synchronized void close() {
        if (site != null) {
            site.close();
            site = null;
        }
    }
}
