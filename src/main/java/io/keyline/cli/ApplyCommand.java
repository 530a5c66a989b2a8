package io.keyline.cli;

import io.keyline.domain.KeyRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "apply")
final class ApplyCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "PLAN_ID")
    String planId;

    @Override
    public Integer call() {
        var planApply = ws().operations().planApply();
        return runReported(s -> {
            var run = planApply.apply(planId, this::job, s.engine);
            List<KeyRecord> released = run.released();
            if (!released.isEmpty()) {
                // applying the plan reviewed the job: its other keys that waited for the review go on as well (said
                // before the run's summary, whose last line is the exit code)
                out().println(t("cli.apply.released", released.get(0).job(), released.size(), String.join(", ",
                        released.stream().map(KeyRecord::key).limit(20).toList()) + (released.size() > 20 ? ", …" : "")));
            }
            return run.report();
        });
    }
}
