package io.keyline.credentials;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.CookieHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The login window's private jar and how it is put behind the default CookieHandler, with a real
 * loopback server and the JDK HttpClient (which JavaFX's web engine uses, built with the default
 * handler of the moment it is first needed).
 */
class LoginCookieJarTest {

    HttpServer server;
    final AtomicInteger hits = new AtomicInteger();
    volatile String lastCookieHeader;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            hits.incrementAndGet();
            lastCookieHeader = ex.getRequestHeaders().getFirst("Cookie");
            String q = ex.getRequestURI().getQuery() == null ? "" : ex.getRequestURI().getQuery();
            for (String c : q.split("&")) {
                if (!c.isEmpty()) {
                    ex.getResponseHeaders().add("Set-Cookie", java.net.URLDecoder.decode(c,
                            java.nio.charset.StandardCharsets.UTF_8));
                }
            }
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    String url(String... setCookies) {
        StringBuilder q = new StringBuilder();
        for (String c : setCookies) {
            q.append(q.length() == 0 ? "?" : "&").append(java.net.URLEncoder.encode(c,
                    java.nio.charset.StandardCharsets.UTF_8));
        }
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/login" + q;
    }

    static void get(HttpClient client, String url) throws Exception {
        client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding());
    }

    @Test
    void keepsHostOnlyHttpOnlyAndTheAbsoluteExpiryThatHttpCookieLoses() throws Exception {
        Instant now = Instant.parse("2026-12-01T10:00:00Z");
        LoginCookieJar jar = new LoginCookieJar(Clock.fixed(now, ZoneOffset.UTC));
        AtomicInteger changes = new AtomicInteger();
        jar.onChange(changes::incrementAndGet);
        HttpClient client = HttpClient.newBuilder().cookieHandler(jar).build();
        get(client, url("session=abc123secret; Path=/; HttpOnly; Max-Age=3600",
                "lang=en; Path=/"));

        List<Cookie> cookies = jar.cookies();
        assertThat(cookies).hasSize(2);
        Cookie session = cookies.stream().filter(c -> c.name().equals("session")).findFirst().orElseThrow();
        assertThat(session.domain()).isEqualTo("127.0.0.1");
        assertThat(session.includeSubdomains()).isFalse();
        assertThat(session.httpOnly()).isTrue();
        assertThat(session.expires()).isEqualTo(now.plusSeconds(3600));
        Cookie lang = cookies.stream().filter(c -> c.name().equals("lang")).findFirst().orElseThrow();
        assertThat(lang.expires()).isNull();
        assertThat(lang.httpOnly()).isFalse();
        assertThat(changes.get()).isEqualTo(1);

        // the jar sends them back like a browser, and a Max-Age=0 deletes
        get(client, url("lang=; Max-Age=0; Path=/"));
        assertThat(lastCookieHeader).contains("session=abc123secret").contains("lang=en");
        assertThat(jar.cookies()).extracting(Cookie::name).containsExactly("session");
        assertThat(changes.get()).isEqualTo(2);
        assertThat(jar.toString()).doesNotContain("abc123secret");

        jar.clear();
        assertThat(jar.cookies()).isEmpty();
    }

    @Test
    void aDomainCookieIncludesSubdomains() throws Exception {
        LoginCookieJar jar = new LoginCookieJar();
        // what a site on login.example.com sends: the manager accepts it for that host only when the domain matches
        jar.put(URI.create("https://login.example.com/account/signin"), java.util.Map.of("Set-Cookie",
                List.of("sid=1; Domain=.example.com; Path=/; Secure", "host=2; Path=/account")));
        List<Cookie> cookies = jar.cookies();
        Cookie sid = cookies.stream().filter(c -> c.name().equals("sid")).findFirst().orElseThrow();
        assertThat(sid.domain()).isEqualTo("example.com");
        assertThat(sid.includeSubdomains()).isTrue();
        assertThat(sid.secure()).isTrue();
        Cookie host = cookies.stream().filter(c -> c.name().equals("host")).findFirst().orElseThrow();
        assertThat(host.domain()).isEqualTo("login.example.com");
        assertThat(host.includeSubdomains()).isFalse();
        assertThat(host.path()).isEqualTo("/account");
    }

    @Test
    void routingGivesEachWindowItsOwnJarEvenToAClientThatKeptTheFirstDefaultAndRestoresThePrevious()
            throws Exception {
        CookieHandler previous = new java.net.CookieManager();
        CookieHandler.setDefault(previous);
        try {
            LoginCookieJar first = new LoginCookieJar();
            HttpClient engineClient;
            try (CookieRouting.Route r = CookieRouting.to(first)) {
                // what JavaFX's web engine does once per process: build its client with the default of that moment
                engineClient = HttpClient.newBuilder().cookieHandler(CookieHandler.getDefault()).build();
                get(engineClient, url("session=first-window-value; Path=/"));
                assertThat(first.cookies()).hasSize(1);
                assertThatThrownBy(() -> CookieRouting.to(new LoginCookieJar()))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("another login window");
            }
            assertThat(CookieHandler.getDefault()).isSameAs(previous);
            assertThat(CookieRouting.isOpen()).isFalse();

            // no window open: the engine's client stores nothing and sends nothing
            get(engineClient, url("stray=1; Path=/"));
            assertThat(lastCookieHeader).isNull();
            assertThat(((java.net.CookieManager) previous).getCookieStore().getCookies()).isEmpty();

            LoginCookieJar second = new LoginCookieJar();
            try (CookieRouting.Route r = CookieRouting.to(second)) {
                get(engineClient, url("session=second-window-value; Path=/"));
                assertThat(lastCookieHeader).isNull(); // the first window's cookie is not sent
                assertThat(second.cookies()).extracting(Cookie::value).containsExactly("second-window-value");
                assertThat(first.cookies()).extracting(Cookie::value).containsExactly("first-window-value");
                r.close();
                r.close(); // twice is harmless
            }
            assertThat(CookieHandler.getDefault()).isSameAs(previous);
        } finally {
            CookieHandler.setDefault(null);
        }
        assertThat(hits.get()).isEqualTo(3);
    }
}
