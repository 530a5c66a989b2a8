package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.testing.FaultServer.Request;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.TestSite;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static io.keyline.acceptance.CredentialTesting.CRED;
import static io.keyline.acceptance.CredentialTesting.USES_CRED;
import static io.keyline.acceptance.CredentialTesting.cookieHas;
import static io.keyline.acceptance.CredentialTesting.fingerprintIn;
import static io.keyline.acceptance.CredentialTesting.listedFingerprint;
import static io.keyline.acceptance.CredentialTesting.requestsOf;
import static io.keyline.acceptance.CredentialTesting.set;
import static io.keyline.acceptance.CredentialTesting.status;
import static io.keyline.acceptance.CredentialTesting.timeline;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The credentials issue's round trip against a loopback site that demands a cookie: stale or expired
 * cookie → 401 → NEEDS_CREDENTIAL (exit 4) → {@code credentials set} in each of the three cookie formats →
 * "1 parked key resumed" → the key completes, the site saw its effect exactly once, and no POST ever went
 * out without the right cookie.
 */
class CredentialRoundTripTest extends SiteTestBase {

    static final Instant CLOCK = Instant.parse("2026-11-29T09:00:00Z");
    static final long EXPIRED = Instant.parse("2026-11-28T00:00:00Z").getEpochSecond();
    static final long IN_A_MONTH = Instant.parse("2026-12-29T00:00:00Z").getEpochSecond();


    @BeforeEach
    void setUp() throws IOException {
        assertThat(wb.clock.instant()).isEqualTo(CLOCK);
        wb.job("p", Jobs.publish("p", "unsafe", true, USES_CRED), site.base());
    }

    /** A Netscape cookies.txt with an {@code #HttpOnly_} line for the session cookie, domain 127.0.0.1. */
    static String cookiesTxt(String session, long expiry) {
        return "# Netscape HTTP Cookie File\n"
                + "# https://curl.se/docs/http-cookies.html\n"
                + "\n"
                + "#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t" + expiry + "\tsession\t" + session + "\n"
                + "127.0.0.1\tFALSE\t/\tFALSE\t0\ttheme\tdark\n";
    }

    /** A browser extension's JSON export (Cookie-Editor / EditThisCookie style) with expirationDate. */
    static String jsonExport(String session, long expiry) {
        return """
            [
              {
                "domain": "127.0.0.1",
                "expirationDate": %d.318,
                "hostOnly": true,
                "httpOnly": true,
                "name": "session",
                "path": "/",
                "sameSite": "lax",
                "secure": false,
                "session": false,
                "storeId": "0",
                "value": "%s"
              },
              {
                "domain": "127.0.0.1",
                "hostOnly": true,
                "httpOnly": false,
                "name": "theme",
                "path": "/",
                "secure": false,
                "session": true,
                "value": "dark"
              }
            ]
            """.formatted(expiry, session);
    }

    @Test
    void expiredOrStaleCookieParksTheKeyAndEachCookieFormatResumesIt() throws IOException {
        // the stored login is a cookies.txt whose session cookie expired before the clock
        Result first = set(wb, CRED, cookiesTxt("round0Value", EXPIRED));
        assertThat(first.out()).contains("0 parked keys resumed");

        // --- round 1: expired cookie (not even sent) → renewed with a Cookie: header line ---------
        round(1, "2026-11-27", "Cookie: session=round1Value; theme=dark\n", false);
        List<Request> round1 = requestsOf(site.server(), "p", "2026-11-27");
        assertThat(round1.get(0).method()).isEqualTo("GET");
        assertThat(round1.get(0).header("Cookie"))
                .as("the expired session cookie must not be sent").doesNotContain("session=");

        // --- round 2: stale cookie (sent, rejected) → renewed with a cookies.txt file -------------
        round(2, "2026-11-28", cookiesTxt("round2Value", IN_A_MONTH), true);
        assertThat(requestsOf(site.server(), "p", "2026-11-28").get(0).header("Cookie"))
                .as("the stale cookie is sent and rejected").contains("session=round1Value");

        // --- round 3: stale cookie → renewed with a JSON export ---------------------------------
        round(3, "2026-11-29", jsonExport("round3Value", IN_A_MONTH), false);

        assertThat(site.allEffects()).containsOnlyKeys("2026-11-27", "2026-11-28", "2026-11-29")
                .containsValues(1, 1, 1);
        assertThat(site.posts()).isEqualTo(3);
        // every POST the site ever saw carried the cookie that was valid at the time
        for (Request post : site.server().received()) {
            if (post.method().equals("POST")) {
                String key = post.header("Idempotency-Key").split(":")[1];
                int round = switch (key) {
                    case "2026-11-27" -> 1;
                    case "2026-11-28" -> 2;
                    default -> 3;
                };
                assertThat(cookieHas(post.header("Cookie"), "session=round" + round + "Value"))
                        .as("POST for %s carried %s", key, post.header("Cookie")).isTrue();
            }
        }
    }

