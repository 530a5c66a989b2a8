package io.keyline.core.notify;

import io.keyline.core.jobfile.Hook;
import io.keyline.core.jobfile.NotifyConfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where notifications go when nobody configured anything: without {@code notify.json}, a desktop
 * notification ({@code notify-send}) when it is installed and a desktop session can be reached from here.
 * A {@code notify.json} (even one with no hooks) is the operator's choice and replaces the default.
 */
public final class Channels {

    /** The program that shows a desktop notification (libnotify). */
    public static final String NOTIFY_SEND = "notify-send";
    /** The events the desktop notification is shown for (not {@code run}: each key's attention says it already). */
    public static final List<String> DESKTOP_EVENTS = List.of("attention", "credential-expiry", "reminder");

    private Channels() {
    }

    /** {@code notify-send} as found on {@code PATH} of {@code env}, if it is there and executable. */
    public static Optional<Path> notifySend(Map<String, String> env) {
        return Optional.ofNullable(HookCheck.program(NOTIFY_SEND, Path.of("."), env));
    }

    /**
     * Where a desktop notification would be sent: the session bus of {@code DBUS_SESSION_BUS_ADDRESS}, or the
     * one a systemd user session keeps at {@code $XDG_RUNTIME_DIR/bus}; empty when neither is there (cron, ssh).
     */
    public static Optional<String> sessionBus(Map<String, String> env) {
        String address = env.get("DBUS_SESSION_BUS_ADDRESS");
        if (address != null && !address.isBlank()) {
            return Optional.of("DBUS_SESSION_BUS_ADDRESS");
        }
        String runtime = env.get("XDG_RUNTIME_DIR");
        if (runtime != null && !runtime.isBlank() && Files.exists(Path.of(runtime).resolve("bus"))) {
            return Optional.of(Path.of(runtime).resolve("bus").toString());
        }
        return Optional.empty();
    }

    /** The desktop notification, when {@code notify-send} is installed and a session bus is reachable. */
    public static Optional<Hook> desktop(Map<String, String> env) {
        Optional<Path> program = notifySend(env);
        if (program.isEmpty() || sessionBus(env).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Hook(0, "desktop", new LinkedHashSet<>(DESKTOP_EVENTS),
                List.of(program.get().toString()), null, Hook.DESKTOP, null, Hook.DEFAULT_TIMEOUT));
    }

    /**
     * The hooks in effect: those of {@code notify.json} when the file exists (valid or not: an invalid one is
     * said, and sends nothing until it is fixed), else the defaults ({@link #desktop}).
     */
    public static NotifyConfig effective(NotifyConfig file, Map<String, String> env) {
        if (Files.exists(file.file())) {
            return file;
        }
        List<Hook> hooks = new ArrayList<>();
        desktop(env).ifPresent(hooks::add);
        return new NotifyConfig(file.file(), hooks, List.of());
    }
}
