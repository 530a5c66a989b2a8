package io.keyline.cli;

import io.keyline.core.OperatorException;
import io.keyline.core.Plan;
import io.keyline.core.RunReport;
import io.keyline.core.RunTrace;
import io.keyline.core.StateStore;
import io.keyline.domain.JobDefinition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "apply", description = "Executes a plan made by 'keyline plan', exactly; refuses (exit 1) if the job file "
        + "or the state of its keys changed since.")
final class ApplyCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "PLAN_ID")
    String planId;

    @Override
    public Integer call() {
        StateStore.SavedPlan saved = ws().store().plan(planId).orElseThrow(() -> new OperatorException(
                "no plan " + planId + " in " + ws().stateDir() + " (plans are made by 'keyline plan JOB')"));
        JobDefinition job = job(saved.job());
        Plan now = ws().planner().plan(job, saved.keys());
        if (!now.planId().equals(planId)) {
            throw new OperatorException("plan " + planId + " is stale: the job file or the state of its keys changed "
                    + "since it was made (now " + now.planId() + "). Review it again: keyline plan " + job.name()
                    + (saved.keys().size() == 1 ? " --key " + saved.keys().get(0) : ""));
        }
        try (RunTrace trace = ws().trace(out())) {
            RunReport report = ws().engine(trace).run(job, saved.keys());
            int exit = report.exitCode();
            RunOutput.summary(out(), List.of(report), exit);
            notifyAfter(List.of(report), trace);
            return exit;
        }
    }
}
