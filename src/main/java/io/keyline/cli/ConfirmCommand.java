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
        var confirm = ws().operations().confirmAndRun();
        return runReported(s -> confirm.confirmAndRun(t.job(), t.key(), note, payload, s.engine, rec -> {
            out().println(t("cli.confirm.running", rec.confirmedStep(), String.valueOf(t)));
            // after a renewal of its login, the read-only steps before it fetch their values again first
            java.util.List<String> first = confirm.actions().runFirst(t.job(), rec);
            if (!first.isEmpty()) {
                out().println(t("cli.confirm.runFirst", String.join(", ", first), first.size(),
                        rec.confirmedStep()));
            }
        }).report());
    }
}
