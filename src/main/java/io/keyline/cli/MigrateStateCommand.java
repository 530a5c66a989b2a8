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

@Command(name = "migrate-state")
final class MigrateStateCommand extends Sub implements Callable<Integer> {

    @Option(names = "--to", required = true, paramLabel = "URL")
    String to;

    @Override
    public Integer call() {
        if (ws().shared()) {
            throw new UsageError(t("cli.migrate.alreadyPostgres", ws().stateName()));
        }
        StateLocation target;
        try {
            target = StateLocation.parse(to, root().env());
        } catch (StateLocation.BadValueException e) {
            throw new UsageError(e.option("--to").getMessage());
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
