package io.keyline.testing;

import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** What the console's TestFX tests share: waiting for the screen, and reading it on the FX thread. */
public final class Fx {

    private Fx() {
    }

    /** Waits up to 20 s for {@code condition}, then for the FX events it left queued. */
    public static void waitUntil(Callable<Boolean> condition) throws Exception {
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, condition);
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** {@code read} on the FX thread; its value here. */
    public static <T> T fxValue(FxRobot robot, Callable<T> read) {
        AtomicReference<T> out = new AtomicReference<>();
        robot.interact(() -> {
            try {
                out.set(read.call());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return out.get();
    }

    /** Hides every window but {@code stage} (the dialogs a test opened), so that the next test starts alone. */
    public static void hideOtherWindows(FxRobot robot, javafx.stage.Window stage) {
        robot.interact(() -> {
            for (javafx.stage.Window w : javafx.stage.Window.getWindows().stream().toList()) {
                if (w != stage) {
                    w.hide();
                }
            }
        });
    }
}
