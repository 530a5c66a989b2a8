package io.keyline.core;

import java.util.Locale;

/**
 * Where a one-shot command spends its time before it prints: with
 * {@code KEYLINE_TRACE_STARTUP=1} in the environment, each phase writes one line to stderr, milliseconds
 * since {@code main} and since the previous line. Off (the default) it costs one boolean test per phase.
 * The JVM's own start before {@code main} is not in it: compare with a hello-world class on the same JVM.
 */
public final class StartupTrace {

    private static final boolean ON = on(System.getenv("KEYLINE_TRACE_STARTUP"));
    private static final long START = System.nanoTime();
    private static long last = START;

    private StartupTrace() {
    }

    static boolean on(String value) {
        return value != null && !value.isBlank() && !"0".equals(value.strip())
                && !"false".equalsIgnoreCase(value.strip());
    }

    /** Notes that {@code phase} ended now (nothing unless tracing is on). */
    public static void mark(String phase) {
        if (!ON) {
            return;
        }
        synchronized (StartupTrace.class) {
            long now = System.nanoTime();
            System.err.println(String.format(Locale.ROOT, "keyline startup: %5d ms  +%4d ms  %s",
                    (now - START) / 1_000_000, (now - last) / 1_000_000, phase));
            last = now;
        }
    }
}
