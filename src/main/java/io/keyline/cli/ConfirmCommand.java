package io.keyline.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "confirm")
final class ConfirmCommand extends Sub implements Callable<Integer> {

    @Mixin
    KeyTarget target;

    @Option(names = "--note", paramLabel = "T")
    String note;

    @Option(names = "--payload", paramLabel = "HASH")
    String payload;

    @Override
    public Integer call() {
        KeyTarget.Target t = target.resolve(this);
        return runReported(s -> ws().operations().confirmAndRun().confirmAndRun(t.job(), t.key(), note, payload,
                s.engine, rec -> out().println(t("cli.confirm.running", rec.confirmedStep(), String.valueOf(t))))
                .report());
    }
}
