package io.keyline.testing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.LauncherSessionListener;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The test JVM ends JavaFX before it exits, so WebKit cannot abort it at the exit. Each case runs
 * {@link WebViewThenExit} in a child JVM (headless Monocle, as the tests run), in its own directory.
 */
class JavaFxEndsBeforeExitTest {

    @Test
    void theLauncherRunsTheListener() {
        assertThat(ServiceLoader.load(LauncherSessionListener.class).stream().map(p -> p.type().getName()))
                .contains(JavaFxEndsBeforeExit.class.getName());
    }

    @Test
    void aJvmThatEndsJavaFxFirstExitsNormally(@TempDir Path dir) throws Exception {
        Child c = child(dir, "ordered");
        assertThat(c.code).as("exit code; output:\n" + c.out).isZero();
        assertThat(c.out).contains("ended JavaFX: ok");
    }

    @Test
    void withoutItWebKitAbortsTheJvm(@TempDir Path dir) throws Exception {
        // what the case above guards against: if this stops aborting, a newer JavaFX orders its exit itself
        Child c = child(dir, "unordered");
        assertThat(c.out).contains("exiting");
        assertThat(c.code).as("SIGABRT (128 + 6); output:\n" + c.out).isEqualTo(134);
    }

    private record Child(int code, String out) {
    }

    private static Child child(Path dir, String how) throws Exception {
        // no core file: the abort is expected, and a JVM's core is hundreds of megabytes where CI allows cores
        List<String> cmd = List.of("sh", "-c", "ulimit -c 0; exec \"$@\"", "child",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dglass.platform=Monocle", "-Dmonocle.platform=Headless", "-Dprism.order=sw",
                "-Djava.awt.headless=true",
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                WebViewThenExit.class.getName(), how);
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        try {
            boolean ended = p.waitFor(120, TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly().waitFor(); // its output is complete only once it is gone
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(ended).as("the child ends; output:\n" + out).isTrue();
            return new Child(p.exitValue(), out);
        } finally {
            p.destroyForcibly();
        }
    }
}
