package io.keyline.testing;

import com.sun.net.httpserver.HttpServer;

import java.time.Clock;

/**
 * Runs a {@link DropboxSite} on its own, for living a flow by hand against the packaged jar: it prints the two hosts'
 * addresses, the token endpoint, the app key and secret, and that of a control server on loopback whose paths turn
 * the site's switches ({@code /refresh-token} answers a new refresh token, {@code /revoke}, {@code /expire},
 * {@code /rotate?on=true}, {@code /token-down?on=true}, {@code /lose-upload-answer}, {@code /uploads?path=…},
 * {@code /requests}).
 */
public final class DropboxSiteMain {

    private DropboxSiteMain() {
    }

    public static void main(String[] args) throws Exception {
        DropboxSite site = new DropboxSite(Clock.systemUTC());
        HttpServer ctl = Loopback.control("dropbox-ctl", (path, q) -> switch (path) {
            case "/refresh-token" -> site.newRefreshToken();
            case "/revoke" -> { site.revokeAll(); yield "revoked"; }
            case "/expire" -> { site.expireAccessTokens(); yield "expired"; }
            case "/rotate" -> { site.rotate(Boolean.parseBoolean(q.get("on"))); yield "rotate"; }
            case "/token-down" -> { site.tokenDown(Boolean.parseBoolean(q.get("on"))); yield "token endpoint"; }
            case "/lose-upload-answer" -> { site.loseNextUploadAnswer(); yield "loses the next upload's answer"; }
            case "/uploads" -> String.valueOf(site.uploads(q.get("path")));
            case "/requests" -> String.valueOf(site.requests().size());
            default -> "unknown";
        });
        System.out.println("api " + site.api());
        System.out.println("content " + site.content());
        System.out.println("token_url " + site.tokenUrl());
        System.out.println("client_id " + DropboxSite.APP_KEY);
        System.out.println("client_secret " + site.appSecret());
        System.out.println("control http://127.0.0.1:" + ctl.getAddress().getPort());
        Thread.currentThread().join();
    }
}
