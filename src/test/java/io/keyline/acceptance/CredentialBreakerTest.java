package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.testing.TestSite;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static io.keyline.acceptance.CredentialTesting.CRED;
import static io.keyline.acceptance.CredentialTesting.USES_CRED;
import static io.keyline.acceptance.CredentialTesting.set;
import static io.keyline.acceptance.CredentialTesting.status;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A rejected credential stops its sends: five keys on a dead cookie send it once,
 * a later run and another job send it never, until a renewal or a test that finds it accepted.
 * Before the breaker, each key sent the dead cookie (five POSTs), and a new key sent it once more.
 */
class CredentialBreakerTest {

    @TempDir
    Path tmp;
    Workbench wb;
    TestSite site;

    @BeforeEach
    void setUp() throws IOException {
        wb = new Workbench(tmp);
        site = new TestSite();
        wb.job("p", Jobs.publish("p", "unsafe", false, USES_CRED), site.base());
        wb.job("q", Jobs.publish("q", "unsafe", false, USES_CRED), site.base());
    }

    @AfterEach
    void tearDown() throws IOException {
        site.close();
    }

    private long requestsWithCookie(String value) {
        return site.server().received().stream()
                .filter(r -> r.header("Cookie") != null && r.header("Cookie").contains(value)).count();
    }

    @Test
    void fiveKeysOnARejectedCookieSendItOnceUntilItIsRenewedOrTestedOk() throws IOException {
        site.requireCookie("session=good");
        assertThat(set(wb, CRED, "session=stale").exit()).isZero();
        Result run = wb.cli("run", "--yes", "p", "--from", "2026-11-25", "--to", "2026-11-29");
        assertThat(run.exit()).as(run.toString()).isEqualTo(4);
        assertThat(requestsWithCookie("session=stale")).as("one request learned that it is dead").isEqualTo(1);
        for (String k : java.util.List.of("2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29")) {
            JsonNode st = status(wb, "p", k);
            assertThat(st.get("state").asText()).as(k).isEqualTo("NEEDS_CREDENTIAL");
            assertThat(st.get("credential").asText()).isEqualTo(CRED);
        }
        assertThat(status(wb, "p", "2026-11-26").get("message").asText()).contains("rejected").contains("not sent again");
        assertThat(run.out().lines().filter(l -> l.contains("next: renew credential " + CRED)).count())
                .as("one renewal resumes the five keys: said once\n" + run.out()).isEqualTo(1);

        // another job, another run: parks without sending
        Result other = wb.cli("run", "q", "--key", "2026-11-29");
        assertThat(other.exit()).as(other.toString()).isEqualTo(4);
        assertThat(requestsWithCookie("session=stale")).isEqualTo(1);
        assertThat(site.posts()).as("the one POST that learned it").isEqualTo(1);
        assertThat(site.allEffects()).isEmpty();

        // the site takes the old cookie again (the operator logged in elsewhere and it was revived):
        // a test finds it accepted, the breaker closes and the parked keys resume
        site.requireCookie("session=stale");
        wb.job("p", Jobs.publish("p", "unsafe", true, USES_CRED), site.base());
        Result test = wb.cli("credentials", "test", CRED);
        assertThat(test.exit()).as(test.toString()).isZero();
        assertThat(test.out()).contains("6 parked keys resumed"); // five of p, one of q
        Result after = wb.cli("run", "--yes", "p", "--from", "2026-11-25", "--to", "2026-11-29");
        assertThat(after.exit()).as(after.toString()).isZero();
        assertThat(site.allEffects()).hasSize(5).allSatisfy((k, n) -> assertThat(n).isEqualTo(1));
    }

    @Test
    void aRenewalClosesTheBreaker() {
        site.requireCookie("session=good");
        set(wb, CRED, "session=stale");
        assertThat(wb.cli("run", "p", "--key", "2026-11-29").exit()).isEqualTo(4);
        Result renew = set(wb, CRED, "session=good");
        assertThat(renew.exit()).as(renew.toString()).isZero();
        assertThat(renew.out()).contains("1 parked key resumed");
        Result run = wb.cli("run", "p", "--key", "2026-11-29");
        assertThat(run.exit()).as(run.toString()).isZero();
        assertThat(site.effects("2026-11-29")).isEqualTo(1);
        assertThat(requestsWithCookie("session=stale")).isEqualTo(1);
    }
}
