package io.keyline.testing;

import com.sun.net.httpserver.HttpServer;

import java.time.Clock;
import java.time.Duration;

/**
 * Runs a {@link GitHubSite} on its own, on the system clock, for living a flow by hand against the packaged jar: it
 * prints the addresses of its api and uploads servers and that of a control server on loopback whose paths turn the
 * site's switches ({@code /token} answers a new token with write access, {@code /read-only-token},
 * {@code /no-access-token}, {@code /revoke}, {@code /spend?after=0&seconds=240}, {@code /secondary?seconds=60},
 * {@code /hold-after}, {@code /reset-after}, {@code /release}, {@code /releases?tag=report-2026-W48},
 * {@code /assets?tag=report-2026-W48}, {@code /by-hand?tag=…}, {@code /creates}, {@code /requests}).
 */
public final class GitHubSiteMain {

    private GitHubSiteMain() {
    }

    public static void main(String[] args) throws Exception {
        GitHubSite site = new GitHubSite(Clock.systemUTC());
        HttpServer ctl = Loopback.control("github-ctl", (path, q) -> switch (path) {
            case "/token" -> site.newToken();
            case "/read-only-token" -> site.readOnlyToken();
            case "/no-access-token" -> site.tokenWithoutAccess();
            case "/revoke" -> { site.revokeAll(); yield "revoked"; }
            case "/spend" -> { site.spendRateLimitAfter(Integer.parseInt(q.getOrDefault("after", "0")),
                    Duration.ofSeconds(Long.parseLong(q.getOrDefault("seconds", "240")))); yield "spends the limit"; }
            case "/secondary" -> { site.secondaryLimitAtNextCreate(Long.parseLong(q.getOrDefault("seconds", "60")));
                yield "secondary limit at the next create"; }
            case "/hold-after" -> { site.holdAfterCreate(); yield "hold-after"; }
            case "/reset-after" -> { site.resetAfterCreate(); yield "reset-after"; }
            case "/release" -> { site.release(); yield "released"; }
            case "/releases" -> String.valueOf(site.releases(q.get("tag")));
            case "/assets" -> { GitHubSite.Release r = site.releaseByTag(q.get("tag"));
                yield String.valueOf(r == null ? 0 : r.assets().size()); }
            case "/by-hand" -> String.valueOf(site.createByHand(q.get("tag")).id());
            case "/creates" -> String.valueOf(site.createRequests());
            case "/requests" -> String.valueOf(site.requests().size());
            default -> "unknown";
        });
        System.out.println("api " + site.apiBase());
        System.out.println("uploads " + site.uploadsBase());
        System.out.println("control http://127.0.0.1:" + ctl.getAddress().getPort());
        Thread.currentThread().join();
    }
}
