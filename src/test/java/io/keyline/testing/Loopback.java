package io.keyline.testing;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.function.BiFunction;

/** A site's HTTP server on the loopback address, on a free port, answering each request on its own daemon thread. */
public final class Loopback {

    private Loopback() {
    }

    /** Starts a server that answers every path with {@code handler}; its threads are named {@code name}. */
    public static HttpServer serve(String name, HttpHandler handler) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/", handler);
        server.start();
        return server;
    }

    /**
     * Starts the control server of a test site run by hand (a {@code …SiteMain}): each request's path and its
     * decoded query go to {@code answer}, and the text it returns is the reply, with a line break.
     */
    public static HttpServer control(String name, BiFunction<String, Map<String, String>, String> answer)
            throws IOException {
        return serve(name, ex -> {
            try (ex) {
                Map<String, String> q = new HashMap<>();
                String raw = ex.getRequestURI().getRawQuery();
                if (raw != null) {
                    for (String pair : raw.split("&")) {
                        int eq = pair.indexOf('=');
                        q.put(eq < 0 ? pair : pair.substring(0, eq),
                                eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                    }
                }
                byte[] b = (answer.apply(ex.getRequestURI().getPath(), q) + "\n").getBytes(StandardCharsets.UTF_8);
                ex.sendResponseHeaders(200, b.length);
                try (OutputStream o = ex.getResponseBody()) {
                    o.write(b);
                }
            }
        });
    }
}
