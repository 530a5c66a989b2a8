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
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** One test per exit code of {@code run} and {@code apply}, through the real command line. */
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

    /** A loopback port nobody listens on: a connection to it is refused. */
    static int closedPort() throws IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The run line of {@code runs.jsonl} that was written last. */
    JsonNode lastRunLine() throws IOException {
        JsonNode last = null;
        for (String l : Files.readAllLines(wb.logs().resolve("runs.jsonl"))) {
            JsonNode n = Json.read(l, JsonNode.class);
            if (n.path("type").asText().equals("run")) {
                last = n;
            }
        }
        return last;
    }

    @Test
    void exit1WhenTheKeysFailedOnlyBecauseTheHostRefusedTheConnection() throws IOException {
        String unreachable = "http://127.0.0.1:" + closedPort();
        wb.job("p", Jobs.publish("p", "unsafe", true, null), unreachable);
        Result r = wb.cli("run", "p", "--from", "2026-11-28", "--to", KEY, "--yes");
        assertThat(r.exit()).as("nothing answered: the environment failed, not the site: " + r).isEqualTo(1);
        assertThat(state("p", KEY)).isEqualTo("FAILED");
        assertThat(state("p", "2026-11-28")).isEqualTo("FAILED");
        assertThat(r.out()).contains("connection refused").contains("exit 1 (");
        assertThat(lastRunLine().path("exit").asInt()).isEqualTo(1);
        // the retries were spent first (the probe was asked 3 times per key)
        assertThat(wb.sleeps).hasSizeGreaterThanOrEqualTo(4);
    }

    @Test
    void exit1AndTheHostNamedWhenItsNameDoesNotResolve() throws IOException {
        wb.job("p", Jobs.publish("p", "unsafe", false, null), "http://keyline-test.invalid");
        Result r = wb.cli("run", "p", "--key", KEY);
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(state("p", KEY)).isEqualTo("FAILED");
        assertThat(r.out()).as("a DNS failure is not a refused connection: " + r)
                .contains("keyline-test.invalid could not be resolved").doesNotContain("connection refused");
    }

    @Test
    void exit1WhenTheProgramIsNotThereAndNotForAProgramThatSaidNo() throws IOException {
        wb.job("gone", Jobs.command("gone", "none", "exec /nonexistent/keyline-tool {key}", "PT10S"), null);
        Result missing = wb.cli("run", "gone", "--key", KEY);
        assertThat(missing.exit()).as("sh: not found (127): " + missing).isEqualTo(1);
        wb.job("direct", """
                {
                  "name": "direct",
                  "key": { "type": "date", "zone": "UTC" },
                  "steps": [ { "id": "a", "kind": "command", "effect": "none", "command": ["/nonexistent/tool"] } ]
                }
                """, null);
        Result cannotStart = wb.cli("run", "direct", "--key", KEY);
        assertThat(cannotStart.exit()).as("the program cannot be started: " + cannotStart).isEqualTo(1);
        assertThat(cannotStart.out()).contains("cannot start /nonexistent/tool");

        wb.job("no", Jobs.command("no", "none", "echo 'bad input' >&2; exit 65", "PT10S"), null);
        Result said = wb.cli("run", "no", "--key", KEY);
        assertThat(said.exit()).as("the program answered no: " + said).isEqualTo(2);
    }

    @Test
    void exit1WhenTheScriptAShellIsToldToRunIsNotThere() throws IOException {
        // ["sh", "scripts/x.sh"] with a mistyped path: dash says "cannot open" with its own exit 2, which would read
        // as the program having said no
        for (String shell : List.of("sh", "bash")) {
            wb.job(shell, """
                    {
                      "name": "%s",
                      "key": { "type": "date", "zone": "UTC" },
                      "steps": [ { "id": "a", "kind": "command", "effect": "none",
                                   "command": ["%s", "scripts/no-such.sh", "{key}"] } ]
                    }
                    """.formatted(shell, shell), null);
            Result missing = wb.cli("run", shell, "--key", KEY);
            assertThat(missing.exit()).as(shell + ": " + missing).isEqualTo(1);
            assertThat(missing.out()).as(shell + ": " + missing).contains("scripts/no-such.sh")
                    .contains(wb.jobs.toString());
        }
        // a script that is there runs as before, and a shell told what to run by an option is left to say so
        Files.createDirectories(wb.jobs.resolve("scripts"));
        Files.writeString(wb.jobs.resolve("scripts/there.sh"), "echo ran $1\n");
        wb.job("there", """
                {
                  "name": "there",
                  "key": { "type": "date", "zone": "UTC" },
                  "steps": [ { "id": "a", "kind": "command", "effect": "none",
                               "command": ["sh", "scripts/there.sh", "{key}"] } ]
                }
                """, null);
        Result there = wb.cli("run", "there", "--key", KEY);
        assertThat(there.exit()).as(there.toString()).isZero();
    }

    @Test
    void exit1WhenTheProgramIsThereButMayNotBeExecuted() throws IOException {
        // a script without its execute bit: permission denied, whether started directly or through a shell (126)
        Files.writeString(wb.jobs.resolve("tool.sh"), "#!/bin/sh\nexit 0\n");
        wb.job("direct", """
                {
                  "name": "direct",
                  "key": { "type": "date", "zone": "UTC" },
                  "steps": [ { "id": "a", "kind": "command", "effect": "none", "command": ["./tool.sh"] } ]
                }
                """, null);
        Result direct = wb.cli("run", "direct", "--key", KEY);
        assertThat(direct.exit()).as("permission denied: " + direct).isEqualTo(1);
        assertThat(direct.out()).contains("cannot start").contains("tool.sh").contains("Permission denied");

        wb.job("shell", Jobs.command("shell", "none", "exec ./tool.sh", "PT10S"), null);
        Result shell = wb.cli("run", "shell", "--key", KEY);
        assertThat(shell.exit()).as("sh: permission denied (126): " + shell).isEqualTo(1);
        assertThat(state("shell", KEY)).isEqualTo("FAILED");
    }

    @Test
    void exit1WhenTheTlsHandshakeFails() throws IOException {
        // https to a server that speaks plain HTTP: no request was ever sent
        wb.job("p", Jobs.publish("p", "idempotent", false, null), site.base().replace("http://", "https://"));
        Result r = wb.cli("run", "p", "--key", KEY);
        assertThat(r.exit()).as("the TLS handshake failed: " + r).isEqualTo(1);
        assertThat(state("p", KEY)).isEqualTo("FAILED");
        assertThat(site.effects(KEY)).isZero();
    }

    @Test
    void exit1AfterTheRetriesOfASafeStepWhoseHostIsDown() throws IOException {
        String unreachable = "http://127.0.0.1:" + closedPort();
        wb.job("p", Jobs.publish("p", "idempotent", false, null), unreachable);
        Result r = wb.cli("run", "p", "--key", KEY);
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains("publish failed after 3 attempts");
    }

    // --- 2 -------------------------------------------------------------------------------------

    @Test
    void exit2WhenTheSiteAnswered422() throws IOException {
        site.failPosts(Fault.STATUS_422);
        wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());
        Result r = wb.cli("run", "p", "--key", KEY);
        assertThat(r.exit()).as("the site said no: " + r).isEqualTo(2);
        assertThat(state("p", KEY)).isEqualTo("FAILED");
        assertThat(r.out()).contains("422");
    }

    @Test
    void exit2WhenOneKeyFailedBecauseNothingAnsweredAndAnotherBecauseTheProgramSaidNo() throws IOException {
        wb.job("c", """
                {
                  "name": "c",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                  "steps": [
                    { "id": "work", "kind": "command", "effect": "none",
                      "command": ["sh", "-c", "if [ \\"$1\\" = 2026-11-28 ]; then exec /nonexistent/tool; fi; echo 'bad input' >&2; exit 65", "sh", "{key}"] }
                  ]
                }
                """, null);
        Result r = wb.cli("run", "c", "--from", "2026-11-28", "--to", KEY);
        assertThat(r.exit()).as("one key failed the program's way: not only the environment: " + r).isEqualTo(2);
    }

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

    @Test
    void exit3WhenOneKeyFailedBecauseTheProgramIsMissingAndAnotherIsDone() throws IOException {
        wb.job("c", """
                {
                  "name": "c",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                  "steps": [
                    { "id": "work", "kind": "command", "effect": "none",
                      "command": ["sh", "-c", "if [ \\"$1\\" = 2026-11-28 ]; then exec /nonexistent/tool; fi; echo \\"$1\\" >> done.txt", "sh", "{key}"] }
                  ]
                }
                """, null);
        Result r = wb.cli("run", "c", "--from", "2026-11-28", "--to", KEY);
        assertThat(r.exit()).as("mixed: one failed, one done: " + r).isEqualTo(3);
        assertThat(state("c", "2026-11-28")).isEqualTo("FAILED");
        assertThat(state("c", KEY)).isEqualTo("DONE");
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
