package io.keyline.cli;

import io.keyline.core.Engine;
import io.keyline.text.Said;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import static io.keyline.text.Text.t;

/**
 * Ctrl+C and SIGTERM during a command that runs keys: the first one tells the engine to
 * start no new key; keys in flight finish the step they are in (within its timeout) and stop at the
 * step boundary, and the command ends normally with the exit code of what finished (the database
 * closed cleanly). A second signal ends the process at once, as a kill would: every step is crash-safe.
 *
 * <p>Handled with {@code sun.misc.Signal} (module {@code jdk.unsupported}, in the app-image's runtime):
 * a JVM shutdown hook would be too late - the JVM would already be on its way out and H2's own hook
 * would close the database under the keys still running.
 */
final class StopSignals implements AutoCloseable {

    private final List<Object[]> previous = new ArrayList<>();
    private volatile boolean stopping;

    private StopSignals() {
    }

    /** Installs the handlers for {@code engine}'s run; {@link #close} puts the JVM's own back. */
    static StopSignals install(Engine engine, PrintStream err) {
        StopSignals s = new StopSignals();
        for (String name : List.of("INT", "TERM")) {
            try {
                sun.misc.Signal signal = new sun.misc.Signal(name);
                sun.misc.SignalHandler old = sun.misc.Signal.handle(signal, sig -> s.on(sig, engine, err));
                s.previous.add(new Object[] {signal, old});
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // the signal is not available here (or used by the JVM): its default stays
            }
        }
        return s;
    }

    private void on(sun.misc.Signal sig, Engine engine, PrintStream err) {
        String signal = "SIG" + sig.getName();
        String name = sig.getName().equals("INT") ? t("cli.signal.interrupt", signal) : signal;
        if (stopping) {
            err.println();
            err.println(t("cli.signal.again", name));
            err.flush();
            Runtime.getRuntime().halt(128 + sig.getNumber());
        }
        stopping = true;
        // the reason goes into the keys' events as words (English in the run log and machine output, the operator's
        // language where they are shown)
        engine.stopStarting(Said.of("core.event.stoppedBy", sig.getName().equals("INT")
                ? Said.of("cli.signal.interrupt", signal) : signal));
        err.println();
        err.println(t("cli.signal.first", name));
        err.flush();
    }

    @Override
    public void close() {
        for (Object[] p : previous) {
            try {
                sun.misc.Signal.handle((sun.misc.Signal) p[0], (sun.misc.SignalHandler) p[1]);
            } catch (IllegalArgumentException ignored) {
                // leaving anyway
            }
        }
    }
}
