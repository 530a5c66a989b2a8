package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.testing.FaultServer.Request;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.TestSite;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import static io.keyline.acceptance.CredentialTesting.CRED;
import static io.keyline.acceptance.CredentialTesting.USES_CRED;
import static io.keyline.acceptance.CredentialTesting.fingerprintIn;
import static io.keyline.acceptance.CredentialTesting.listRow;
import static io.keyline.acceptance.CredentialTesting.set;
import static io.keyline.acceptance.CredentialTesting.status;
import static io.keyline.acceptance.CredentialTesting.timeline;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * How operators and steps meet credentials: command steps get them in the environment and never on the
 * command line; {@code credentials list} shows everything but the value and flags what needs renewing
 * (also in {@code jobs} and {@code status}); {@code credentials test} runs the probes read-only.
 */
class CredentialOperationsTest extends SiteTestBase {

    static final String KEY = "2026-11-29";


    static String envJob(String name) {
        return """
            {
              "name": "%s",
              "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
              "steps": [
                { "id": "use", "kind": "command", "effect": "none", %s
                  "command": ["sh", "-c", "printf '%%s\\\\n%%s\\\\n%%s\\\\n' \\"$KEYLINE_COOKIE\\" \\"$KEYLINE_CREDENTIAL\\" \\"${{KEYLINE_MASTER_KEY:-no master key}}\\" > env-{key}.txt; echo wrote env-{key}.txt"],
                  "timeout": "PT10S" }
              ]
            }
            """.formatted(name, USES_CRED);
    }

    static String json(String... cookies) {
        return "[" + String.join(",", cookies) + "]";
    }

    static String cookie(String name, String value, Instant expires) {
        return "{\"name\":\"" + name + "\",\"value\":\"" + value + "\",\"domain\":\"127.0.0.1\",\"path\":\"/\""
                + (expires == null ? ",\"session\":true" : ",\"expirationDate\":" + expires.getEpochSecond()) + "}";
    }

    // --- environment ----------------------------------------------------------------------------

    @Test
    void commandStepsGetTheCredentialInTheEnvironmentNeverOnTheCommandLine() throws IOException {
        wb.job("e", envJob("e"), null);
        wb.env().put("KEYLINE_MASTER_KEY", CredentialMasterKeyTest.A);
        set(wb, CRED, json(cookie("session", "EnvS3cretValue", Instant.parse("2026-12-29T00:00:00Z")),
                cookie("theme", "dark", null)));
        Result run = wb.cli("run", "e", "--key", KEY);
        assertThat(run.exit()).as(run.toString()).isZero();

        List<String> lines = Files.readAllLines(wb.jobs.resolve("env-" + KEY + ".txt"), StandardCharsets.UTF_8);
        assertThat(lines.get(0)).as("KEYLINE_COOKIE").isEqualTo("session=EnvS3cretValue; theme=dark");
        assertThat(lines.get(1)).as("KEYLINE_CREDENTIAL").isEqualTo("session=EnvS3cretValue; theme=dark");
        assertThat(lines.get(2)).as("the master key is never passed on").isEqualTo("no master key");

        List<JsonNode> events = timeline(wb, "e", KEY);
        JsonNode succeeded = events.stream().filter(e -> e.get("type").asText().equals("STEP_SUCCEEDED"))
                .findFirst().orElseThrow();
        JsonNode command = succeeded.get("evidence").get("command");
        assertThat(command.isArray()).as(succeeded.toString()).isTrue();
        assertThat(command.get(0).asText()).isEqualTo("sh");
        assertThat(command.toString()).contains("KEYLINE_COOKIE").doesNotContain("EnvS3cretValue");
        assertThat(events.toString()).doesNotContain("EnvS3cretValue");
        assertThat(run.out() + run.err()).doesNotContain("EnvS3cretValue");
    }

    @Test
    void commandEnvironmentJudgesCookieExpiryByTheEngineClock() throws IOException {
        // the engine's clock says 2026-01-02: the session cookie (expires 2026-06-01) is valid, "old" has expired
        wb.clock.set(Instant.parse("2026-01-02T09:00:00Z"));
        wb.job("e", envJob("e"), null);
        set(wb, CRED, json(cookie("session", "EnvS3cretValue", Instant.parse("2026-06-01T00:00:00Z")),
                cookie("old", "OldS3cretValue", Instant.parse("2026-01-01T00:00:00Z"))));
        Result run = wb.cli("run", "e", "--key", "2026-01-02");
        assertThat(run.exit()).as(run.toString()).isZero();
        List<String> lines = Files.readAllLines(wb.jobs.resolve("env-2026-01-02.txt"), StandardCharsets.UTF_8);
        assertThat(lines.get(0)).as("KEYLINE_COOKIE holds the cookies valid at the engine's clock")
                .isEqualTo("session=EnvS3cretValue");
        assertThat(lines.get(1)).isEqualTo("session=EnvS3cretValue");
    }

