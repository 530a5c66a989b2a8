package io.keyline.testing;

import com.sun.net.httpserver.HttpServer;

/**
 * Runs a {@link NextcloudSite} on its own, for living a flow by hand against the packaged jar: it prints the server's
 * address and that of a control server on loopback whose paths turn the site's switches ({@code /password} answers
 * a new app password, {@code /revoke}, {@code /maintenance?on=true}, {@code /lock?path=…}, {@code /unlock?path=…},
 * {@code /quota?bytes=…}, {@code /hold-put}, {@code /release}, {@code /uploads?path=…}, {@code /sha256?path=…},
 * {@code /failed-logins}, {@code /requests}).
 */
public final class NextcloudSiteMain {

    private NextcloudSiteMain() {
    }

    public static void main(String[] args) throws Exception {
        NextcloudSite site = new NextcloudSite();
        HttpServer ctl = Loopback.control("nextcloud-ctl", (path, q) -> switch (path) {
            case "/password" -> site.newAppPassword();
            case "/revoke" -> { site.revokeAll(); yield "revoked"; }
            case "/maintenance" -> { site.maintenance(Boolean.parseBoolean(q.get("on"))); yield "maintenance"; }
            case "/lock" -> { site.lock(q.get("path")); yield "locked"; }
            case "/unlock" -> { site.unlock(q.get("path")); yield "unlocked"; }
            case "/quota" -> { site.quota(Long.parseLong(q.get("bytes"))); yield "quota"; }
            case "/hold-put" -> { site.holdNextPut(); yield "holds the next PUT"; }
            case "/release" -> { site.release(); yield "released"; }
            case "/uploads" -> String.valueOf(site.uploads(q.get("path")));
            case "/sha256" -> site.file(q.get("path")) == null ? "absent" : NextcloudSite.sha256(site.file(q.get("path")));
            case "/failed-logins" -> String.valueOf(site.failedLogins());
            case "/requests" -> String.valueOf(site.requests().size());
            default -> "unknown";
        });
        System.out.println("nextcloud " + site.base());
        System.out.println("control http://127.0.0.1:" + ctl.getAddress().getPort());
        Thread.currentThread().join();
    }
}
