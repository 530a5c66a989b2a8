package io.keyline.cli;

import io.keyline.workspace.Demo;
import io.keyline.core.RunTrace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "demo", description = {
    "Creates the demo workspace: copies the demo's jobs into --jobs, starts a sandbox publishing site on loopback, "
        + "stores its login cookie as sandbox-cookie, and backfills the last 30 days through the engine. A few of "
        + "the site's faults are switched on, so the real runs leave keys FAILED, NEEDS_CONFIRMATION and "
        + "NEEDS_CREDENTIAL next to the DONE ones. Prints what it made and the five steps to resolve them.",
    "Refuses (exit 1) when the state already has keys, unless --force."})
final class DemoCommand extends Sub implements Callable<Integer> {

    @Option(names = "--port", paramLabel = "N", defaultValue = "" + Demo.DEFAULT_PORT,
            description = "Port of the sandbox site on 127.0.0.1 (default ${DEFAULT-VALUE}, or a free one if it is "
                    + "taken; 0 = any free port). The job files name it.")
    int port;

    @Option(names = "--force", description = "Create it even though the state has keys or the jobs folder has the "
            + "demo's files (they are overwritten; keys that exist are not run again).")
    boolean force;

    @Override
    public Integer call() {
        if (port < 0 || port > 65535) {
            throw new UsageError(t("cli.demo.port", "--port"));
        }
        Demo.Result r;
        try (RunTrace trace = ws().trace(null)) {
            r = Demo.create(ws(), port, force, trace, line -> out().println(t("cli.demo.line", line)));
        }
        try {
            out().println();
            out().print(Demo.summary(ws(), r, true));
        } finally {
            r.site().close();
        }
        return 0;
    }
}