    private void round(int n, String key, String newValue, boolean fromFile) throws IOException {
        String cookie = "session=round" + n + "Value";
        site.requireCookie(cookie);
        long postsBefore = site.posts();

        Result blocked = wb.cli("run", "p", "--key", key);
        assertThat(blocked.exit()).as("round %d: %s", n, blocked).isEqualTo(4);
        JsonNode st = status(wb, "p", key);
        assertThat(st.get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(st.get("credential").asText()).isEqualTo(CRED);
        assertThat(st.get("message").asText()).contains(CRED).contains("401");
        assertThat(site.posts()).as("nothing is posted with a rejected login").isEqualTo(postsBefore);
        assertThat(site.effects(key)).isZero();
        // a second run does not hammer the site: the key stays parked until a person renews the login
        long requests = site.server().received().size();
        assertThat(wb.cli("run", "p", "--key", key).exit()).isEqualTo(4);
        assertThat(site.server().received()).hasSize((int) requests);
        assertThat(wb.sleeps).as("a 401 is never retried").isEmpty();

        Result renewed;
        if (fromFile) {
            Path f = tmp.resolve("renew-" + n + ".txt");
            Files.writeString(f, newValue, StandardCharsets.UTF_8);
            renewed = wb.cli("credentials", "set", CRED, "--from-file", f.toString());
        } else {
            renewed = wb.cliWithInput(newValue, "credentials", "set", CRED);
        }
        assertThat(renewed.exit()).as(renewed.toString()).isZero();
        assertThat(renewed.out()).contains("1 parked key resumed").contains("p " + key)
                .doesNotContain("round" + n + "Value");
        String fingerprint = fingerprintIn(renewed.out());
        assertThat(listedFingerprint(wb, CRED)).isEqualTo(fingerprint);
        assertThat(status(wb, "p", key).get("state").asText()).isEqualTo("PENDING");

        Result done = wb.cli("run", "p", "--key", key);
        assertThat(done.exit()).as("round %d: %s", n, done).isZero();
        assertThat(status(wb, "p", key).get("state").asText()).isEqualTo("DONE");
        assertThat(site.effects(key)).as("round %d effect", n).isEqualTo(1);
        for (Request r : requestsOf(site.server(), "p", key)) {
            if (r.method().equals("POST")) {
                assertThat(cookieHas(r.header("Cookie"), cookie)).as("POST with %s", r.header("Cookie")).isTrue();
            }
        }

        List<JsonNode> events = timeline(wb, "p", key);
        List<JsonNode> updated = events.stream()
                .filter(e -> e.get("type").asText().equals("CREDENTIAL_UPDATED")).toList();
        assertThat(updated).hasSize(1);
        assertThat(updated.get(0).get("user").asText()).isEqualTo("tester");
        assertThat(updated.get(0).get("message").asText()).contains(CRED).contains(fingerprint);
        assertThat(updated.get(0).get("state").asText()).isEqualTo("PENDING");
        assertThat(events.toString()).doesNotContain("round" + n + "Value").doesNotContain("round" + (n - 1) + "Value");
        assertThat(events.get(events.size() - 1).get("type").asText()).isEqualTo("KEY_DONE");
    }

    @Test
    void renewingWithoutParkedKeysResumesNothingAndReplacesTheValue() {
        site.requireCookie("session=round1Value");
        String a = fingerprintIn(set(wb, CRED, "session=round0Value").out());
        Result again = set(wb, CRED, "Cookie: session=round1Value");
        assertThat(again.out()).contains("0 parked keys resumed");
        String b = fingerprintIn(again.out());
        assertThat(b).isNotEqualTo(a);
        assertThat(wb.cli("run", "p", "--key", "2026-11-29").exit()).isZero();
        assertThat(site.effects("2026-11-29")).isEqualTo(1);
    }
}
