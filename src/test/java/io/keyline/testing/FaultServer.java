package io.keyline.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * A real HTTP/1.1 server on loopback, written on plain sockets so that it can fail the way real
 * servers fail: accept a request and never answer, reset the connection after reading it, answer
 * 5xx after acting. Every request it received is recorded.
 */
public final class FaultServer implements AutoCloseable {

    /** A received request. */
    public record Request(String method, String path, String query, Map<String, String> headers, byte[] body) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public String queryParam(String name) {
            if (query == null) {
                return null;
            }
            for (String p : query.split("&")) {
                int eq = p.indexOf('=');
                if (eq > 0 && p.substring(0, eq).equals(name)) {
                    return java.net.URLDecoder.decode(p.substring(eq + 1), StandardCharsets.UTF_8);
                }
            }
            return null;
        }
    }

    /** What the server does with a request. */
    public sealed interface Reply permits Reply.Respond, Reply.Hang, Reply.Reset, Reply.Close, Reply.Trickle {
        /** Answer with a status, headers and body. */
        record Respond(int status, Map<String, String> headers, String body) implements Reply {
        }

        /** Read the request, then never answer (the client's read timeout fires). */
        record Hang() implements Reply {
        }

        /** Read the request, then reset the connection (RST). */
        record Reset() implements Reply {
        }

        /** Read the request, then close the connection without a response. */
        record Close() implements Reply {
        }

        /**
         * Answer with the status line and headers at once (announcing {@code bodyBytes} bytes), then
         * send the body one byte every {@code intervalMillis}: headers arrive in time, the body never does.
         */
        record Trickle(int status, Map<String, String> headers, int bodyBytes, long intervalMillis) implements Reply {
        }

        static Reply status(int status, String body) {
            return new Respond(status, Map.of("Content-Type", "application/json"), body);
        }

        static Reply json(String body) {
            return status(200, body);
        }
    }

    private final ServerSocket server;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fault-server");
        t.setDaemon(true);
        return t;
    });
    private final List<Request> received = Collections.synchronizedList(new ArrayList<>());
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile Function<Request, Reply> handler;

    public FaultServer(Function<Request, Reply> handler) throws IOException {
        this.handler = handler;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        pool.submit(this::acceptLoop);
    }

    public void handler(Function<Request, Reply> h) {
        this.handler = h;
    }

    public int port() {
        return server.getLocalPort();
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port() + path);
    }

    public String base() {
        return "http://127.0.0.1:" + port();
    }

    public List<Request> received() {
        synchronized (received) {
            return List.copyOf(received);
        }
    }

    public long count(String method, String pathPrefix) {
        return received().stream().filter(r -> r.method().equals(method) && r.path().startsWith(pathPrefix)).count();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                open.add(s);
                pool.submit(() -> serve(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            Request req = read(s.getInputStream());
            if (req == null) {
                return;
            }
            received.add(req);
            Reply reply = handler.apply(req);
            if (reply instanceof Reply.Respond r) {
                write(s.getOutputStream(), r);
            } else if (reply instanceof Reply.Hang) {
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            } else if (reply instanceof Reply.Trickle t) {
                trickle(s.getOutputStream(), t);
            } else if (reply instanceof Reply.Reset) {
                s.setSoLinger(true, 0);
            }
            // Reply.Close: close without a word
        } catch (IOException ignored) {
            // the client went away
        } finally {
            open.remove(s);
        }
    }

    private static Request read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        int state = 0;
        while ((b = in.read()) >= 0) {
            head.write(b);
            state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
            if (state == 4) {
                break;
            }
        }
        if (state != 4) {
            return null;
        }
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        String[] first = lines[0].split(" ");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int c = lines[i].indexOf(':');
            if (c > 0) {
                // a field sent twice reads as its values joined, as HTTP combines them: a duplicate shows
                headers.merge(lines[i].substring(0, c).trim().toLowerCase(Locale.ROOT), lines[i].substring(c + 1).trim(),
                        (was, more) -> was + ", " + more);
            }
        }
        int len = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        byte[] body = in.readNBytes(len);
        String target = first[1];
        int q = target.indexOf('?');
        return new Request(first[0], q < 0 ? target : target.substring(0, q), q < 0 ? null : target.substring(q + 1),
                headers, body);
    }

    private static void write(OutputStream out, Reply.Respond r) throws IOException {
        byte[] body = r.body() == null ? new byte[0] : r.body().getBytes(StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder("HTTP/1.1 ").append(r.status()).append(' ').append(reason(r.status()))
                .append("\r\nContent-Length: ").append(body.length).append("\r\nConnection: close\r\n");
        r.headers().forEach((k, v) -> sb.append(k).append(": ").append(v).append("\r\n"));
        sb.append("\r\n");
        out.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
    }

    private static void trickle(OutputStream out, Reply.Trickle t) throws IOException {
        StringBuilder sb = new StringBuilder("HTTP/1.1 ").append(t.status()).append(' ').append(reason(t.status()))
                .append("\r\nContent-Length: ").append(t.bodyBytes()).append("\r\nConnection: close\r\n");
        t.headers().forEach((k, v) -> sb.append(k).append(": ").append(v).append("\r\n"));
        sb.append("\r\n");
        out.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        for (int i = 0; i < t.bodyBytes(); i++) {
            try {
                Thread.sleep(t.intervalMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            out.write(i == 0 ? '[' : ' ');
            out.flush();
        }
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 201 -> "Created";
            case 301 -> "Moved Permanently";
            case 302 -> "Found";
            case 303 -> "See Other";
            case 307 -> "Temporary Redirect";
            case 308 -> "Permanent Redirect";
            case 409 -> "Conflict";
            case 501 -> "Not Implemented";
            case 502 -> "Bad Gateway";
            case 401 -> "Unauthorized";
            case 404 -> "Not Found";
            case 429 -> "Too Many Requests";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            default -> "Status";
        };
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : open) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        pool.shutdownNow();
    }
}
