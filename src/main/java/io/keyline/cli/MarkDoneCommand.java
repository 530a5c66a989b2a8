package io.keyline.cli;

import picocli.CommandLine.Command;

import static io.keyline.text.Text.t;

@Command(name = "mark-done")
final class MarkDoneCommand extends NotedKeyCommand {

    @Override
    int call(KeyTarget.Target t) {
        ws().operations().actions().markDone(t.job(), t.key(), note);
        return done(t("cli.markDone.done", String.valueOf(t)));
    }
}
