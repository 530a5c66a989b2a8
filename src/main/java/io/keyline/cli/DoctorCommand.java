package io.keyline.cli;

import io.keyline.core.CredentialInfo;
import io.keyline.core.CredentialProvider;
import io.keyline.core.CredentialStore;
import io.keyline.core.WorkerRegistry;
import io.keyline.core.jobfile.Hook;
import io.keyline.core.jobfile.JobCatalog;
import io.keyline.core.jobfile.JobFileError;
import io.keyline.core.jobfile.NotifyConfig;
import io.keyline.core.jobfile.NotifyFileReader;
import io.keyline.core.notify.Channels;
import io.keyline.core.notify.HookCheck;
import io.keyline.core.operations.Status;
import io.keyline.credentials.SecretBox;
import io.keyline.store.StateLocation;
import picocli.CommandLine.Command;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

@Command(name = "doctor", description = {
    "Checks what an operator should know before leaving Keyline alone: the state (found, keys waiting), the job "
        + "files, the master key and the credentials it decrypts, and which channel tells a person that a key waits "
        + "(notify.json's hooks, reached without sending anything; the desktop notification through notify-send; "
        + "an open console). Warns when no channel would reach anyone.",
    "Sends nothing, runs nothing, creates nothing. Exit 0 when nothing needs fixing, 1 when a line starts with \"!\"."})
final class DoctorCommand extends Sub implements Callable<Integer> {

    /** How long a webhook's host may take to accept a connection. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private int problems;

    @Override
    public Integer call() {
        Instant now = ws().options().clock().instant();
        boolean stateFound = state(now);
        jobs();
        masterKey(stateFound);
        channels(stateFound, now);
        out().println();
        out().println(problems == 0 ? "Nothing needs fixing." : problems + " thing" + (problems == 1 ? "" : "s")
                + " to fix (the lines that start with \"!\").");
        return problems == 0 ? 0 : 1;
    }

    private void ok(String text) {
        out().println("  " + text);
    }

    private void problem(String text) {
        problems++;
        out().println("! " + text);
    }

    /** The state: where it is, whether it exists (never created here), how many keys wait for a person. */
    private boolean state(Instant now) {
        out().println("State: " + ws().stateName());
        StateLocation where = ws().location();
        if (where instanceof StateLocation.Folder f && !Files.isRegularFile(f.dir().resolve("keyline.mv.db"))) {
            problem("no state in " + f.dir() + " (keyline.mv.db is not there): a run from here would not find the "
                    + "keys that are done; point --state or KEYLINE_STATE at the state in use");
            return false;
        }
        try {
            Status attention = ws().operations().status(null, true, ws().catalog().jobs());
            long waiting = attention.rows().stream().filter(r -> r.key().state().needsAttention()).count();
            ok("found; " + (waiting == 0 ? "no key waits for a person"
                    : waiting + " key" + (waiting == 1 ? " waits" : "s wait") + " for a person (keyline status "
                    + "--attention)"));
            return true;
        } catch (RuntimeException e) {
            problem("cannot read the state: " + e.getMessage());
            return false;
        }
    }

    private void jobs() {
        out().println("Jobs: " + ws().jobsDir());
        JobCatalog catalog = ws().catalog();
        if (catalog.jobs().isEmpty() && catalog.errors().isEmpty()) {
            problem("no job files (*.json) in " + ws().jobsDir() + ": nothing would run");
            return;
        }
        ok(catalog.jobs().size() + " valid job file" + (catalog.jobs().size() == 1 ? "" : "s"));
        for (String file : RunOutput.invalidFiles(catalog.errors())) {
            problem("invalid job file, its job does not run: " + file + " (keyline jobs shows why)");
        }
        for (JobFileError e : catalog.errors()) {
            ok("  " + e);
        }
    }

