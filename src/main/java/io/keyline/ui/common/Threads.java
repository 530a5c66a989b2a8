package io.keyline.ui.common;

import javafx.application.Platform;

import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The one thread seam of the console: {@code ui} is {@code Platform::runLater} in the app and
 * direct in ViewModel tests; {@code background} runs everything that touches H2, HTTP or a
 * process, never on the JavaFX thread.
 */
public final class Threads {
    private final Executor ui;
    private final Executor background;

    public Threads(Executor ui, Executor background) {
        this.ui = ui;
        this.background = background;
    }

    /** JavaFX application thread + a small daemon pool for work. */
    public static Threads javafx() {
        AtomicInteger n = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "keyline-console-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        return new Threads(Platform::runLater, pool);
    }

    /** Everything on the calling thread: for plain JUnit tests of ViewModels. */
    public static Threads direct() {
        return new Threads(Runnable::run, Runnable::run);
    }

    public void ui(Runnable r) {
        ui.execute(r);
    }

    /** Runs {@code work} in the background, then {@code done} or {@code failed} on the UI thread. */
    public <T> void submit(Callable<T> work, Consumer<T> done, Consumer<Throwable> failed) {
        background.execute(() -> {
            T result;
            try {
                result = work.call();
            } catch (Throwable e) {
                ui.execute(() -> failed.accept(e));
                return;
            }
            ui.execute(() -> done.accept(result));
        });
    }
}
