package io.keyline.cli;

import io.keyline.workspace.Workspace;
import io.keyline.domain.JobDefinition;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.keyline.text.Text.t;

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

    /**
     * A command that only reads has read what it prints ({@link Workspace#doneReading}): the state is let go before
     * the output is written.
     */
    void doneReading() {
        ws().doneReading();
    }

    /**
     * Says on stderr, once each, what the loader warns of in the file of {@code job} (a rule any 403 meets): the
     * job loads and runs, and the operator who runs or plans it reads why it may not do what they expect.
     */
    void warnOf(JobDefinition job) {
        warnOf(ws().catalog().warningsOf(job));
    }

    /** Says {@code warnings} of job files on stderr, one line each. */
    void warnOf(List<io.keyline.core.jobfile.JobFileError> warnings) {
        for (io.keyline.core.jobfile.JobFileError w : warnings) {
            err().println(t("cli.jobfile.warning", io.keyline.domain.Printable.line(w.toString())));
        }
    }

    JobDefinition job(String name) {
        return root().job(name);
    }

    /** Prints the one line that says what was done; exit 0. */
    int done(String line) {
        out().println(line);
        return 0;
    }

    /**
     * Runs keys in a session (its trace, engine and signal handling), prints the run's summary, queues and
     * delivers its notifications, and returns its exit code.
     */
    int runReported(java.util.function.Function<RunSession, io.keyline.core.RunReport> run) {
        try (RunSession s = new RunSession(this)) {
            io.keyline.core.RunReport report = run.apply(s);
            int exit = report.exitCode();
            RunOutput.summary(out(), List.of(report), exit, ws().credentials());
            notifyAfter(List.of(report), s.trace);
            return exit;
        }
    }

    /** How long the end of a CLI run may spend on notifications (a hook that hangs does not hold cron up). */
    static final Duration NOTIFY_BUDGET = Duration.ofSeconds(15);

    /**
     * After a run: queues the run events, delivers what is due. Never changes the exit code:
     * problems are said on stderr and in the run log.
     */
    void notifyAfter(List<io.keyline.core.RunReport> reports, io.keyline.core.RunTrace trace) {
        try {
            io.keyline.core.notify.Notifier n = ws().notifier(trace, m -> err().println(t("cli.worker.problem", m)));
            n.runEnded(reports);
            n.dispatch(NOTIFY_BUDGET);
        } catch (RuntimeException e) {
            err().println(t("cli.worker.notifyFailed", e.getMessage()));
        }
    }

    /**
     * {@code --json} of status, timeline and plan: JSON instead of the table (export prints only JSON and takes it for
     * symmetry). Each command's help says what its JSON is ({@code keyline.status.json}, …).
     */
    static final class JsonOutput {
        @Option(names = "--json")
        boolean on;
    }

    /**
     * {@code --from-step S} of retry and rearm: the step a key goes back to, so that it and the steps after it run
     * again (each command's help says its default).
     */
    static final class FromStep {
        @Option(names = "--from-step", paramLabel = "S")
        String step;
    }

    /** The key options shared by plan and run. */
    static final class KeySelection {
        @Option(names = "--key", descriptionKey = "selection.key", paramLabel = "K")
        List<String> keys = new ArrayList<>();

        @Option(names = "--from", descriptionKey = "selection.from", paramLabel = "K")
        String from;

        @Option(names = "--to", descriptionKey = "selection.to", paramLabel = "K")
        String to;

        @Option(names = "--due", descriptionKey = "selection.due")
        boolean due;

        @Option(names = "--ahead", descriptionKey = "selection.ahead")
        boolean ahead;

        @Option(names = "--catch-up", descriptionKey = "selection.catch-up", paramLabel = "DURATION")
        String catchUp;

        /** The catch-up notes of the last {@link #resolve} with --due (for the plan's actions). */
        private java.util.Map<String, io.keyline.text.Said> notes = java.util.Map.of();

        /** What the options say, for the core's key selection. */
        io.keyline.core.operations.KeySelection.Choice choice() {
            return new io.keyline.core.operations.KeySelection.Choice(keys, from, to, due, ahead);
        }

        /** The catch-up window: --catch-up, else $KEYLINE_CATCH_UP, else 7 days. */
        Duration window(Workspace ws) {
            return io.keyline.core.operations.KeySelection.window(catchUp, ws.setting("KEYLINE_CATCH_UP"), due);
        }

        /** Catch-up notes by key, from the last --due resolution. */
        java.util.Map<String, io.keyline.text.Said> notes() {
            return notes;
        }

        /** How the keys were chosen, for the run log. */
        String describe() {
            return choice().describe();
        }

        /** Refuses keys later than the job's current key unless {@code --ahead}. */
        void refuseNotYetDue(Workspace ws, JobDefinition job, List<String> targeted) {
            io.keyline.core.operations.KeySelection.refuseNotYetDue(job, targeted, ahead, ws.options().clock());
        }

        /** Whether no key, range or --due was given. */
        boolean none() {
            return keys.isEmpty() && from == null && to == null && !due;
        }

        /** The targeted keys; with no option, the current key of a date/week/month job. */
        List<String> resolve(Workspace ws, JobDefinition job) {
            var resolved = ws.operations().select(job, choice(), due ? window(ws) : null);
            notes = resolved.notes();
            return resolved.keys();
        }
    }
}
