package io.keyline.cli;

import io.keyline.core.Engine;
import io.keyline.core.RunTrace;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * What a command that runs keys ({@code run}, {@code apply}, {@code confirm}) runs them with: the trace,
 * the engine and, in the real process, a live counter on a terminal and Ctrl+C/SIGTERM handling.
 * Closing it puts the signals back and closes the trace.
 */
final class RunSession implements AutoCloseable {
    final RunTrace trace;
    final Engine engine;
    private final StopSignals signals;

    RunSession(Sub command) {
        KeylineCli root = command.root();
        PrintStream human = command.out();
        LiveCounter counter = null;
        if (root.liveCounter()) {
            counter = new LiveCounter(root.rawOut);
            human = TerminalOut.of(new PrintStream(counter.lines(), true, StandardCharsets.UTF_8));
        }
        trace = command.ws().trace(human);
        engine = command.ws().engine(trace).progress(counter);
        signals = root.asProcess ? StopSignals.install(engine, command.err()) : null;
    }

    @Override
    public void close() {
        try {
            if (signals != null) {
                signals.close();
            }
        } finally {
            trace.close();
        }
    }
}
