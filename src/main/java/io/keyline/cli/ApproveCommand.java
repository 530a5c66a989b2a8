package io.keyline.cli;

import io.keyline.core.OperatorActions;
import io.keyline.core.Review;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

@Command(name = "approve", description = {
    "Reviews a job's unsafe steps (their method, URL template, body template, command) as they are now: unattended "
        + "runs (run --due, the scheduler, workers) run a job only after that, and again after an unsafe step is "
        + "edited. Keys that waited for the review go back to PENDING: the next run takes them. Applying a plan of "
        + "the job (keyline plan JOB, then keyline apply PLAN_ID) reviews it too, with the requests shown.",
    "Audited (user, note). Exit 1 when the job has no unsafe steps (it needs no review)."})
final class ApproveCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "JOB")
    String jobName;

    @Option(names = "--note", paramLabel = "T", description = "Why (kept with the audit event).")
    String note;

    @Override
    public Integer call() {
        JobDefinition job = job(jobName);
        OperatorActions.Approval a = ws().operations().actions().approve(job, note);
        out().println((a.before().pending() ? "Approved" : "Already approved:") + " the unsafe steps of " + job.name()
                + " (" + a.hash().substring(0, 12) + "):");
        for (String s : Review.unsafeSteps(job)) {
            out().println("  " + s);
        }
        if (a.released().isEmpty()) {
            out().println("No key waited for the review. Unattended runs (run --due, the scheduler, workers) now run "
                    + "this job; an edit of an unsafe step asks for a review again.");
        } else {
            out().println(a.released().size() + (a.released().size() == 1 ? " key waited" : " keys waited")
                    + " for the review and " + (a.released().size() == 1 ? "goes" : "go") + " back to PENDING: "
                    + String.join(", ", a.released().stream().map(KeyRecord::key).limit(20).toList())
                    + (a.released().size() > 20 ? ", …" : "") + ". The next run takes "
                    + (a.released().size() == 1 ? "it" : "them") + " (keyline run --due).");
        }
        return 0;
    }
}
