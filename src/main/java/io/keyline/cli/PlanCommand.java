package io.keyline.cli;

import io.keyline.core.Plan;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.Printable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.keyline.text.Text.t;

@Command(name = "plan")
final class PlanCommand extends JobCommand {

    /** Above this many keys, keys with the same action are summarized. */
    private static final int DETAIL_LIMIT = 200;

    @Mixin
    KeySelection selection;

    @Mixin
    JsonOutput json;

    @Option(names = "--no-probes")
    boolean noProbes;

    @Override
    int call(JobDefinition job) {
        if (job.key().type() == io.keyline.domain.KeyType.MANUAL && selection.none()) {
            // no current key to plan: the keys a run --due takes (those that wait for the job's review among them)
            selection.due = true;
        }
        List<String> keys = selection.resolve(ws(), job);
        warnOf(job);
        Plan plan = ws().operations().planApply().planAndSave(job, keys, selection.notes(),
                io.keyline.core.Planner.Options.DEFAULT.withProbes(!noProbes).withAhead(selection.ahead));
        if (json.on) {
            Text.json(out(), plan);
            return 0;
        }
        print(plan);
        return 0;
    }

    private void print(Plan plan) {
        print(this, plan);
        out().println(t("cli.plan.apply", plan.planId()));
    }

    /** {@code s} and spaces to {@code columns} terminal columns (a Chinese state name takes two per character). */
    private static String pad(String s, int columns) {
        return s + " ".repeat(Math.max(0, columns - Text.Table.width(s)));
    }

    /** The plan as {@code plan} prints it (without the line that says how to apply it). */
    static void print(Sub cmd, Plan plan) {
        java.io.PrintStream out = cmd.out();
        out.println(t("cli.plan.header", plan.planId(), plan.job(), plan.keys().size()));
        if (plan.paused() != null) {
            out.println("  " + t("cli.plan.paused", plan.paused()));
        }
        if (plan.review().pending()) {
            out.println("  " + t("cli.plan.review", t("cli.plan.need." + plan.review().name()), plan.job()));
            for (String s : io.keyline.core.Review.unsafeSteps(cmd.job(plan.job()))) {
                out.println("    " + Printable.line(s));
            }
        }
        Map<String, Integer> collapsed = new LinkedHashMap<>();
        int shown = 0;
        for (Plan.KeyPlan k : plan.keys()) {
            boolean quiet = !k.runs() && k.requests().isEmpty();
            if (plan.keys().size() > DETAIL_LIMIT && (quiet || shown >= DETAIL_LIMIT)) {
                collapsed.merge(io.keyline.core.operations.PlanText.fold(k.action()), 1, Integer::sum);
                continue;
            }
            shown++;
            out.println("  " + pad(k.key(), 12) + " " + pad(RunOutput.state(k.state()), 19) + " "
                    + Printable.line(k.action()));
            out.print(io.keyline.core.operations.PlanText.requests(k, "      "));
        }
        collapsed.forEach((action, n) -> out.println("  " + t("cli.plan.collapsed", n, action)));
    }
}
