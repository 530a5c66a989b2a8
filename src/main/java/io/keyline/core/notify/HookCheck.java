package io.keyline.core.notify;

import io.keyline.core.jobfile.Hook;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static io.keyline.text.Text.t;

/**
 * Whether a hook could be called, found out without sending anything: a command hook's program exists and
 * may be executed; a webhook's host resolves and accepts a connection on its port (the connection is closed
 * before a byte is sent). What a check says names a webhook by its host only.
 */
public final class HookCheck {

    private HookCheck() {
    }

    /**
     * The outcome of one check.
     *
     * @param ok   whether the hook looks callable
     * @param text what was found, for a person
     */
    public record Result(boolean ok, String text) {
    }

    /**
     * Checks {@code hook}.
     *
     * @param workdir where command hooks run (a relative program is looked up there)
     * @param env     whose {@code PATH} finds a program named without a folder
     * @param timeout how long a connection may take
     */
    public static Result check(Hook hook, Path workdir, Map<String, String> env, Duration timeout) {
        if (hook.command() != null) {
            String program = hook.command().get(0);
            Path found = program(program, workdir, env);
            return found == null ? new Result(false, t(program.contains("/") ? "core.hook.noProgram"
                    : "core.hook.noProgramOnPath", program, "PATH")) : new Result(true, t("core.hook.program", found));
        }
        URI u = hook.webhook();
        int port = u.getPort() >= 0 ? u.getPort() : "https".equals(u.getScheme()) ? 443 : 80;
        String where = HookSender.hostPort(u) + (u.getPort() >= 0 ? "" : ":" + port);
        InetAddress address;
        try {
            address = InetAddress.getByName(u.getHost());
        } catch (UnknownHostException e) {
            return new Result(false, t("core.hook.unresolved", HookSender.hostPort(u)));
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(address, port), (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
            return new Result(true, t("core.hook.reachable", where));
        } catch (IOException e) {
            return new Result(false, t("core.hook.cannotConnect", where, e.getMessage() == null
                    ? e.getClass().getSimpleName() : Events.clean(e.getMessage(), 200)));
        }
    }

    /** The executable a command names: a path (relative to {@code workdir}), or a name found on {@code PATH}. */
    static Path program(String program, Path workdir, Map<String, String> env) {
        if (program.contains("/")) {
            Path p = workdir.resolve(program);
            return Files.isRegularFile(p) && Files.isExecutable(p) ? p.toAbsolutePath().normalize() : null;
        }
        String path = env.get("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isBlank()) {
                Path p = Path.of(dir).resolve(program);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return p.toAbsolutePath();
                }
            }
        }
        return null;
    }
}
