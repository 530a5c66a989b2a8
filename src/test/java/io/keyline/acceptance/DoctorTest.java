package io.keyline.acceptance;

import io.keyline.testing.SiteTestBase;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Loud by default: without {@code notify.json} a key that waits for a person still reaches one through the
 * desktop notification ({@code notify-send}, a test double here) when it is installed, and
 * {@code keyline doctor} says which channel is active and warns when none is. The machine's own
 * {@code notify-send} and desktop session are kept out: {@code PATH} is a folder of the test's own.
 */
class DoctorTest extends SiteTestBase {

    static final String KEY = "2026-11-29";
    Path bin;

    @BeforeEach
    void ownPathAndNoDesktopSession() throws IOException {
        bin = Files.createDirectories(tmp.resolve("bin"));
        wb.env().put("PATH", bin + ":/usr/bin:/bin");
        wb.env().remove("DBUS_SESSION_BUS_ADDRESS");
        wb.env().remove("XDG_RUNTIME_DIR");
        wb.job("c", Jobs.command("c", "none", "echo 'the site says no' >&2; exit 65", "PT10S"), null);
    }

    /** A {@code notify-send} that writes each argument it was given as one line of {@code notify-send.log}. */
    Path notifySendDouble() throws IOException {
        Path p = bin.resolve("notify-send");
        Files.writeString(p, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >> '"
                + tmp.resolve("notify-send.log") + "'\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }

    /** Whether {@code PATH} finds a notify-send other than ours (a desktop machine): the "without" case needs none. */
    boolean machineHasNotifySend() {
        return Files.isExecutable(Path.of("/usr/bin/notify-send")) || Files.isExecutable(Path.of("/bin/notify-send"));
    }

    @Test
    void withoutNotifyJsonAndWithoutNotifySendNothingIsActiveAndDoctorWarns() {
        org.junit.jupiter.api.Assumptions.assumeFalse(machineHasNotifySend(), "this machine has notify-send");
        assertThat(wb.cli("run", "c", "--key", KEY).exit()).isEqualTo(2);

        Result r = wb.cli("doctor");

        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains("notify-send is not installed").contains("console: not open")
                .contains("! no channel is active");
    }

    @Test
    void withNotifySendInstalledTheDesktopNotificationIsTheDefaultAndItIsUsed() throws IOException {
        notifySendDouble();
        wb.env().put("DBUS_SESSION_BUS_ADDRESS", "unix:path=" + tmp.resolve("bus"));

        Result run = wb.cli("run", "c", "--key", KEY);
        assertThat(run.exit()).as(run.toString()).isEqualTo(2);
        List<String> args = Files.readAllLines(tmp.resolve("notify-send.log"));
        assertThat(args).as("one desktop notification for the failed key").startsWith("--app-name=Keyline",
                "--urgency=critical", "--", "Keyline");
        assertThat(args.get(4)).contains("c " + KEY + " FAILED").contains("the site says no");

        Result r = wb.cli("doctor");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("desktop notification: active, through " + bin.resolve("notify-send"))
                .contains("active: desktop notification").doesNotContain("! ");
    }

    @Test
    void notifySendWithoutADesktopSessionIsSaidSoAndIsNotCountedActive() throws IOException {
        notifySendDouble();
        assertThat(wb.cli("run", "c", "--key", KEY).exit()).isEqualTo(2);
        assertThat(tmp.resolve("notify-send.log")).as("no session bus (cron): not called").doesNotExist();

        Result r = wb.cli("doctor");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains("no desktop session is reachable from here").contains("! no channel is active");
    }

    @Test
    void withNotifyJsonItsHooksAreCheckedWithoutSendingAndTheyReplaceTheDefault() throws IOException {
        notifySendDouble();
        wb.env().put("DBUS_SESSION_BUS_ADDRESS", "unix:path=" + tmp.resolve("bus"));
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Files.writeString(wb.jobs.resolve("notify.json"), """
                { "hooks": [
                  { "name": "log", "on": ["attention", "reminder"], "command": ["sh", "-c", "cat >> events.jsonl"] },
                  { "name": "team", "on": ["attention"], "webhook": "%s/hooks/T000/SECRETTOKEN", "format": "slack" }
                ] }
                """.formatted(site.base()));
        assertThat(wb.cli("run", "c", "--key", KEY).exit()).isEqualTo(2);
        assertThat(tmp.resolve("notify-send.log")).as("notify.json replaces the default").doesNotExist();
        int received = site.server().received().size();

        Result ok = wb.cli("doctor");
        assertThat(ok.exit()).as(ok.toString()).isZero();
        assertThat(ok.out()).contains("hook 1 \"log\" (command sh) on attention, reminder: program found")
                .contains("hook 2 \"team\"").contains("reachable").contains("nothing was sent")
                .contains("not used: notify.json says where notifications go").doesNotContain("SECRETTOKEN");
        assertThat(site.server().received()).as("the doctor sends nothing").hasSize(received);

        Files.writeString(wb.jobs.resolve("notify.json"), """
                { "hooks": [
                  { "on": ["attention"], "webhook": "http://127.0.0.1:%d/hook", "format": "json" },
                  { "on": ["attention"], "command": ["no-such-notifier"] }
                ] }
                """.formatted(closed));
        Result bad = wb.cli("doctor");
        assertThat(bad.exit()).as(bad.toString()).isEqualTo(1);
        assertThat(bad.out()).contains("! hook 1 (webhook http://127.0.0.1:" + closed + "/… (json)) on attention: "
                + "cannot connect").contains("! hook 2 (command no-such-notifier) on attention: program "
                + "no-such-notifier not found").contains("! no channel is active");
    }

    @Test
    void withoutAStateTheDoctorSaysSoAndCreatesNone() {
        Result r = wb.cli("doctor");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains("! no state in " + wb.state);
        assertThat(wb.state.resolve("keyline.mv.db")).doesNotExist();
    }
}
