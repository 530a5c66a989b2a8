package io.keyline.cli;

import io.keyline.store.StateMaintenance;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "backup")
final class BackupCommand extends Sub implements Callable<Integer> {

    /** As typed: a {@code Path} drops the trailing "/" that says the operator named a folder. */
    @Parameters(index = "0", paramLabel = "FILE", descriptionKey = "FILE")
    String target;

    @Override
    public Integer call() {
        Path file = Path.of(target);
        if (target.endsWith("/") || target.endsWith(java.io.File.separator)) {
            throw new UsageError(t("core.store.backup.isFolder", file.toAbsolutePath().normalize().toString()));
        }
        if (ws().shared()) {
            // a PostgreSQL state is backed up with the server's own tools (consistent while in use, restorable)
            var pg = (io.keyline.store.StateLocation.Postgres) ws().location();
            err().println(t("cli.backup.postgres", ws().stateName(), pg.host(), String.valueOf(pg.port()), pg.user(),
                    String.valueOf(file), pg.database()));
            return io.keyline.core.RunReport.EXECUTION_FAILURE;
        }
        long bytes;
        try {
            bytes = new StateMaintenance(ws().database()).backup(file);
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage());
        }
        out().println(t("cli.backup.written", String.valueOf(ws().stateDir()),
                String.valueOf(file.toAbsolutePath().normalize()), bytes));
        out().println(t("cli.backup.restore", String.valueOf(file)));
        return 0;
    }
}
