package io.keyline.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "retry", description = "Re-arms a FAILED, SKIPPED or NEEDS_CREDENTIAL key with a fresh retry budget; the "
        + "next run picks it up, or --run runs it now (as the console's Retry does; exit codes as for run). With "
        + "--from-step S the key goes back to step S: S and the steps after it run again and their outputs are "
        + "discarded (a token of an old login, say); an unsafe step among them still goes through its probe.")
final class RetryCommand extends Sub implements Callable<Integer> {

    @Mixin
    KeyTarget target;

    @Option(names = "--note", paramLabel = "T", description = "Why (kept in the key's timeline).")
    String note;

    @Option(names = "--run", description = "Run the key right after re-arming it.")
    boolean run;

    @Option(names = "--from-step", paramLabel = "S", description = "Go back to step S: it and the steps after it run "
            + "again, their outputs discarded (default: resume where the key stopped).")
    String fromStep;

    @Override
    public Integer call() {
        KeyTarget.Target t = target.resolve(this);
        if (run) {
            return runReported(s -> ws().operations().keyActions().retryAndRun(t.job(), t.key(), note, fromStep,
                    s.engine).report());
        }
        ws().operations().keyActions().retry(t.job(), t.key(), note, fromStep);
        String run = String.format("keyline run %s --key %s", t.job().name(), t.key());
        out().println(fromStep == null ? t("cli.retry.done", t, run, "retry --run")
                : t("cli.retry.doneFrom", t, fromStep, run, "retry --run"));
        return 0;
    }
}
