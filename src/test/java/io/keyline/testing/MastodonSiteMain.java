package io.keyline.testing;

import com.sun.net.httpserver.HttpServer;

import java.time.Clock;
import java.time.Duration;

/**
 * Runs a {@link MastodonSite} on its own, on the system clock, for living a flow by hand against the packaged jar: it
 * prints the server's address and that of a control server on loopback whose paths turn the site's switches
 * ({@code /token} answers a new access token, {@code /revoke}, {@code /revoke-at-post}, {@code /processing?polls=3},
 * {@code /throttle?seconds=240}, {@code /throttle-api?after=3&seconds=240}, {@code /hold-after}, {@code /hold-before}, {@code /reset-after}, {@code /lose},
 * {@code /release}, {@code /posted?tag=daily20261129}, {@code /by-hand?text=…}, {@code /requests}).
 */
public final class MastodonSiteMain {

    private MastodonSiteMain() {
    }

    public static void main(String[] args) throws Exception {
        MastodonSite site = new MastodonSite(Clock.systemUTC());
        HttpServer ctl = Loopback.control("mastodon-ctl", (path, q) -> switch (path) {
            case "/token" -> site.newToken();
            case "/revoke" -> { site.revokeAll(); yield "revoked"; }
            case "/revoke-at-post" -> { site.revokeAtNextPost(); yield "revokes at the next post"; }
            case "/processing" -> { site.processing(Integer.parseInt(q.get("polls"))); yield "processing"; }
            case "/throttle" -> { site.throttleStatusesFor(Duration.ofSeconds(Long.parseLong(q.get("seconds"))));
                yield "throttled"; }
            case "/throttle-api" -> { site.throttleApiAfter(Integer.parseInt(q.get("after")),
                    Duration.ofSeconds(Long.parseLong(q.get("seconds")))); yield "throttles the token"; }
            case "/hold-after" -> { site.holdAfterPost(); yield "hold-after"; }
            case "/hold-before" -> { site.holdBeforePost(); yield "hold-before"; }
            case "/reset-after" -> { site.resetAfterPost(); yield "reset-after"; }
            case "/lose" -> { site.loseNextPost(); yield "loses the next post"; }
            case "/release" -> { site.release(); yield "released"; }
            case "/posted" -> String.valueOf(site.posted(q.get("tag")));
            case "/by-hand" -> site.postByHand(q.getOrDefault("text", "By hand.")).id();
            case "/requests" -> String.valueOf(site.requests().size());
            default -> "unknown";
        });
        System.out.println("mastodon " + site.base());
        System.out.println("control http://127.0.0.1:" + ctl.getAddress().getPort());
        Thread.currentThread().join();
    }
}
