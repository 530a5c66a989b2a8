package io.keyline.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

@Command(name = "apply", description = "Executes a plan made by 'keyline plan', exactly: the steps it listed, in that "
        + "order, and nothing else. Refuses (exit 1) if the job file, a body, a probe's answer, a credential or the "
        + "state of its keys changed since; a key whose reality departs from the plan mid-way stops there (exit 4).")
final class ApplyCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "PLAN_ID")
    String planId;

    @Override
    public Integer call() {
        var planApply = ws().operations().planApply();
        return runReported(s -> planApply.apply(planId, this::job, s.engine));
    }
}