    /** Where the master key comes from, and whether the stored credentials decrypt with it. */
    private void masterKey(boolean stateFound) {
        out().println("Master key:");
        Map<String, String> given = new HashMap<>();
        for (String name : List.of(SecretBox.MASTER_KEY_VARIABLE, SecretBox.MASTER_KEY_FILE_VARIABLE)) {
            if (ws().setting(name) != null) {
                given.put(name, ws().setting(name));
            }
        }
        boolean haveKey;
        try {
            haveKey = SecretBox.given(given).isPresent();
            if (haveKey) {
                ok(given.containsKey(SecretBox.MASTER_KEY_VARIABLE) ? "from $" + SecretBox.MASTER_KEY_VARIABLE
                        : "from the file " + given.get(SecretBox.MASTER_KEY_FILE_VARIABLE));
            }
        } catch (RuntimeException | java.io.IOException e) {
            problem("the master key given is unusable: " + e.getMessage());
            return;
        }
        if (!haveKey) {
            if (ws().shared()) {
                problem("a shared state needs the master key given: $" + SecretBox.MASTER_KEY_VARIABLE
                        + " or --master-key-file (the same key on every machine)");
                return;
            }
            Path file = ws().stateDir().resolve(SecretBox.KEY_FILE_NAME);
            ok(Files.isRegularFile(file) ? "from " + file : "none yet: " + file
                    + " is created (mode 0600) when the first credential is stored");
        }
        if (!stateFound) {
            return;
        }
        try {
            CredentialStore credentials = ws().credentials();
            List<CredentialInfo> all = credentials.list();
            List<String> unusable = new ArrayList<>();
            for (CredentialInfo i : all) {
                CredentialProvider.Lookup l = credentials.lookup(i.name());
                if (!l.present() && l.problem() != null && l.problem().contains("decrypt")) {
                    unusable.add(l.problem());
                }
            }
            if (unusable.isEmpty()) {
                ok(all.isEmpty() ? "no credentials stored" : all.size() + " credential" + (all.size() == 1 ? "" : "s")
                        + " stored; " + (all.size() == 1 ? "it decrypts" : "all decrypt") + " with this key");
            }
            unusable.forEach(this::problem);
        } catch (RuntimeException e) {
            problem("cannot read the credentials: " + e.getMessage());
        }
    }

    /** Who hears of a key that waits for a person; a warning when nobody would. */
    private void channels(boolean stateFound, Instant now) {
        out().println("Who is told when a key waits for a person:");
        Map<String, String> env = root().env();
        NotifyConfig file = NotifyFileReader.load(ws().jobsDir());
        boolean fileExists = Files.exists(file.file());
        List<String> active = new ArrayList<>();
        if (fileExists && !file.valid()) {
            problem(file.file() + " is invalid: no notification is sent until it is fixed (keyline notify test "
                    + "shows the errors)");
        } else if (fileExists) {
            ok(file.file() + ": " + file.hooks().size() + " hook" + (file.hooks().size() == 1 ? "" : "s"));
            for (Hook h : file.hooks()) {
                HookCheck.Result r = HookCheck.check(h, ws().jobsDir(), env, CONNECT_TIMEOUT);
                String line = h.label() + " on " + String.join(", ", h.on()) + ": " + r.text();
                if (r.ok()) {
                    ok("  " + line);
                } else {
                    problem(line);
                }
                if (r.ok() && h.on().contains("attention")) {
                    active.add(h.label());
                }
            }
            if (file.hooks().stream().noneMatch(h -> h.on().contains("reminder"))) {
                ok("  (no hook listens to \"reminder\": keys that keep waiting are not reminded of daily)");
            }
        } else {
            ok(file.file() + ": none (the default channels below are used)");
        }
        Optional<Path> notifySend = Channels.notifySend(env);
        Optional<String> bus = Channels.sessionBus(env);
        if (notifySend.isEmpty()) {
            ok("desktop notification: notify-send is not installed (package libnotify-bin)");
        } else if (bus.isEmpty()) {
            ok("desktop notification: " + notifySend.get() + " is installed, but no desktop session is reachable "
                    + "from here ($DBUS_SESSION_BUS_ADDRESS, $XDG_RUNTIME_DIR/bus): not from cron or ssh");
        } else if (fileExists) {
            ok("desktop notification: " + notifySend.get() + " (session bus " + bus.get() + "), not used: "
                    + "notify.json says where notifications go");
        } else {
            ok("desktop notification: active, through " + notifySend.get() + " (session bus " + bus.get() + ")");
            active.add("desktop notification");
        }
        if (stateFound) {
            try {
                List<WorkerRegistry.Worker> consoles = ws().operations().workers(now).stream()
                        .filter(w -> w.alive() && "console".equals(w.kind())).toList();
                for (WorkerRegistry.Worker w : consoles) {
                    ok("console: open on " + w.host() + " (pid " + w.pid() + "): it shows what waits as it happens");
                    active.add("console");
                }
                if (consoles.isEmpty()) {
                    ok("console: not open");
                }
            } catch (RuntimeException e) {
                ok("console: unknown (" + e.getMessage() + ")");
            }
        }
        if (active.isEmpty()) {
            problem("no channel is active: a key that waits for a person (a rejected login at 03:00, an unknown "
                    + "outcome) reaches nobody. Add hooks to " + file.file() + " (docs/operations.md, "
                    + "\"Notifications\"), or install notify-send in a desktop session, or keep the console open");
        } else {
            ok("active: " + String.join(", ", active.stream().distinct().toList()));
        }
    }
}
