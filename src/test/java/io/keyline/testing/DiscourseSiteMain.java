package io.keyline.testing;

import com.sun.net.httpserver.HttpServer;

/**
 * Runs a {@link DiscourseSite} on its own, for living a flow by hand against the packaged jar: it prints the site's
 * address and that of a control server on loopback whose paths turn the site's switches ({@code /login},
 * {@code /expire}, {@code /busy?status=429&times=1&after=30}, {@code /hold-after}, {@code /hold-before},
 * {@code /release}, {@code /approval}, {@code /space?seconds=15}, {@code /expire-at-post}, {@code /created?title=…}, {@code /queued?title=…}, {@code /attempts?title=…}, {@code /duplicates},
 * {@code /by-hand?title=…}).
 */
public final class DiscourseSiteMain {

    private DiscourseSiteMain() {
    }

    public static void main(String[] args) throws Exception {
        DiscourseSite site = new DiscourseSite();
        HttpServer ctl = Loopback.control("discourse-ctl", (path, q) -> switch (path) {
            case "/login" -> site.logIn();
            case "/expire" -> { site.expireLogins(); yield "expired"; }
            case "/busy" -> { site.busy(Integer.parseInt(q.get("status")), Integer.parseInt(q.get("times")),
                    q.get("after")); yield "busy"; }
            case "/hold-after" -> { site.holdAfterStore(); yield "hold-after"; }
            case "/hold-before" -> { site.holdBeforeStore(); yield "hold-before"; }
            case "/release" -> { site.release(); yield "released"; }
            case "/created" -> String.valueOf(site.created(q.get("title")));
            case "/attempts" -> String.valueOf(site.attempts(q.get("title")));
            case "/duplicates" -> { site.allowDuplicateTitles(); yield "duplicates allowed"; }
            case "/space" -> { site.spaceTopics(Integer.parseInt(q.get("seconds"))); yield "spaced"; }
            case "/approval" -> { site.requireApproval(); yield "new topics wait for a moderator"; }
            case "/queued" -> String.valueOf(site.queued(q.get("title")));
            case "/expire-at-post" -> { site.expireAtNextPost(); yield "expires at the next POST"; }
            case "/by-hand" -> { site.postByHand(q.get("title"), q.get("external_id"),
                    Integer.parseInt(q.getOrDefault("category", "5"))); yield "posted"; }
            case "/requests" -> String.join("\n", site.requests().stream().map(r -> r.method() + " "
                    + r.path() + (r.query() == null ? "" : "?" + r.query())).toList());
            default -> "?";
        });
        System.out.println("site " + site.base() + " ctl http://127.0.0.1:" + ctl.getAddress().getPort());
        System.out.flush();
        Thread.currentThread().join();
    }
}
