package io.keyline.testing;

import com.sun.net.httpserver.HttpServer;

/**
 * Runs a {@link MediaWikiSite} on its own, for living a flow by hand against the packaged jar: it prints the wiki's
 * address and that of a control server on loopback whose paths turn the site's switches ({@code /login} answers a
 * cookies.txt, {@code /expire-sessions}, {@code /expire}, {@code /expire-at-edit}, {@code /lag?seconds=12&times=1},
 * {@code /ratelimit?times=1}, {@code /readonly?times=1}, {@code /by-hand-next?title=…}, {@code /hold-after}, {@code /reset-after}, {@code /release}, {@code /private},
 * {@code /saves?title=…}, {@code /page?title=…}, {@code /by-hand?title=…&text=…}).
 */
public final class MediaWikiSiteMain {

    private MediaWikiSiteMain() {
    }

    public static void main(String[] args) throws Exception {
        MediaWikiSite site = new MediaWikiSite();
        HttpServer ctl = Loopback.control("mediawiki-ctl", (path, q) -> switch (path) {
            case "/login" -> site.logIn();
            case "/expire-sessions" -> { site.expireSessions(); yield "sessions expired"; }
            case "/expire" -> { site.expireLogins(); yield "logins expired"; }
            case "/expire-at-edit" -> { site.expireAtNextEdit(); yield "expires at the next edit"; }
            case "/lag" -> { site.lagged(Integer.parseInt(q.get("seconds")), Integer.parseInt(q.get("times")));
                yield "lagged"; }
            case "/ratelimit" -> { site.rateLimited(Integer.parseInt(q.get("times"))); yield "rate limited"; }
            case "/readonly" -> { site.readOnly(Integer.parseInt(q.get("times"))); yield "read-only"; }
            case "/by-hand-next" -> { site.writeByHandBeforeNextEdit(q.get("title")); yield "armed"; }
            case "/hold-after" -> { site.holdAfterSave(); yield "hold-after"; }
            case "/reset-after" -> { site.resetAfterSave(); yield "reset-after"; }
            case "/release" -> { site.release(); yield "released"; }
            case "/private" -> { site.makePrivate(); yield "private"; }
            case "/saves" -> String.valueOf(site.saves(q.get("title")));
            case "/page" -> String.valueOf(site.page(q.get("title")));
            case "/by-hand" -> { site.writeByHand(q.get("title"), q.getOrDefault("text", "By hand.")); yield "written"; }
            default -> "unknown";
        });
        System.out.println("wiki " + site.base());
        System.out.println("control http://127.0.0.1:" + ctl.getAddress().getPort());
        Thread.currentThread().join();
    }
}