    // --- list and warnings ------------------------------------------------------------------------

    @Test
    void listShowsEverythingButTheValueAndFlagsWhatNeedsRenewing() throws IOException {
        Instant now = wb.clock.instant();
        site.requireCookie("session=SoonS3cret");
        wb.job("p", Jobs.publish("p", "unsafe", true, USES_CRED), site.base());
        wb.job("r", Jobs.publish("r", "unsafe", true, "\"credential\": \"other-cookie\","), site.base());
        wb.job("g", Jobs.publish("g", "unsafe", true, "\"credential\": \"ghost\","), site.base());

        String soon = fingerprintIn(set(wb, CRED, json(
                cookie("session", "SoonS3cret", now.plus(Duration.ofDays(3)).minus(Duration.ofHours(1))),
                cookie("theme", "dark", null))).out());
        String later = fingerprintIn(set(wb, "later-cookie", json(
                cookie("session", "LaterS3cret", now.plus(Duration.ofDays(3)).plus(Duration.ofHours(1))))).out());
        set(wb, "old-cookie", json(cookie("session", "OldS3cret", now.minus(Duration.ofHours(1)))));
        set(wb, "other-cookie", "session=WrongS3cret");

        assertThat(wb.cli("run", "p", "--key", KEY).exit()).isZero();
        assertThat(wb.cli("run", "r", "--key", KEY).exit()).isEqualTo(4);
        assertThat(wb.cli("run", "g", "--key", KEY).exit()).isEqualTo(4);

        Result list = wb.cli("credentials", "list");
        assertThat(list.exit()).as(list.toString()).isZero();
        assertThat(list.out().lines().findFirst().orElseThrow().split("\\s{2,}"))
                .containsExactly("NAME", "TYPE", "FINGERPRINT", "COOKIES", "EXPIRES", "LAST USED", "RESULT",
                        "PARKED KEYS");
        String[] s = listRow(wb, CRED);
        assertThat(s).as(Arrays.toString(s)).hasSize(9);
        assertThat(s[1]).isEqualTo("cookie");
        assertThat(s[2]).isEqualTo(soon);
        assertThat(s[3]).isEqualTo("2");
        assertThat(s[4]).as("earliest expiry").isNotEqualTo("-");
        assertThat(s[5]).as("last used").isNotEqualTo("-");
        assertThat(s[6]).isEqualTo("accepted");
        assertThat(s[7]).isEqualTo("0");
        assertThat(s[8]).isEqualTo("EXPIRES SOON");

        String[] l = listRow(wb, "later-cookie");
        assertThat(l).as("not flagged: expires in more than 3 days " + Arrays.toString(l)).hasSize(8);
        assertThat(l[2]).isEqualTo(later);
        assertThat(l[5]).as("never used").isEqualTo("-");

        String[] old = listRow(wb, "old-cookie");
        assertThat(old[old.length - 1]).isEqualTo("EXPIRED");

        String[] o = listRow(wb, "other-cookie");
        assertThat(o[4]).as("a session cookie has no expiry").isEqualTo("-");
        assertThat(o[6]).isEqualTo("rejected");
        assertThat(o[7]).as("parked keys").isEqualTo("1");
        assertThat(o[8]).isEqualTo("REJECTED");

        assertThat(list.out()).contains("not set: ghost (1 parked key)");
        assertThat(list.out()).doesNotContain("SoonS3cret").doesNotContain("LaterS3cret")
                .doesNotContain("OldS3cret").doesNotContain("WrongS3cret");

        for (String command : List.of("jobs", "status")) {
            Result r = wb.cli(command);
            assertThat(r.exit()).as(r.toString()).isZero();
            List<String> warnings = r.out().lines().filter(x -> x.startsWith("! ")).toList();
            assertThat(warnings).as(command + "\n" + r.out()).hasSize(4);
            assertThat(warnings).anySatisfy(w -> assertThat(w).startsWith("! credential site-cookie expires ")
                    .endsWith("renew it soon"));
            assertThat(warnings).anySatisfy(w -> assertThat(w).startsWith("! credential old-cookie has expired"));
            assertThat(warnings).contains("! credential other-cookie was rejected; 1 key waits for it to be renewed");
            assertThat(warnings).anySatisfy(w -> assertThat(w).startsWith("! credential ghost is not set; 1 key waits"));
            assertThat(warnings).noneMatch(w -> w.contains("later-cookie"));
        }
        Result attention = wb.cli("status", "--attention");
        assertThat(attention.out()).contains("! credential site-cookie expires ");
    }

    // --- credentials test -----------------------------------------------------------------------

