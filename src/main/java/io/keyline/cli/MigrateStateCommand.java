package io.keyline.cli;

import io.keyline.store.Database;
import io.keyline.workspace.Workspace;
import io.keyline.store.StateLocation;
import io.keyline.store.StateMigration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.Map;
import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "migrate-state", description = {
    "Copies this (embedded) state into an empty PostgreSQL database, for several machines to share: keys, step "
        + "records, events, credentials (still encrypted: use the same master key there), pauses, saved plans, the "
        + "notification cursor and outbox. One transaction; the rows of every table are counted on both sides.",
    "Stop the console, runs and workers on this state first. Afterwards point every machine at the database "
        + "(--state or KEYLINE_STATE) with the same master key (KEYLINE_MASTER_KEY or --master-key-file: the "
        + "content of this state's secret.key). This state is left as it was."})
final class MigrateStateCommand extends Sub implements Callable<Integer> {

    @Option(names = "--to", required = true, paramLabel = "URL",
            description = "postgresql://HOST[:PORT]/DB[?user=U] of an empty database (password from PGPASSWORD, "
                    + "~/.pgpass or the URL).")
    String to;

    @Override
    public Integer call() {
        if (ws().shared()) {
            throw new UsageError(t("cli.migrate.alreadyPostgres", ws().stateName()));
        }
        StateLocation target;
        try {
            target = StateLocation.parse(to, root().env());
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage().replace("--state", "--to"));
        }
        if (!target.shared()) {
            throw new UsageError(t("cli.migrate.notPostgres", "--to"));
        }
        StateMigration.Result r;
        try (Database into = Workspace.open(target)) {
            r = StateMigration.copy(ws().database(), into, ws().options().clock().instant());
        } catch (IllegalStateException e) {
            throw new io.keyline.core.OperatorException(e.getMessage());
        }
        out().println(t("cli.migrate.copied", ws().stateName(), target.display()));
        for (Map.Entry<String, Long> e : r.rows().entrySet()) {
            out().println("  " + t("cli.migrate.rows", e.getKey(), e.getValue()));
        }
        if (r.keyFingerprint() != null) {
            out().println(t("cli.migrate.masterKey", r.keyFingerprint(), String.valueOf(ws().stateDir().resolve("secret.key"))));
        }
        out().println(t("cli.migrate.next", target.display()));
        return 0;
    }
}
