package io.keyline.cli;

import picocli.CommandLine.Command;

import static io.keyline.text.Text.t;

@Command(name = "skip")
final class SkipCommand extends NotedKeyCommand {

    @Override
    int call(KeyTarget.Target t) {
        ws().operations().actions().skip(t.job(), t.key(), note);
        return done(t("cli.skip.done", String.valueOf(t)));
    }
}
