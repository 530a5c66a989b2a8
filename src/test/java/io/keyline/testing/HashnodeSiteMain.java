package io.keyline.testing;

import com.sun.net.httpserver.HttpServer;

import java.time.Clock;

/**
 * Runs a {@link HashnodeSite} on its own, on the system clock, for living a flow by hand against the packaged jar: it
 * prints the address of its GraphQL endpoint and that of a control server on loopback whose paths turn the site's
 * switches ({@code /token} answers a new Personal Access Token, {@code /revoke}, {@code /not-pro},
 * {@code /hold-after}, {@code /reset-after}, {@code /unavailable}, {@code /release},
 * {@code /posts?slug=daily-2026-12-06}, {@code /by-hand?slug=…}, {@code /publishes}, {@code /requests}).
 */
public final class HashnodeSiteMain {

    private HashnodeSiteMain() {
    }

    public static void main(String[] args) throws Exception {
        HashnodeSite site = new HashnodeSite(Clock.systemUTC());
        HttpServer ctl = Loopback.control("hashnode-ctl", (path, q) -> switch (path) {
            case "/token" -> site.newToken();
            case "/revoke" -> { site.revokeAll(); yield "revoked"; }
            case "/not-pro" -> { site.notPro(); yield "not pro"; }
            case "/hold-after" -> { site.holdAfterPublish(); yield "hold-after"; }
            case "/reset-after" -> { site.resetAfterPublish(); yield "reset-after"; }
            case "/unavailable" -> { site.unavailableBeforeNextPublish(); yield "503 at the next publish"; }
            case "/release" -> { site.release(); yield "released"; }
            case "/posts" -> String.valueOf(site.posts(q.get("slug")));
            case "/by-hand" -> site.publishByHand(q.get("slug")).id();
            case "/publishes" -> String.valueOf(site.publishRequests());
            case "/requests" -> String.valueOf(site.requests().size());
            default -> "unknown";
        });
        System.out.println("gql " + site.base());
        System.out.println("control http://127.0.0.1:" + ctl.getAddress().getPort());
        Thread.currentThread().join();
    }
}
