package io.keyline.cli;

import io.keyline.workspace.Demo;
import io.keyline.core.OperatorException;
import io.keyline.sandbox.SandboxSite;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.BindException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import static io.keyline.text.Text.t;

@Command(name = "sandbox")
final class SandboxCommand extends Sub implements Callable<Integer> {

    @Option(names = "--port", paramLabel = "N")
    Integer port;

    /** Tests stop the foreground sandbox through this latch; the command line waits for Ctrl+C. */
    static volatile CountDownLatch stop;

    @Override
    public Integer call() throws InterruptedException {
        Path jobs = ws().jobsDir();
        boolean demo = Demo.isDemo(jobs);
        int p = port != null ? port : demo ? Demo.port(jobs) : Demo.DEFAULT_PORT;
        if (p < 0 || p > 65535) {
            throw new UsageError(t("cli.demo.port", "--port"));
        }
        SandboxSite site;
        try {
            site = SandboxSite.start(p, ws().options().clock(), demo ? jobs.resolve(Demo.WORLD) : null);
        } catch (BindException e) {
            return alreadyRunning(p);
        } catch (IOException e) {
            throw new OperatorException(t("cli.sandbox.cannotStart", String.valueOf(p), e.getMessage()));
        }
        try (site) {
            SandboxSite.Session s = site.login();
            out().println(t(demo ? "cli.sandbox.atDemo" : "cli.sandbox.at", site.base() + "/"));
            printCookie(s.cookiesTxtLine(), Text.time(s.expires()));
            out().println(t("cli.sandbox.stop"));
            out().flush();
            CountDownLatch latch = stop != null ? stop : new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(latch::countDown));
            latch.await();
        }
        return 0;
    }

    private void printCookie(String line, String expires) {
        out().println(t("cli.sandbox.cookie", expires));
        out().println(line);
        out().println(t("cli.sandbox.renew"));
        out().println("  " + t("cli.sandbox.renewCommand", Demo.CREDENTIAL));
    }

    /** The port is taken: if the sandbox runs there, log in to it and print a fresh cookie. */
    private int alreadyRunning(int p) throws InterruptedException {
        String base = "http://127.0.0.1:" + p;
        try {
            HttpResponse<String> r = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build().send(
                    HttpRequest.newBuilder(URI.create(base + "/login")).timeout(Duration.ofSeconds(5))
                            .header("Content-Type", "application/x-www-form-urlencoded")
                            .POST(HttpRequest.BodyPublishers.ofString("user=demo")).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200 && r.headers().firstValue(SandboxSite.MARKER_HEADER).isPresent()) {
                String line = r.body().lines().filter(l -> l.split("\t", -1).length == 7).findFirst().orElse(null);
                if (line != null) {
                    out().println(t("cli.sandbox.alreadyRuns", base + "/"));
                    printCookie(line, t("cli.sandbox.fifthField"));
                    return 0;
                }
            }
        } catch (IOException e) {
            // fall through: something else holds the port
        }
        throw new OperatorException(t("cli.sandbox.portTaken", String.valueOf(p), "--port"));
    }
}
