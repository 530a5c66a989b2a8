package io.keyline.testing;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;

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
}
