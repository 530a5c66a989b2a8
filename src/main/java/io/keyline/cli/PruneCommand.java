package io.keyline.cli;

import io.keyline.store.StateMaintenance;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "prune")
final class PruneCommand extends Sub implements Callable<Integer> {

    @Option(names = "--events-older-than", paramLabel = "DURATION", required = true)
    String olderThan;

    @Option(names = "--dry-run")
    boolean dryRun;

    @Override
    public Integer call() {
        Duration age;
        try {
            age = Duration.parse(olderThan);
        } catch (DateTimeParseException e) {
            throw new UsageError(t("cli.prune.badDuration", "--events-older-than", olderThan));
        }
        if (age.compareTo(Duration.ofDays(1)) < 0) {
            throw new UsageError(t("cli.prune.tooShort", "--events-older-than", olderThan));
        }
        Instant cutoff = ws().options().clock().instant().minus(age);
        StateMaintenance.Pruned pruned = new StateMaintenance(ws().database()).prune(cutoff, dryRun);
        out().println(t(dryRun ? "cli.prune.wouldDelete" : "cli.prune.deleted", pruned.events(), Text.time(cutoff),
                pruned.plans()));
        return 0;
    }
}
