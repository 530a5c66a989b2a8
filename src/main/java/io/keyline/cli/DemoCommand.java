package io.keyline.cli;

import io.keyline.workspace.Demo;
import io.keyline.core.RunTrace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "demo")
final class DemoCommand extends Sub implements Callable<Integer> {

    @Option(names = "--port", paramLabel = "N", defaultValue = "" + Demo.DEFAULT_PORT)
    int port;

    @Option(names = "--force")
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
