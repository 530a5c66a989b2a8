package io.keyline.cli;

import io.keyline.app.Workspace;
import io.keyline.core.OperatorException;
import io.keyline.core.Targets;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRules;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.PrintStream;
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

    /** The key options shared by plan and run. */
    static final class KeySelection {
        @Option(names = "--key", paramLabel = "K", description = "A key to target (repeatable).")
        List<String> keys = new ArrayList<>();

        @Option(names = "--from", paramLabel = "K", description = "First key of a range (date, week or month keys).")
        String from;

        @Option(names = "--to", paramLabel = "K", description = "Last key of a range (default: the current key).")
        String to;

        @Option(names = "--due", description = "Every due key: missed schedule ticks of the last 7 days, "
                + "pending keys and retries.")
        boolean due;

        boolean any() {
            return !keys.isEmpty() || from != null || to != null || due;
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
                return Targets.due(job, ws.store(), ws.options().clock().instant(), Targets.DEFAULT_CATCH_UP);
            }
            try {
                return Targets.current(job, ws.options().clock());
            } catch (OperatorException e) {
                throw new UsageError(e.getMessage());
            }
        }
    }
}
