package io.keyline.cli;

import io.keyline.workspace.Places;
import io.keyline.workspace.Workspace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import static io.keyline.text.Text.t;

@Command(name = "init")
final class InitCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", arity = "0..1", paramLabel = "DIR|URL", descriptionKey = "DIR")
    String dir;

    @Override
    public Integer call() {
        KeylineCli root = root();
        if (dir != null && root.state != null && !dir.equals(root.state)) {
            throw new UsageError(t("cli.init.twoStates", dir, "--state", root.state));
        }
        Places places = new Places(root.env(), root.workingDir());
        Places.Found target;
        try {
            target = places.toCreate(dir != null ? dir : root.state, root.jobs);
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage());
        }
        boolean folder = !target.state().shared();
        if (folder && target.exists()) {
            out().println(t("cli.init.exists", target.state().display()));
            out().println(t("cli.init.jobsFolder", target.jobsLine()));
            return 0;
        }
        if (folder) {
            // before anything is made for it: another program's folder is not made a state (opening refuses too)
            io.keyline.store.h2.H2Database.refuseOthersFolder(target.state().localDir());
            try {
                Files.createDirectories(target.jobs());
            } catch (IOException e) {
                err().println(t("cli.init.noJobsFolder", target.jobs(), e.getMessage()));
            }
        }
        Places.Found enclosing = places.find(null, null);
        try (Workspace ws = new Workspace(target.state(), target.jobs(), root.runOptions(), root.env())) {
            ws.database();
        }
        if (!folder) {
            out().println(t("cli.init.ready", target.state().display()));
            out().println(t("cli.init.pointAll", target.state().display()));
            return 0;
        }
        Path stateDir = target.state().localDir();
        out().println(t("cli.init.created", stateDir));
        out().println(t("cli.init.jobsRemembered", target.jobs()));
        if (Places.STATE_FOLDER.equals(String.valueOf(stateDir.getFileName()))) {
            out().println(t("cli.init.findsItself", stateDir.getParent(), stateDir));
        } else {
            out().println(t("cli.init.nameIt", stateDir));
        }
        if (enclosing.source() == Places.Source.WORKING_DIRECTORY && !enclosing.state().localDir().equals(stateDir)) {
            out().println(t("cli.init.enclosing", enclosing.state().display()));
        }
        return 0;
    }

}
