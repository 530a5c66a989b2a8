package io.keyline.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import static io.keyline.text.Text.t;

@Command(name = "rearm")
final class RearmCommand extends NotedKeyCommand {

    @Mixin
    FromStep from;

    @Override
    int call(KeyTarget.Target t) {
        ws().operations().keyActions().rearm(t.job(), t.key(), note, from.step);
        return done(t("cli.rearm.done", String.valueOf(t), io.keyline.core.operations.KeyActions.rearmed(from.step),
                t.job().name(), t.key()));
    }
}
