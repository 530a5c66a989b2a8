package io.keyline.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "confirm", description = "Confirms the unsafe step a key waits on and runs it now. Exit codes as for run.")
final class ConfirmCommand extends Sub implements Callable<Integer> {

    @Mixin
    KeyTarget target;

    @Option(names = "--note", paramLabel = "T", description = "Why (kept in the key's timeline).")
    String note;

    @Option(names = "--payload", paramLabel = "HASH",
            description = "Only confirm if the step would send this payload (hash shown by the console).")
    String payload;

    @Override
    public Integer call() {
        KeyTarget.Target t = target.resolve(this);
        return runReported(s -> ws().operations().confirmAndRun().confirmAndRun(t.job(), t.key(), note, payload,
                s.engine, rec -> out().println(t("cli.confirm.running", rec.confirmedStep(), String.valueOf(t))))
                .report());
    }
}
