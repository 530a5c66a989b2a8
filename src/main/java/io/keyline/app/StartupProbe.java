package io.keyline.app;

import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

import java.time.Instant;

/**
 * The startup benchmark's probe ({@code -Dkeyline.startupProbe=true}, hidden): after the first
 * pulse of the main window has laid out and rendered, prints the time since the process started
 * and closes the console.
 */
final class StartupProbe {
    private StartupProbe() {
    }

    static void install(Scene scene, Stage stage) {
        Runnable[] self = new Runnable[1];
        self[0] = () -> {
            scene.removePostLayoutPulseListener(self[0]);
            // runLater: after this pulse, which renders the frame, has finished
            Platform.runLater(() -> {
                io.keyline.core.StartupTrace.mark("console: first frame");
                long now = System.currentTimeMillis();
                long start = ProcessHandle.current().info().startInstant().map(Instant::toEpochMilli).orElse(now);
                System.out.println("keyline.startupProbe first_frame_ms=" + (now - start) + " first_frame_epoch_ms=" + now);
                System.out.flush();
                stage.hide();
            });
        };
        scene.addPostLayoutPulseListener(self[0]);
    }
}
