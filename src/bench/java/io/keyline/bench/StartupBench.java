package io.keyline.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * B4 cold start: process start to the console's first frame, with and without the AppCDS archive,
 * measured by {@code packaging/bench-startup.sh} on the app-image (which {@code -Ppackage} builds;
 * without it, or without Xvfb/DISPLAY, B4 says why it is skipped).
 */
final class StartupBench {
    private static final Path APP = Path.of("target", "dist", "keyline");
    private static final Path SCRIPT = Path.of("packaging", "bench-startup.sh");

    private StartupBench() {
    }

    static void run() throws Exception {
        if (!Files.isExecutable(APP.resolve("bin").resolve("keyline"))) {
            Stats.log("B4 skipped: no app-image in " + APP + " (build it: mvn -B -Ppackage -DskipTests package)");
            return;
        }
        Stats.log("B4 cold start of " + APP + " (with and without the AppCDS archive)");
        Process p = new ProcessBuilder("bash", SCRIPT.toString(), APP.toString(), Integer.getInteger("bench.b4.runs", 5)
                .toString()).redirectErrorStream(true).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                System.out.println(line.startsWith("BENCH") ? line : "[bench] " + line);
            }
        }
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
            Stats.log("B4 failed (exit " + (p.isAlive() ? "timeout" : p.exitValue()) + "): see the lines above");
        }
    }
}
