package io.keyline.ui.shell;

import io.keyline.testing.ClassLoadLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's first frame does not pay for the web engine. The real console starts in a
 * child JVM (headless Monocle) with the startup probe, which closes it after the first rendered frame;
 * the JVM's class-loading log must show the console's classes and none of javafx.web or WebKit
 * (loaded only when a login window opens).
 */
class FirstFrameWithoutWebTest {

    @Test
    void theFirstFrameLoadsNoClassOfTheWebEngine(@TempDir Path tmp) throws Exception {
        Path jobs = Files.createDirectories(tmp.resolve("jobs"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info:file=" + tmp.resolve("classes.log"),
                "-Dkeyline.startupProbe=true", "-Dglass.platform=Monocle", "-Dmonocle.platform=Headless",
                "-Dprism.order=sw", "-Djava.awt.headless=true",
                "--add-exports", "javafx.base/com.sun.javafx.event=ALL-UNNAMED",
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "io.keyline.app.Main", "--state", tmp.resolve("state").toString(), "--jobs", jobs.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out;
        try {
            boolean ended = p.waitFor(120, TimeUnit.SECONDS);
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(ended).as("the console closes after its first frame; output:\n" + out).isTrue();
        } finally {
            p.destroyForcibly();
        }
        assertThat(out).contains("keyline.startupProbe first_frame_ms=");
        List<String> loaded = ClassLoadLog.classes(tmp.resolve("classes.log"));
        assertThat(loaded).as("the console's own classes are in the log").contains("io.keyline.ui.shell.ConsoleView",
                "io.keyline.ui.inbox.InboxView");
        assertThat(loaded).filteredOn(c -> c.startsWith("javafx.scene.web.") || c.startsWith("com.sun.webkit.")
                || c.startsWith("com.sun.javafx.webkit.") || c.startsWith("io.keyline.ui.login.")).isEmpty();
    }
}
