package io.keyline.cli;

import io.keyline.core.OperatorActions;
import io.keyline.core.Review;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;


import static io.keyline.text.Text.t;

@Command(name = "approve")
final class ApproveCommand extends JobCommand {

    @Option(names = "--note", paramLabel = "T")
    String note;

    @Override
    int call(JobDefinition job) {
        OperatorActions.Approval a = ws().operations().actions().approve(job, note);
        out().println(t(a.before().pending() ? "cli.approve.approved" : "cli.approve.already", job.name(),
                a.hash().substring(0, 12)));
        for (String s : Review.unsafeSteps(job)) {
            out().println("  " + s);
        }
        if (a.released().isEmpty()) {
            out().println(t("cli.approve.noneWaited"));
        } else {
            out().println(t("cli.approve.released", a.released().size(),
                    String.join(", ", a.released().stream().map(KeyRecord::key).limit(20).toList())
                    + (a.released().size() > 20 ? ", …" : "")));
        }
        return 0;
    }
}
