package io.keyline.testing;

import javafx.application.Platform;
import javafx.concurrent.Worker;
import javafx.scene.Scene;
import javafx.scene.web.WebEngine;
import javafx.scene.web.WebView;
import javafx.stage.Stage;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM for {@link JavaFxEndsBeforeExitTest}: a WebView shows a page, then the JVM exits as Surefire's fork
 * does ({@code System.exit(0)} with JavaFX running), with {@code ordered} after
 * {@link JavaFxEndsBeforeExit#endJavaFx}.
 *
 * <p>Two things make the exit's bad order certain instead of rare: WebPage's shutdown hook waits (it locks
 * {@code WebPage.class}, held here for a while), and WebKit has a timer pending on the JavaFX thread when the thread
 * ends (a font family it has not seen starts its font cache's purge timer; the thread is kept busy until the exit,
 * or the lookup is the last thing the toolkit does when it exits).
 */
public final class WebViewThenExit {
    private WebViewThenExit() {
    }

    private static WebEngine engine;
    private static int families;

    public static void main(String[] args) throws Exception {
        boolean ordered = args.length > 0 && args[0].equals("ordered");
        CountDownLatch up = new CountDownLatch(1);
        Platform.startup(up::countDown);
        up.await();
        CountDownLatch loaded = new CountDownLatch(1);
        Platform.runLater(() -> {
            Stage stage = new Stage();
            WebView view = new WebView();
            engine = view.getEngine();
            stage.setScene(new Scene(view, 400, 300));
            stage.show();
            engine.getLoadWorker().stateProperty().addListener((o, was, now) -> {
                if (now == Worker.State.SUCCEEDED) {
                    loaded.countDown();
                }
            });
            engine.loadContent("<html><body><div id='d'>x</div></body></html>");
        });
        if (!loaded.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the page did not load");
        }
        // the toolkit's own shutdown hooks run in the order they were added: WebPage's (added with the first page) first
        com.sun.javafx.tk.Toolkit.getToolkit().addShutdownHook(WebViewThenExit::lookUpANewFont);
        CountDownLatch busy = new CountDownLatch(1);
        Platform.runLater(() -> {
            lookUpANewFont();
            busy.countDown();
            sleep(1500);
        });
        busy.await();
        if (ordered) {
            String problem = JavaFxEndsBeforeExit.endJavaFx(TimeUnit.SECONDS.toMillis(30));
            System.err.println("ended JavaFX: " + (problem == null ? "ok" : problem));
        }
        Class<?> webPage = Class.forName("com.sun.webkit.WebPage");
        CountDownLatch held = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            synchronized (webPage) {
                held.countDown();
                // long past the JavaFX thread's end (1.5 s), however busy the machine is
                sleep(8000);
            }
        }, "holds-WebPage");
        holder.start();
        held.await();
        System.err.println("exiting");
        System.exit(0);
    }

    private static void lookUpANewFont() {
        engine.executeScript("var d = document.getElementById('d'); d.style.fontFamily = 'no-such-font-"
                + (families++) + ", serif'; d.offsetWidth");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
