package io.keyline.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

@Command(name = "apply")
final class ApplyCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "PLAN_ID")
    String planId;

    @Override
    public Integer call() {
        var planApply = ws().operations().planApply();
        return runReported(s -> planApply.apply(planId, this::job, s.engine));
    }
}
