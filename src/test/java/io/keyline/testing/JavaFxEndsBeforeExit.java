package io.keyline.testing;

import javafx.application.Platform;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import java.util.concurrent.TimeUnit;

/**
 * Ends JavaFX when the launcher session closes, before the test JVM exits (Surefire's fork: one session, then
 * {@code System.exit}).
 *
 * <p>Left running, JavaFX is ended by the JVM's shutdown hooks, and those run all at once in no order. Monocle's
 * hook stops the JavaFX thread's event loop, so that thread can end during the exit; WebKit, once a WebView has
 * run on that thread, then tears down its per-thread data there, and unless WebPage's own hook has already told
 * WebKit that the JVM is shutting down, the teardown starts a new timer set for WebKit's main thread and fails a
 * release assertion ({@code MainThreadSharedTimer::setFiredFunction}): {@code abort()}, the fork dies with
 * SIGABRT after every test passed. {@link Platform#exit()} ends the toolkit in the safe order: it runs the
 * toolkit's shutdown hooks (WebPage's among them) on the JavaFX thread first and only then ends the thread.
 *
 * <p>Registered in {@code META-INF/services}. A launcher that opens a session per request (a bare
 * {@code LauncherFactory.create()} executed several times) would end JavaFX after its first request: run such
 * classes in one request or one session.
 */
public final class JavaFxEndsBeforeExit implements LauncherSessionListener {
    /** The name JavaFX gives its thread. */
    static final String FX_THREAD = "JavaFX Application Thread";

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        String problem = endJavaFx(TimeUnit.SECONDS.toMillis(30));
        if (problem != null) {
            System.err.println("[keyline tests] " + problem);
        }
    }

    /**
     * Ends JavaFX if it runs in this JVM, and waits for its thread to end.
     *
     * @return null when JavaFX did not run or has ended, or what went wrong
     */
    public static String endJavaFx(long timeoutMillis) {
        Thread fx = fxThread();
        if (fx == null) {
            // JavaFX never started here (or has ended already): nothing to order
            return null;
        }
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        // off the caller's thread: Platform.exit() waits on the JavaFX thread, which a test may have left blocked
        Thread exit = new Thread(Platform::exit, "keyline-end-javafx");
        exit.setDaemon(true);
        exit.start();
        try {
            exit.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
            fx.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!fx.isAlive()) {
            return null;
        }
        // the thread still runs (blocked): at least let WebKit know, as its own hook would, so the thread may end later
        String flag = tellWebKitItShutsDown();
        return "the JavaFX thread did not end within " + timeoutMillis + " ms after Platform.exit()"
                + (flag == null ? "; WebKit was told the JVM shuts down" : "; " + flag);
    }

    static Thread fxThread() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (FX_THREAD.equals(t.getName()) && t.isAlive()) {
                return t;
            }
        }
        return null;
    }

    /** What WebPage's shutdown hook does ({@code MainThread.twkSetShutdown(true)}); null when done. */
    private static String tellWebKitItShutsDown() {
        try {
            Class<?> webPage = Class.forName("com.sun.webkit.WebPage", false, Platform.class.getClassLoader());
            Class<?> mainThread = Class.forName("com.sun.webkit.MainThread", false, Platform.class.getClassLoader());
            java.lang.reflect.Method set = mainThread.getDeclaredMethod("twkSetShutdown", boolean.class);
            set.setAccessible(true);
            synchronized (webPage) {
                set.invoke(null, true);
            }
            return null;
        } catch (UnsatisfiedLinkError e) {
            return "WebKit's library is not loaded (no WebView ran): it has nothing to tear down";
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return "WebKit could not be told the JVM shuts down: " + e;
        }
    }
}
