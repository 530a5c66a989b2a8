package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.TestSite;
import io.keyline.testing.TestSite.Fault;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** One test per exit code of {@code run} and {@code apply} (SPEC §6), through the real command line. */
class ExitCodesTest extends SiteTestBase {

    static final String KEY = "2026-11-29";


    String state(String job, String key) {
        Result r = wb.cli("status", job, "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        for (JsonNode n : Json.read(r.out(), JsonNode.class)) {
            if (n.get("key").asText().equals(key)) {
                return n.get("state").asText();
            }
        }
        return "absent";
    }

    // --- 0 -------------------------------------------------------------------------------------

    @Test
    void exit0WhenEveryKeyIsDoneAndARerunSendsNothing() throws IOException {
        wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());
        Result first = wb.cli("run", "p", "--key", KEY);
        assertThat(first.exit()).as(first.toString()).isZero();
        assertThat(first.out()).contains("exit 0");
        assertThat(site.effects(KEY)).isEqualTo(1);
        assertThat(state("p", KEY)).isEqualTo("DONE");
        int requestsAfterFirst = site.server().received().size();
        Path article = wb.jobs.resolve("out").resolve(KEY + ".md");
        Files.delete(article);

        Result rerun = wb.cli("run", "p", "--key", KEY);
        assertThat(rerun.exit()).as("a key already DONE counts as done: " + rerun).isZero();
        assertThat(site.server().received()).as("the rerun sends nothing, not even the probe")
                .hasSize(requestsAfterFirst);
        assertThat(article).as("the rerun does not redo the write step either").doesNotExist();
        assertThat(site.effects(KEY)).isEqualTo(1);
    }

    // --- 1 -------------------------------------------------------------------------------------

    @Test
    void exit1WhenTheNamedJobFileIsInvalidWithFileLineColumn() throws IOException {
        wb.job("good", Jobs.command("good", "none", "true", "PT10S"), null);
        // an unknown field on line 3
        wb.job("bad", """
                {
                  "name": "bad",
                  "descripton": "typo",
                  "key": { "type": "date", "zone": "UTC" },
                  "steps": [ { "id": "a", "kind": "command", "effect": "none", "command": ["true"] } ]
                }
                """, null);
        Result r = wb.cli("run", "bad", "--key", KEY);
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).containsPattern(Pattern.quote("bad.json") + ":3:\\d+");
        // the other job still loads and runs
        Result good = wb.cli("run", "good", "--key", KEY);
        assertThat(good.exit()).as(good.toString()).isZero();
    }

    @Test
    void exit1WhenTheJobIsPausedAndTheReasonIsPrinted() throws IOException {
        wb.job("c", Jobs.command("c", "none", "echo x >> ran", "PT10S"), null);
        Result p = wb.cli("pause", "c", "--reason", "site maintenance");
        assertThat(p.exit()).as(p.toString()).isZero();
        Result r = wb.cli("run", "c", "--key", KEY);
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out() + r.err()).contains("site maintenance");
        assertThat(wb.jobs.resolve("ran")).doesNotExist();
    }

    @Test
    void exit1WhenAppliedPlanIsStale() throws IOException {
        wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());
        Result plan = wb.cli("plan", "p", "--key", KEY, "--key", "2026-11-28", "--json");
        assertThat(plan.exit()).as(plan.toString()).isZero();
        String planId = Json.read(plan.out(), JsonNode.class).get("planId").asText();
        Result run = wb.cli("run", "p", "--key", "2026-11-28");
        assertThat(run.exit()).as(run.toString()).isZero();
        int before = site.server().received().size();

        Result apply = wb.cli("apply", planId);
        assertThat(apply.exit()).as(apply.toString()).isEqualTo(1);
        assertThat(apply.err()).contains("stale");
        assertThat(site.server().received().subList(before, site.server().received().size()))
                .as("apply re-plans (read-only probes) and sends nothing else").allMatch(r -> r.method().equals("GET"));
        assertThat(site.effects(KEY)).isZero();
    }

    @Test
    void exit1OnACorruptStateFileWithAClearMessageAndTheFileUntouched() throws IOException {
        wb.job("c", Jobs.command("c", "none", "echo x >> ran", "PT10S"), null);
        Files.createDirectories(wb.state);
        Path db = wb.state.resolve("keyline.mv.db");
        byte[] garbage = new byte[64 * 1024];
        new Random(42).nextBytes(garbage);
        Files.write(db, garbage);

        Result r = wb.cli("run", "c", "--key", KEY);
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).as(r.toString()).contains("keyline.mv.db");
        assertThat(r.err()).as("no stack trace: " + r)
                .doesNotContain("\tat ").doesNotContain("Exception:").doesNotContain("this is a bug");
        assertThat(Files.readAllBytes(db)).as("the corrupt file is left as it was").isEqualTo(garbage);
        assertThat(wb.jobs.resolve("ran")).as("nothing ran").doesNotExist();
    }

    // --- 2 -------------------------------------------------------------------------------------

    @Test
    void exit2WhenAKeyFailedAndNoneIsDone() throws IOException {
        site.failPosts(Fault.STATUS_404);
        wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());
        Result r = wb.cli("run", "p", "--key", KEY);
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(state("p", KEY)).isEqualTo("FAILED");
        assertThat(r.out()).contains("FAILED").contains(KEY);
        assertThat(site.effects(KEY)).isZero();
    }

    // --- 3 -------------------------------------------------------------------------------------

    @Test
    void exit3WhenOneKeyFailedFatallyAndAnotherIsDoneAndTheFailedKeyIsListed() throws IOException {
        wb.job("c", """
                {
                  "name": "c",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                  "steps": [
                    { "id": "work", "kind": "command", "effect": "none",
                      "command": ["sh", "-c", "if [ \\"$1\\" = 2026-11-28 ]; then echo 'bad input' >&2; exit 65; fi; echo \\"$1\\" >> done.txt", "sh", "{key}"] }
                  ]
                }
                """, null);
        Result r = wb.cli("run", "--yes", "c", "--from", "2026-11-28", "--to", KEY);
        assertThat(r.exit()).as(r.toString()).isEqualTo(3);
        assertThat(state("c", "2026-11-28")).isEqualTo("FAILED");
        assertThat(state("c", KEY)).isEqualTo("DONE");
        assertThat(r.out()).containsPattern("FAILED\\s+2026-11-28");
        assertThat(r.out()).doesNotContainPattern("FAILED\\s+" + KEY);
        assertThat(Files.readString(wb.jobs.resolve("done.txt")).strip()).isEqualTo(KEY);
    }

    // --- 4 -------------------------------------------------------------------------------------

    @Test
    void exit4WhenAKeyWaitsForConfirmation() throws IOException {
        site.failPosts(Fault.STATUS_500_AFTER_ACTING);
        wb.job("p", Jobs.publish("p", "unsafe", false, null), site.base());
        Result r = wb.cli("run", "p", "--key", KEY);
        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(state("p", KEY)).isEqualTo("NEEDS_CONFIRMATION");
        assertThat(r.out()).contains("keyline confirm p " + KEY);
        assertThat(site.posts()).isEqualTo(1);
    }

    @Test
    void exit4WhenAKeyWaitsForACredential() throws IOException {
        wb.job("p", Jobs.publish("p", "unsafe", true, "\"credential\": \"site-cookie\","), site.base());
        Result r = wb.cli("run", "p", "--key", KEY);
        assertThat(r.exit()).as(r.toString()).isEqualTo(4);
        assertThat(state("p", KEY)).isEqualTo("NEEDS_CREDENTIAL");
        assertThat(r.out()).contains("site-cookie");
        assertThat(site.posts()).isZero();
    }

    // --- 5 -------------------------------------------------------------------------------------

    @Test
    void exit5WhenARetryIsPendingBeyondTheWaitInPlace() throws IOException {
        site.retryAfterSeconds(600);
        site.failPosts(Fault.STATUS_429);
        wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());
        Result r = wb.cli("run", "p", "--key", KEY);
        assertThat(r.exit()).as(r.toString()).isEqualTo(5);
        assertThat(state("p", KEY)).isEqualTo("RETRY_WAIT");
        assertThat(r.out()).contains("RETRY_WAIT").contains(KEY);
        assertThat(site.effects(KEY)).isZero();
    }

    // --- 64 ------------------------------------------------------------------------------------

    @Test
    void exit64OnUsageErrors() throws IOException {
        wb.job("alpha", Jobs.command("alpha", "none", "echo x >> ran", "PT10S"), null);
        wb.job("beta", Jobs.command("beta", "none", "echo x >> ran", "PT10S"), null);

        Result unknownOption = wb.cli("run", "alpha", "--frobnicate");
        assertThat(unknownOption.exit()).as(unknownOption.toString()).isEqualTo(64);
        assertThat(unknownOption.err()).contains("--frobnicate");

        Result unknownJob = wb.cli("run", "gamma", "--key", KEY);
        assertThat(unknownJob.exit()).as(unknownJob.toString()).isEqualTo(64);
        assertThat(unknownJob.err()).contains("gamma").contains("alpha").contains("beta");

        Result badKey = wb.cli("run", "alpha", "--key", "2026-13-01");
        assertThat(badKey.exit()).as(badKey.toString()).isEqualTo(64);
        assertThat(badKey.err()).contains("2026-13-01");

        Result both = wb.cli("run", "--yes", "alpha", "--key", KEY, "--from", "2026-11-01");
        assertThat(both.exit()).as(both.toString()).isEqualTo(64);
        assertThat(both.err()).contains("--key").contains("--from");

        Result noNote = wb.cli("mark-done", "alpha", KEY);
        assertThat(noNote.exit()).as(noNote.toString()).isEqualTo(64);
        assertThat(noNote.err()).contains("--note");

        Result commandNameAsValue = wb.cli("pause", "alpha", "--reason", "status");
        assertThat(commandNameAsValue.exit()).as("an option value that is also a command name: " + commandNameAsValue)
                .isZero();
        assertThat(wb.cli("resume", "alpha").exit()).isZero();

        assertThat(wb.jobs.resolve("ran")).as("no usage error ran anything").doesNotExist();
        assertThat(state("alpha", KEY)).as("mark-done without a note changed nothing").isEqualTo("absent");
    }
}
