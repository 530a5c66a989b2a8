package io.keyline.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.keyline.workspace.Demo;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code keyline demo} on an empty state: real runs against the sandbox leave DONE keys and one
 * key each FAILED, NEEDS_CONFIRMATION and NEEDS_CREDENTIAL, no article is published twice, and an
 * operator resolves every waiting key with the ordinary commands.
 */
class DemoWorkspaceTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;
    SandboxSite site;

    @AfterEach
    void tearDown() {
        if (site != null) {
            site.close();
        }
    }

    @Test
    void demoMakesEveryStateFromRealRunsAndEachWaitingKeyCanBeResolved() throws Exception {
        Workbench wb = new Workbench(tmp);
        Result demo = wb.cli("demo", "--port", "0");
        assertThat(demo.exit()).as(demo.toString()).isZero();
        assertThat(demo.out()).contains("Six steps:", "FAILED", "NEEDS_CONFIRMATION", "NEEDS_CREDENTIAL",
                "sandbox-cookie");

        Map<String, String> states = states(wb, "daily-article");
        assertThat(states).hasSize(Demo.DAYS);
        Map<String, List<String>> byState = byState(states);
        assertThat(byState.get("FAILED")).hasSize(1);
        assertThat(byState.get("NEEDS_CONFIRMATION")).hasSize(1);
        assertThat(byState.get("NEEDS_CREDENTIAL")).hasSize(3);
        assertThat(byState.get("DONE")).hasSize(Demo.DAYS - 5);
        assertThat(byState(states(wb, "weekly-digest")).keySet()).containsOnly("DONE");
        String failed = byState.get("FAILED").get(0);
        String confirm = byState.get("NEEDS_CONFIRMATION").get(0);
        List<String> parked = byState.get("NEEDS_CREDENTIAL");

        // the same site again (what the console does), with its articles: one per DONE key, none twice
        assertThat(Demo.isDemo(wb.jobs)).isTrue();
        site = Demo.startSandbox(wb.jobs, wb.clock);
        for (String k : byState.get("DONE")) {
            assertThat(site.effects(k)).as("article of " + k).isEqualTo(1);
        }
        assertThat(site.effects(failed)).isZero();
        assertThat(site.effects(confirm)).as("the POST timed out before the site saved it").isZero();
        parked.forEach(k -> assertThat(site.effects(k)).isZero());
        assertThat(Files.readString(wb.jobs.resolve("articles/" + confirm + ".md"))).contains("# Notes for " + confirm);
        // the site keeps its sessions' hashes: no word of the output is a session the site knows
        List<String> sessions = List.of(sessionHashes(wb));
        assertThat(sessions).isNotEmpty();
        for (String word : demo.out().split("[^0-9A-Za-z_-]+")) {
            assertThat(sessions).as("a session in the demo's output").doesNotContain(SandboxSite.hash(word));
        }
        // nor any part of one: the credential is named by its fingerprint, as everywhere else
        assertThat(demo.out()).doesNotContainPattern("session=[0-9a-f]").contains("fingerprint");

        // a second demo on a state with keys is refused
        Result again = wb.cli("demo", "--port", "0");
        assertThat(again.exit()).isEqualTo(1);
        assertThat(again.err()).contains("already has", "--force");

        // the credential first: a fresh login from the sandbox; the parked keys resume and run
        Result set = wb.cliWithInput(site.login().cookiesTxtLine() + "\n", "credentials", "set", "sandbox-cookie");
        assertThat(set.exit()).as(set.toString()).isZero();
        assertThat(set.out()).contains("3 parked keys resumed");
        Result run = wb.cli("run", "--yes", "daily-article", "--from", parked.get(0), "--to", parked.get(2));
        assertThat(run.exit()).as(run.toString()).isZero();

        // confirm (after the login: the breaker keeps a rejected cookie from being sent): the waiting POST runs once
        Result c = wb.cli("confirm", "daily-article", confirm, "--note", "checked the site: no article");
        assertThat(c.exit()).as(c.toString()).isZero();
        assertThat(site.effects(confirm)).isEqualTo(1);

        // the failed key: re-armed and run (the site accepts it now)
        assertThat(wb.cli("retry", "daily-article", failed).exit()).isZero();
        Result r = wb.cli("run", "daily-article", "--key", failed);
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(site.effects(failed)).isEqualTo(1);

        assertThat(byState(states(wb, "daily-article")).keySet()).containsOnly("DONE");
        assertThat(site.allEffects()).hasSize(Demo.DAYS).allSatisfy((k, n) -> assertThat(n).as(k).isEqualTo(1));
    }

    @Test
    void sandboxCommandPrintsAFreshCookieFromTheRunningSite() throws Exception {
        Workbench wb = new Workbench(tmp);
        site = SandboxSite.start(0, wb.clock, null);
        Result r = wb.cli("sandbox", "--port", Integer.toString(site.port()));
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("already runs at " + site.base(), "\tsession\t");
    }

    /** The SHA-256 (hex) of each session the sandbox site has handed out and keeps. */
    private static String[] sessionHashes(Workbench wb) throws Exception {
        JsonNode world = JSON.readTree(wb.jobs.resolve(Demo.WORLD).toFile());
        List<String> out = new ArrayList<>();
        world.path("sessions").fieldNames().forEachRemaining(out::add);
        return out.toArray(String[]::new);
    }

    static Map<String, String> states(Workbench wb, String job) throws Exception {
        Result st = wb.cli("status", job, "--json");
        assertThat(st.exit()).as(st.toString()).isZero();
        Map<String, String> out = new TreeMap<>();
        for (JsonNode n : JSON.readTree(st.out())) {
            out.put(n.get("key").asText(), n.get("state").asText());
        }
        return out;
    }

    static Map<String, List<String>> byState(Map<String, String> states) {
        Map<String, List<String>> out = new TreeMap<>();
        states.forEach((k, s) -> out.computeIfAbsent(s, x -> new ArrayList<>()).add(k));
        return out;
    }
}
