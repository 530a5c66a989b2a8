package io.keyline.ui.login;

import com.sun.net.httpserver.HttpServer;
import io.keyline.app.ConsoleApp;
import io.keyline.workspace.Workspace;
import io.keyline.core.RunTrace;
import io.keyline.credentials.CredentialParser;
import io.keyline.credentials.CredentialType;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.sandbox.SandboxSite;
import io.keyline.testing.Workbench;
import io.keyline.ui.ConsoleServices;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The demo's situation, for the login window's tests: the sandbox site on loopback, the demo's
 * {@code daily-article} job (write, then an unsafe POST with a probe) on credential
 * {@code sandbox-cookie}, whose stored login the site no longer accepts, so three keys wait for it
 * in NEEDS_CREDENTIAL. Plus an "SSO provider" on another loopback address (127.0.0.2) that sets a
 * cookie of its own and sends the browser back to the sandbox's login page.
 */
final class SandboxLogin implements AutoCloseable {

    static final String CREDENTIAL = "sandbox-cookie";
    static final List<String> KEYS = List.of("2026-11-27", "2026-11-28", "2026-11-29");

    final Path tmp;
    final Workbench wb;
    final SandboxSite site;
    final Workspace ws;
    final ConsoleServices services;
    final HttpServer sso;
    final AtomicInteger ssoVisits = new AtomicInteger();

    SandboxLogin() throws IOException {
        tmp = Files.createTempDirectory("keyline-login");
        wb = new Workbench(tmp);
        // the site's sessions live in real time, as the login window's browser and cookie jar do: with the
        // workbench's fixed day, the cookie's Expires (that day + 7) was in the browser's past from
        // 2026-12-06 on, and the jar dropped it (the engine's keys still run on the workbench's clock)
        site = SandboxSite.start(0, java.time.Clock.systemUTC(), null);
        sso = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0), 0);
        sso.createContext("/sso", ex -> {
            ssoVisits.incrementAndGet();
            String q = ex.getRequestURI().getRawQuery();
            String next = q != null && q.startsWith("next=") ? java.net.URLDecoder.decode(q.substring(5),
                    StandardCharsets.UTF_8) : site.base() + "/";
            ex.getResponseHeaders().add("Set-Cookie", "sso_session=sso-" + "4f1c9e27b8d3a6f0" + "; Path=/; HttpOnly; "
                    + "Max-Age=3600");
            ex.getResponseHeaders().add("Location", next);
            ex.sendResponseHeaders(302, -1);
            ex.close();
        });
        sso.start();
        ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env());
        services = ConsoleApp.services(ws, RunTrace.NONE, wb.env());
        copyDemoJob();
    }

    String ssoUrl() {
        return "http://127.0.0.2:" + sso.getAddress().getPort() + "/sso";
    }

    /** The demo's daily-article job and its scripts, on this sandbox. */
    private void copyDemoJob() throws IOException {
        Path demo = Path.of("resources/demo");
        String json = Files.readString(demo.resolve("daily-article.json"))
                .replace("{{SANDBOX_URL}}", site.base()).replace("{{DEMO_START}}", "2026-11-01");
        Files.writeString(wb.jobs.resolve("daily-article.json"), json);
        Path scripts = wb.jobs.resolve("scripts");
        Files.createDirectories(scripts);
        try (Stream<Path> s = Files.list(demo.resolve("scripts"))) {
            for (Path p : s.toList()) {
                Files.copy(p, scripts.resolve(p.getFileName()));
            }
        }
    }

    /**
     * A login the site accepted once and forgot since; the three keys run into its 401 and wait. The job is
     * reviewed, so that the login the window captures runs them.
     */
    void parkThreeKeys(String loginUrl) {
        parkThreeKeys(loginUrl, true);
    }

    /** As above; {@code reviewed}: the job's unsafe steps were reviewed before its keys ran (else they wait for it). */
    void parkThreeKeys(String loginUrl, boolean reviewed) {
        SandboxSite.Session old = site.login();
        services.credentials().set(CREDENTIAL, CredentialParser.parse(CredentialType.COOKIE, old.cookiesTxtLine(), null),
                loginUrl, "tester");
        site.expireSessions();
        JobDefinition job = services.catalog().get().job("daily-article").orElseThrow();
        if (reviewed) {
            services.operations().actions().approve(job, null);
        }
        services.engine().run(job, KEYS);
        for (String k : KEYS) {
            if (state(k) != KeyState.NEEDS_CREDENTIAL) {
                throw new IllegalStateException(k + " is " + state(k) + ", not NEEDS_CREDENTIAL");
            }
        }
    }

    KeyState state(String key) {
        return ws.store().key("daily-article", key).map(KeyRecord::state).orElse(null);
    }

    String fingerprint() {
        return services.credentials().info(CREDENTIAL).orElseThrow().fingerprint();
    }

    @Override
    public void close() throws IOException {
        sso.stop(0);
        site.close();
        ws.close();
        try (Stream<Path> files = Files.walk(tmp)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
