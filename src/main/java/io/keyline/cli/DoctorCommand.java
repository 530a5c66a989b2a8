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

import static io.keyline.text.Text.t;

@Command(name = "doctor")
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
        out().println(problems == 0 ? t("cli.doctor.nothing") : t("cli.doctor.toFix", problems));
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
        out().println(t("cli.doctor.state", ws().stateName()));
        StateLocation where = ws().location();
        if (where instanceof StateLocation.Folder f && !Files.isRegularFile(f.dir().resolve("keyline.mv.db"))) {
            problem(t("cli.doctor.noState", f.dir()));
            return false;
        }
        try {
            Status attention = ws().operations().status(null, true, ws().catalog().jobs());
            long waiting = attention.rows().stream().filter(r -> r.key().state().needsAttention()).count();
            ok(waiting == 0 ? t("cli.doctor.found") : t("cli.doctor.foundWaiting", waiting));
            return true;
        } catch (RuntimeException e) {
            problem(t("cli.doctor.cannotReadState", e.getMessage()));
            return false;
        }
    }

    private void jobs() {
        out().println(t("cli.doctor.jobs", ws().jobsDir()));
        JobCatalog catalog = ws().catalog();
        if (catalog.jobs().isEmpty() && catalog.errors().isEmpty()) {
            problem(t("cli.doctor.noJobs", ws().jobsDir()));
            return;
        }
        ok(t("cli.doctor.validJobs", catalog.jobs().size()));
        for (String file : RunOutput.invalidFiles(catalog.errors())) {
            problem(t("cli.doctor.invalidJob", file));
        }
        for (JobFileError e : catalog.errors()) {
            ok("  " + e);
        }
    }

    /** Where the master key comes from, and whether the stored credentials decrypt with it. */
    private void masterKey(boolean stateFound) {
        out().println(t("cli.doctor.masterKey"));
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
                ok(given.containsKey(SecretBox.MASTER_KEY_VARIABLE)
                        ? t("cli.doctor.keyFromVariable", SecretBox.MASTER_KEY_VARIABLE)
                        : t("cli.doctor.keyFromFile", given.get(SecretBox.MASTER_KEY_FILE_VARIABLE)));
            }
        } catch (RuntimeException | java.io.IOException e) {
            problem(t("cli.doctor.keyUnusable", e.getMessage()));
            return;
        }
        if (!haveKey) {
            if (ws().shared()) {
                problem(t("cli.doctor.sharedNeedsKey", SecretBox.MASTER_KEY_VARIABLE));
                return;
            }
            Path file = ws().stateDir().resolve(SecretBox.KEY_FILE_NAME);
            ok(Files.isRegularFile(file) ? t("cli.doctor.keyFrom", file) : t("cli.doctor.noKeyYet", file));
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
                if (!l.present() && l.undecryptable()) {
                    unusable.add(l.problem().text());
                }
            }
            if (unusable.isEmpty()) {
                ok(all.isEmpty() ? t("cli.doctor.noCredentials") : t("cli.doctor.credentials", all.size()));
            }
            unusable.forEach(this::problem);
        } catch (RuntimeException e) {
            problem(t("cli.doctor.cannotReadCredentials", e.getMessage()));
        }
    }

    /** Who hears of a key that waits for a person; a warning when nobody would. */
    private void channels(boolean stateFound, Instant now) {
        out().println(t("cli.doctor.channels"));
        Map<String, String> env = root().env();
        NotifyConfig file = NotifyFileReader.load(ws().jobsDir());
        boolean fileExists = Files.exists(file.file());
        List<String> active = new ArrayList<>();
        if (fileExists && !file.valid()) {
            problem(t("cli.doctor.notifyInvalid", file.file()));
        } else if (fileExists) {
            ok(t("cli.doctor.hooks", file.file(), file.hooks().size()));
            for (Hook h : file.hooks()) {
                HookCheck.Result r = HookCheck.check(h, ws().jobsDir(), env, CONNECT_TIMEOUT);
                String line = t("cli.doctor.hook", h.label(), String.join(", ", h.on()), r.text());
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
                ok("  " + t("cli.doctor.noReminder"));
            }
        } else {
            ok(t("cli.doctor.noNotifyFile", file.file()));
        }
        Optional<Path> notifySend = Channels.notifySend(env);
        Optional<String> bus = Channels.sessionBus(env);
        if (notifySend.isEmpty()) {
            ok(t("cli.doctor.noNotifySend"));
        } else if (bus.isEmpty()) {
            ok(t("cli.doctor.noSession", notifySend.get()));
        } else if (fileExists) {
            ok(t("cli.doctor.desktopNotUsed", notifySend.get(), bus.get()));
        } else {
            ok(t("cli.doctor.desktopActive", notifySend.get(), bus.get()));
            active.add(t("cli.doctor.channel.desktop"));
        }
        if (stateFound) {
            try {
                List<WorkerRegistry.Worker> consoles = ws().operations().workers(now).stream()
                        .filter(w -> w.alive() && java.util.Objects.equals(w.kind(), "console")).toList();
                for (WorkerRegistry.Worker w : consoles) {
                    ok(t("cli.doctor.consoleOpen", w.host(), String.valueOf(w.pid())));
                    active.add(t("cli.doctor.channel.console"));
                }
                if (consoles.isEmpty()) {
                    ok(t("cli.doctor.consoleClosed"));
                }
            } catch (RuntimeException e) {
                ok(t("cli.doctor.consoleUnknown", e.getMessage()));
            }
        }
        if (active.isEmpty()) {
            problem(t("cli.doctor.noChannel", file.file()));
        } else {
            ok(t("cli.doctor.active", String.join(", ", active.stream().distinct().toList())));
        }
    }
}
