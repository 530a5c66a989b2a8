package io.keyline.cli;

import io.keyline.core.OperatorException;
import io.keyline.core.Plan;
import io.keyline.core.Planner;
import io.keyline.core.Review;
import io.keyline.core.RunReport;
import io.keyline.domain.JobDefinition;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.keyline.text.Text.t;

/**
 * A run typed by a person of several keys that would send unsafe steps: on a terminal it shows the plan and asks
 * y/N (yes also reviews the job's unsafe steps, as applying the plan would); without a terminal it needs
 * {@code --yes}. One key, or keys whose plans send no unsafe step, run without asking.
 */
final class RunConsent {

    private RunConsent() {
    }

    /**
     * Asks, when it must.
     *
     * @return {@code null} when the run goes on, else its exit code (nothing ran)
     * @throws OperatorException without a terminal and without {@code --yes} (exit 1)
     */
    static Integer ask(Sub cmd, JobDefinition job, List<String> keys, Map<String, io.keyline.text.Said> notes, boolean ahead,
                       boolean yes) {
        if (yes || keys.size() < 2 || Review.hash(job) == null) {
            return null;
        }
        java.io.Console console = cmd.root().asProcess ? System.console() : null;
        var planApply = cmd.ws().operations().planApply();
        // without a terminal nothing is shown: the plan (probes not asked) only says which keys would send
        Planner.Options options = Planner.Options.DEFAULT.withProbes(console != null).withAhead(ahead);
        Plan plan = console != null ? planApply.planAndSave(job, keys, notes, options)
                : planApply.plan(job, keys, notes, options);
        List<Plan.KeyPlan> sending = plan.sendingUnsafe(job);
        if (sending.size() < 2) {
            return null;
        }
        String steps = String.join(", ", plan.unsafeSent(job));
        String which = t("cli.consent.which", sending.size(), job.name(), sending.get(0).key(),
                sending.get(sending.size() - 1).key(), steps);
        if (console == null) {
            throw new OperatorException(t("cli.consent.noTerminal", which, job.name()));
        }
        PlanCommand.print(cmd, plan);
        cmd.out().flush();
        String answer = console.readLine("%s", t("cli.consent.ask", sending.size(), steps));
        String a = answer == null ? "" : answer.strip().toLowerCase(Locale.ROOT);
        if (!a.equals("y") && !a.equals("yes")) {
            cmd.out().println(t("cli.consent.declined", plan.planId()));
            return RunReport.EXECUTION_FAILURE;
        }
        if (plan.review().pending()) {
            cmd.ws().operations().actions().approve(job, t("cli.consent.note", sending.size(), plan.planId()));
        }
        return null;
    }
}
