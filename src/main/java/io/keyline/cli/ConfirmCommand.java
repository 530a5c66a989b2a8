package io.keyline.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import static io.keyline.text.Text.t;

@Command(name = "confirm")
final class ConfirmCommand extends KeyCommand {

    @Option(names = "--note", paramLabel = "T")
    String note;

    @Option(names = "--payload", paramLabel = "HASH")
    String payload;

    @Override
    int call(KeyTarget.Target t) {
        return runReported(s -> ws().operations().confirmAndRun().confirmAndRun(t.job(), t.key(), note, payload,
                s.engine, rec -> out().println(t("cli.confirm.running", rec.confirmedStep(), String.valueOf(t))))
                .report());
    }
}
