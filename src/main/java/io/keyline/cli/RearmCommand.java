package io.keyline.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import static io.keyline.text.Text.t;

@Command(name = "rearm")
final class RearmCommand extends NotedKeyCommand {

    @Option(names = "--from-step", paramLabel = "S")
    String fromStep;

    @Override
    int call(KeyTarget.Target t) {
        ws().operations().keyActions().rearm(t.job(), t.key(), note, fromStep);
        return done(t("cli.rearm.done", String.valueOf(t), io.keyline.core.operations.KeyActions.rearmed(fromStep),
                t.job().name(), t.key()));
    }
}
