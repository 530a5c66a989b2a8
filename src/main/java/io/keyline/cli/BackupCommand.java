package io.keyline.cli;

import io.keyline.store.StateMaintenance;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "backup", description = {
    "Writes a consistent copy of the state to FILE (a zip holding keyline.mv.db), also while the console or a run "
        + "uses it. It is written in a private folder (0700) next to FILE and moved into place with permissions 0600: "
        + "no other user can read it, at any moment.",
    "Credentials are in it only as stored (encrypted): keep state/secret.key (or KEYLINE_MASTER_KEY) apart from it. "
        + "Restore: unzip it into an empty state folder (docs/operations.md).",
    "On a PostgreSQL state, back up with pg_dump (this command says how, and exits 1)."})
final class BackupCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FILE", description = "The backup to write (e.g. keyline-2026-11-29.zip).")
    Path file;

    @Override
    public Integer call() {
        if (ws().shared()) {
            // a PostgreSQL state is backed up with the server's own tools (consistent while in use, restorable)
            var pg = (io.keyline.store.StateLocation.Postgres) ws().location();
            err().println("keyline: backup: the state is the PostgreSQL database " + ws().stateName() + "; back it up "
                    + "with PostgreSQL's own tool, consistent while workers run: pg_dump -Fc -h " + pg.host() + " -p "
                    + pg.port() + " -U " + pg.user() + " -f " + file + " " + pg.database()
                    + " (restore into an empty database with pg_restore -d DB " + file + "). "
                    + "'keyline export --json' writes keys and events as JSON.");
            return io.keyline.core.RunReport.EXECUTION_FAILURE;
        }
        long bytes;
        try {
            bytes = new StateMaintenance(ws().database()).backup(file);
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage());
        }
        out().println("backup of " + ws().stateDir() + " written to " + file.toAbsolutePath().normalize() + " ("
                + bytes + " bytes)");
        out().println("restore: mkdir -m 700 NEW_STATE && unzip " + file + " -d NEW_STATE "
                + "(and copy secret.key, or set KEYLINE_MASTER_KEY)");
        return 0;
    }
}
