package io.keyline.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "rearm")
final class RearmCommand extends Sub implements Callable<Integer> {

    @Mixin
    KeyTarget target;

    @Option(names = "--note", paramLabel = "T", required = true)
    String note;

    @Option(names = "--from-step", paramLabel = "S")
    String fromStep;

    @Override
    public Integer call() {
        KeyTarget.Target t = target.resolve(this);
        ws().operations().keyActions().rearm(t.job(), t.key(), note, fromStep);
        out().println(t("cli.rearm.done", String.valueOf(t), io.keyline.core.operations.KeyActions.rearmed(fromStep),
                t.job().name(), t.key()));
        return 0;
    }
}