    @Test
    void credentialsTestRunsTheProbesReadOnly() throws IOException {
        site.requireCookie("session=TestS3cret");
        wb.job("p", Jobs.publish("p", "unsafe", true, USES_CRED), site.base());

        set(wb, CRED, "Cookie: session=TestS3cret; theme=dark");
        Result accepted = wb.cli("credentials", "test", CRED);
        assertThat(accepted.exit()).as(accepted.toString()).isZero();
        assertThat(accepted.out()).contains("p/publish probe: accepted");
        assertThat(listRow(wb, CRED)[6]).isEqualTo("accepted");

        set(wb, CRED, "Cookie: session=StaleS3cret; theme=dark");
        Result rejected = wb.cli("credentials", "test", CRED);
        assertThat(rejected.exit()).as(rejected.toString()).isEqualTo(2);
        assertThat(rejected.out()).contains("p/publish probe: rejected");
        assertThat(listRow(wb, CRED)[6]).isEqualTo("rejected");

        assertThat(site.server().received()).hasSize(2).allSatisfy(r -> {
            assertThat(r.method()).isEqualTo("GET");
            assertThat(r.path()).isEqualTo("/api/articles");
        });
        List<Request> got = site.server().received();
        assertThat(got.get(0).header("Cookie")).contains("session=TestS3cret");
        assertThat(got.get(1).header("Cookie")).contains("session=StaleS3cret");
        assertThat(site.posts()).isZero();
        assertThat(site.allEffects()).isEmpty();
        // read-only: no key was created or moved
        Result st = wb.cli("status", "--json");
        assertThat(st.out().strip()).isEqualTo("[ ]");
        assertThat(accepted.out() + rejected.out() + accepted.err() + rejected.err())
                .doesNotContain("TestS3cret").doesNotContain("StaleS3cret");
    }

    @Test
    void credentialsTestOfAnUnsetCredentialOrOneWithoutProbes() throws IOException {
        Result unset = wb.cli("credentials", "test", CRED);
        assertThat(unset.exit()).isEqualTo(1);
        assertThat(unset.err()).contains("credential site-cookie is not set");
        wb.job("np", Jobs.publish("np", "unsafe", false, USES_CRED), site.base());
        set(wb, CRED, "session=abc12345");
        Result none = wb.cli("credentials", "test", CRED);
        assertThat(none.exit()).as(none.toString()).isEqualTo(4);
        assertThat(none.out()).contains("np/publish request: not tested").contains("without an http probe")
                .contains("Inconclusive");
        assertThat(site.server().received()).isEmpty();
        assertThat(wb.cli("status", "--json").out().strip()).as("read-only: no key was created").isEqualTo("[ ]");
    }

    @Test
    void aCredentialWhoseRequestWasNeverSentIsListedAsNotUsedYet() throws IOException {
        // port 1 on loopback: the connection is refused, the request (and its cookie) never leaves
        wb.job("down", Jobs.publish("down", "unsafe", false, USES_CRED), "http://127.0.0.1:1");
        set(wb, CRED, "session=NeverS3ntValue");
        set(wb, "idle-cookie", "session=IdleS3cret");

        Result run = wb.cli("run", "down", "--key", KEY);
        assertThat(run.exit()).as(run.toString()).isEqualTo(1);
        assertThat(run.out()).contains("connection refused");

        String[] after = listRow(wb, CRED);
        assertThat(after[5]).as("last used: " + Arrays.toString(after)).isEqualTo("-");
        assertThat(after[6]).as("the site never saw it: " + Arrays.toString(after)).isEqualTo("not used yet");
        String[] idle = listRow(wb, "idle-cookie");
        assertThat(idle[5]).as("last used").isEqualTo("-");
        assertThat(idle[6]).as(Arrays.toString(idle)).isEqualTo("not used yet");

        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            Result zh = wb.cli("credentials", "list");
            assertThat(zh.out()).as(zh.toString()).contains("尚未使用").doesNotContain("accepted").doesNotContain("not used");
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
    }

    @Test
    void aRenewalUnderANameNoJobUsesSaysSoAndNamesTheOnesTheyDo() throws IOException {
        wb.job("p", Jobs.publish("p", "unsafe", false, USES_CRED), site.base());
        set(wb, CRED, "session=stale");
        site.requireCookie("session=good");
        assertThat(wb.cli("run", "p", "--key", "2026-11-29").exit()).isEqualTo(4);

        // 07:00, the morning's renewal, one letter short
        Result typo = wb.cliWithInput("session=good", "credentials", "set", "site-cooki");

        assertThat(typo.exit()).as(typo.toString()).isZero();
        assertThat(typo.out()).contains("0 parked keys resumed")
                .contains("! no job file names credential site-cooki: the jobs use site-cookie");
        assertThat(status(wb, "p", "2026-11-29").get("state").asText()).isEqualTo("NEEDS_CREDENTIAL");
        Result right = wb.cliWithInput("session=good", "credentials", "set", CRED);
        assertThat(right.out()).as(right.toString()).contains("1 parked key resumed").doesNotContain("no job file");
    }
}
