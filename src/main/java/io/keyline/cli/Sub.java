package io.keyline.cli;

import io.keyline.app.Workspace;
import io.keyline.core.OperatorException;
import io.keyline.core.Targets;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRules;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Shared plumbing of the subcommands. */
abstract class Sub {
    @ParentCommand
    Object parentCommand;

    /** The root command; nested subcommands reach it through their parent. */
    KeylineCli root() {
        return parentCommand instanceof Sub s ? s.root() : (KeylineCli) parentCommand;
    }

    PrintStream out() {
        return root().out;
    }

    PrintStream err() {
        return root().err;
    }

    Workspace ws() {
        return root().workspace();
    }

    JobDefinition job(String name) {
        return root().job(name);
    }

    /** How long the end of a CLI run may spend on notifications (a hook that hangs does not hold cron up). */
    static final Duration NOTIFY_BUDGET = Duration.ofSeconds(15);

    /**
     * After a run: queues the run events, delivers what is due (SPEC §10). Never changes the exit code:
     * problems are said on stderr and in the run log.
     */
    void notifyAfter(List<io.keyline.core.RunReport> reports, io.keyline.core.RunTrace trace) {
        try {
            io.keyline.core.notify.Notifier n = ws().notifier(trace, m -> err().println("keyline: " + m));
            n.runEnded(reports);
            n.dispatch(NOTIFY_BUDGET);
        } catch (RuntimeException e) {
            err().println("keyline: notifications: " + e.getMessage());
        }
    }

    /** The key options shared by plan and run. */
    static final class KeySelection {
        @Option(names = "--key", paramLabel = "K", description = "A key to target (repeatable).")
        List<String> keys = new ArrayList<>();

        @Option(names = "--from", paramLabel = "K", description = "First key of a range (date, week or month keys).")
        String from;

        @Option(names = "--to", paramLabel = "K", description = "Last key of a range (default: the current key).")
        String to;

        @Option(names = "--due", description = "Every due key: the latest schedule tick, missed ticks of the "
                + "catch-up window (default 7 days), pending keys and retries.")
        boolean due;

        @Option(names = "--ahead", description = "Allow keys later than the current one (ahead of schedule). "
                + "Without it such keys are not yet due: plan shows them as such, run refuses them.")
        boolean ahead;

        @Option(names = "--catch-up", paramLabel = "DURATION", description = "With --due: how far back missed "
                + "schedule ticks are caught up (ISO-8601, e.g. P7D, PT12H). Default: $KEYLINE_CATCH_UP or P7D.")
        String catchUp;

        /** The due keys of the last {@link #resolve} with --due (catch-up notes for the plan). */
        List<Targets.DueKey> lastDue = List.of();

        boolean any() {
            return !keys.isEmpty() || from != null || to != null || due;
        }

        /** The catch-up window: --catch-up, else $KEYLINE_CATCH_UP, else 7 days. */
        Duration window(Workspace ws) {
            if (catchUp != null && !due) {
                throw new UsageError("--catch-up goes with --due");
            }
            try {
                return Targets.catchUpWindow(catchUp != null ? catchUp : ws.setting("KEYLINE_CATCH_UP"));
            } catch (IllegalArgumentException e) {
                throw new UsageError(e.getMessage());
            }
        }

        /** Catch-up notes by key, from the last --due resolution. */
        java.util.Map<String, String> notes() {
            java.util.Map<String, String> out = new java.util.HashMap<>();
            lastDue.stream().filter(Targets.DueKey::catchUp).forEach(d -> out.put(d.key(), d.note()));
            return out;
        }

        /** How the keys were chosen, for the run log. */
        String describe() {
            if (!keys.isEmpty()) {
                return "--key " + String.join(" --key ", keys);
            }
            if (from != null) {
                return "--from " + from + (to == null ? "" : " --to " + to);
            }
            return due ? "--due" : "current";
        }

        /**
         * Refuses keys later than the job's current key unless {@code --ahead}: running them would publish
         * tomorrow's work today (SPEC §1).
         */
        void refuseNotYetDue(Workspace ws, JobDefinition job, List<String> targeted) {
            if (ahead || job.key().type() == io.keyline.domain.KeyType.MANUAL) {
                return;
            }
            String current = KeyRules.current(job.key(), ws.options().clock());
            List<String> later = targeted.stream().filter(k -> KeyRules.compare(job.key(), k, current) > 0).toList();
            if (!later.isEmpty()) {
                throw new OperatorException((later.size() == 1 ? later.get(0) + " is" : later.size() + " keys ("
                        + later.get(0) + " .. " + later.get(later.size() - 1) + ") are") + " not yet due: the current key "
                        + "of " + job.name() + " is " + current + " (" + job.key().zone() + "). Nothing ran. To run "
                        + (later.size() == 1 ? "it" : "them") + " ahead of schedule, add --ahead");
            }
        }

        /** The targeted keys; with no option, the current key of a date/week/month job. */
        List<String> resolve(Workspace ws, JobDefinition job) {
            int kinds = (keys.isEmpty() ? 0 : 1) + (from != null || to != null ? 1 : 0) + (due ? 1 : 0);
            if (kinds > 1) {
                throw new UsageError("choose one of --key, --from/--to and --due");
            }
            if (!keys.isEmpty()) {
                return Targets.explicit(job, keys);
            }
            if (to != null && from == null) {
                throw new UsageError("--to needs --from");
            }
            if (from != null) {
                String last = to != null ? to : KeyRules.current(job.key(), ws.options().clock());
                return Targets.range(job, from, last);
            }
            if (due) {
                lastDue = Targets.dueKeys(job, ws.store(), ws.options().clock().instant(), window(ws));
                return lastDue.stream().map(Targets.DueKey::key).toList();
            }
            try {
                return Targets.current(job, ws.options().clock());
            } catch (OperatorException e) {
                throw new UsageError(e.getMessage());
            }
        }
    }
}
