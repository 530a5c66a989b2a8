package io.keyline.credentials;

import java.io.IOException;
import java.net.CookieHandler;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * Puts one login window's private {@link LoginCookieJar} behind the process's default
 * {@link CookieHandler} while the window is open, and puts the previous default back when it closes.
 *
 * <p>Why not simply {@code CookieHandler.setDefault(jar)}: JavaFX's web engine reads the default
 * handler once, when its HTTP client is first built, and keeps it for the life of the process
 * ({@code com.sun.webkit.network.HTTP2Loader}); and its {@code WebPage} installs a process-wide
 * cookie manager of its own when it finds none. So the default is always the same {@link #ROUTER},
 * which hands every call to the jar of the window that is open, and with no window open stores
 * nothing and sends nothing. A second window gets its own empty jar, never the first one's cookies.
 *
 * <p>What else reads the default handler: {@code HttpURLConnection} (Keyline does not use it) and an
 * {@code HttpClient} built with {@code cookieHandler(CookieHandler.getDefault())} (Keyline's are
 * built without one). One login window is open at a time.
 */
public final class CookieRouting {

    private static final Router ROUTER = new Router();
    private static CookieHandler previous;
    private static LoginCookieJar open;

    private CookieRouting() {
    }

    /** An open route; {@link #close()} ends it (again is harmless). */
    public interface Route extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Routes the process's cookies to {@code jar} until the returned route is closed.
     *
     * @throws IllegalStateException when another login window's jar is routed already
     */
    public static synchronized Route to(LoginCookieJar jar) {
        if (open != null) {
            throw new IllegalStateException("another login window is open: close it first");
        }
        // JavaFX's WebPage installs its own process-wide cookie manager when it finds no default handler
        if (System.getProperty("com.sun.webkit.setDefaultCookieHandler") == null) {
            System.setProperty("com.sun.webkit.setDefaultCookieHandler", "false");
        }
        CookieHandler current = CookieHandler.getDefault();
        previous = current == ROUTER ? null : current;
        open = jar;
        ROUTER.target = jar;
        CookieHandler.setDefault(ROUTER);
        return () -> close(jar);
    }

    private static synchronized void close(LoginCookieJar jar) {
        if (open != jar) {
            return;
        }
        ROUTER.target = null;
        open = null;
        CookieHandler.setDefault(previous);
        previous = null;
    }

    /** Whether a login window's jar is routed now. */
    public static synchronized boolean isOpen() {
        return open != null;
    }

    private static final class Router extends CookieHandler {
        volatile LoginCookieJar target;

        @Override
        public Map<String, List<String>> get(URI uri, Map<String, List<String>> requestHeaders) throws IOException {
            LoginCookieJar t = target;
            return t == null ? Map.of() : t.get(uri, requestHeaders);
        }

        @Override
        public void put(URI uri, Map<String, List<String>> responseHeaders) throws IOException {
            LoginCookieJar t = target;
            if (t != null) {
                t.put(uri, responseHeaders);
            }
        }
    }
}
