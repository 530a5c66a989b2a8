package io.keyline.testing;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TLS server on loopback with a self-signed certificate that no client trusts (made by the JDK's
 * {@code keytool} in a child process): every TLS handshake fails, so no HTTP request ever reaches it.
 * It counts the connections, the failed handshakes and the HTTP requests it would have read.
 */
public final class TlsServer implements AutoCloseable {

    private final SSLServerSocket server;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger failedHandshakes = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    private final Thread acceptor;

    public TlsServer(Path folder) throws IOException, InterruptedException, GeneralSecurityException {
        Path keystore = folder.resolve("self-signed.p12");
        char[] password = "changeit".toCharArray();
        if (!Files.exists(keystore)) {
            Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                    "-genkeypair", "-alias", "site", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                    "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-storetype", "PKCS12",
                    "-keystore", keystore.toString(), "-storepass", "changeit", "-keypass", "changeit"))
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("keytool failed: " + out);
            }
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            ks.load(in, password);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, password);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        server = (SSLServerSocket) ctx.getServerSocketFactory().createServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        acceptor = new Thread(this::acceptLoop, "tls-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public String base() {
        return "https://127.0.0.1:" + server.getLocalPort();
    }

    public int connections() {
        return connections.get();
    }

    public int failedHandshakes() {
        return failedHandshakes.get();
    }

    /** HTTP requests whose first byte arrived after a completed handshake (never, with an untrusted certificate). */
    public int requests() {
        return requests.get();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try (SSLSocket s = (SSLSocket) server.accept()) {
                connections.incrementAndGet();
                s.setSoTimeout(5_000);
                try {
                    s.startHandshake();
                } catch (IOException e) {
                    failedHandshakes.incrementAndGet();
                    continue;
                }
                if (s.getInputStream().read() >= 0) {
                    requests.incrementAndGet();
                }
            } catch (IOException e) {
                if (server.isClosed()) {
                    return;
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
