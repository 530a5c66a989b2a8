package io.keyline.cli;

import io.keyline.store.StateMaintenance;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "prune", description = {
    "Deletes key events older than --events-older-than, and keeps:",
    "  - every event of each key's latest run (from its last claim on, with the operator actions after it), and every "
        + "event of a key that never ran;",
    "  - every event of a key that is FAILED, NEEDS_CONFIRMATION or NEEDS_CREDENTIAL now (its evidence).",
    "Key states are never touched. logs/runs.jsonl is rotated by size instead (KEYLINE_LOG_MAX, KEYLINE_LOG_FILES)."})
final class PruneCommand extends Sub implements Callable<Integer> {

    @Option(names = "--events-older-than", paramLabel = "DURATION", required = true,
            description = "ISO-8601 age, at least one day, e.g. P90D.")
    String olderThan;

    @Option(names = "--dry-run", description = "Only count the events that would be deleted.")
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
        int n = new StateMaintenance(ws().database()).prune(cutoff, dryRun);
        out().println(t(dryRun ? "cli.prune.wouldDelete" : "cli.prune.deleted", n, Text.time(cutoff)));
        return 0;
    }
}
