package io.keyline.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import static io.keyline.text.Text.t;

@Command(name = "retry")
final class RetryCommand extends KeyCommand {

    @Option(names = "--note", paramLabel = "T")
    String note;

    @Option(names = "--run")
    boolean run;

    @Mixin
    FromStep from;

    @Override
    int call(KeyTarget.Target t) {
        if (run) {
            return runReported(s -> ws().operations().keyActions().retryAndRun(t.job(), t.key(), note, from.step,
                    s.engine).report());
        }
        ws().operations().keyActions().retry(t.job(), t.key(), note, from.step);
        String run = String.format("keyline run %s --key %s", t.job().name(), t.key());
        return done(from.step == null ? t("cli.retry.done", t, run, "retry --run")
                : t("cli.retry.doneFrom", t, from.step, run, "retry --run"));
    }
}
