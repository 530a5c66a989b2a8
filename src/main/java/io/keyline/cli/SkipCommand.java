package io.keyline.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "skip")
final class SkipCommand extends Sub implements Callable<Integer> {

    @Mixin
    KeyTarget target;

    @Option(names = "--note", paramLabel = "T", required = true)
    String note;

    @Override
    public Integer call() {
        KeyTarget.Target t = target.resolve(this);
        ws().operations().actions().skip(t.job(), t.key(), note);
        out().println(t("cli.skip.done", String.valueOf(t)));
        return 0;
    }
}
