package io.keyline.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.acceptance.ChildProcess;
import io.keyline.core.json.Json;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.store.Database;
import io.keyline.store.JdbcStateStore;
import io.keyline.store.h2.H2Database;
import io.keyline.testing.CpuBurn;
import io.keyline.testing.WikiSite;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A backfill of the shipped wiki example (the job's probe on the raw export, the edit page for its CSRF token,
 * the form save answering 302, the save's probe on the raw export) against the loopback wiki, in child
 * processes SIGKILLed at random moments with CPU burners beside them, restarted until every key is done, with
 * the operator's answers where a key waits for one. The site's own log of saves must hold every page exactly
 * once, the editor must never be opened for a page that exists, every key must end DONE and every key's
 * history must be a legal path through the transition table.
 */
@Tag("reliability")
class WikiKillLoopSuite {

    static final Path EXAMPLE = Path.of("resources/jobs/examples/wiki-journal.json");
    static final String JOB = "wiki-journal";

    /** Kept when the suite fails: the state it leaves is the evidence. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path tmp;

    @Test
    void killedBackfillsSaveEveryPageExactlyOnce() throws Exception {
        int kills = Integer.getInteger("keyline.wiki.kills", 100);
        // a run killed while it talks to the site has still saved two to four pages: six keys per kill leave
        // work for every kill
        int keys = Integer.getInteger("keyline.wiki.keys", 6 * kills);
        long seed = Long.getLong("keyline.crash.seed", System.nanoTime());
        Random random = new Random(seed);
        LocalDate to = LocalDate.parse("2026-11-28");
        LocalDate from = to.minusDays(keys - 1);
        System.out.println("RELIABILITY wiki-kill-loop starting seed=" + seed + " (replay: -Dkeyline.crash.seed="
                + seed + ") state=" + tmp.resolve("state") + " (kept if the suite fails)");
        Workbench wb = new Workbench(tmp);
        wb.clock.followSystemClock();
        Path log = tmp.resolve("children.log");
        long started = System.nanoTime();
        int killed = 0;
        int runs = 0;
        int operatorActions = 0;
        List<String> details = new ArrayList<>();
        try (WikiSite site = new WikiSite(); CpuBurn burn = CpuBurn.start(2)) {
            // the save is applied at once and answered 80 ms later: kills land between the effect and its record
            site.saveHold(80);
            String job = Files.readString(EXAMPLE, StandardCharsets.UTF_8)
                    .replace("https://wiki.example.org", site.base())
                    .replace("\"start\": \"2026-11-01\"", "\"start\": \"" + from + "\"")
                    .replace("\"schedule\":", "\"concurrency\": 4, \"schedule\":");
            assertThat(job).contains("\"concurrency\": 4").contains("\"start\": \"" + from + "\"");
            Files.writeString(wb.jobs.resolve(JOB + ".json"), job, StandardCharsets.UTF_8);
            Result stored = wb.cliWithInput(site.logIn(), "credentials", "set", "wiki", "--login-url", site.loginUrl());
            assertThat(stored.exit()).as(stored.toString()).isZero();

            boolean done = false;
            while (!done) {
                // a typed backfill that sends unsafe saves: --yes, as an operator who read the plan types it
                Process p = ChildProcess.start(wb.state, wb.jobs, log, "run", JOB, "--from", from.toString(), "--to",
                        to.toString(), "--yes");
                runs++;
                boolean killing = killed < kills;
                boolean reached = killing && reachedTheSite(p, site, 20_000);
                if (reached && !p.waitFor(random.nextInt(900), TimeUnit.MILLISECONDS)) {
                    // the kill lands while the run talks to the site, not while its JVM starts
                    p.destroyForcibly();
                    killed++;
                }
                assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("a run ended").isTrue();
                int exit = p.exitValue();
                if (runs % 3 == 0 || exit == 4 || exit == 2 || exit == 3) {
                    operatorActions += resolveAsOperator(wb, site);
                }
                // done when every kill landed, or when a run found nothing left to send to the site
                done = exit == 0 && (killed >= kills || (killing && !reached));
                if (runs > kills * 3 + 60) {
                    details.add("not finished after " + runs + " runs; last exit " + exit);
                    break;
                }
            }

            Map<String, Integer> saved = new HashMap<>();
            site.saveLog().forEach(page -> saved.merge(page, 1, Integer::sum));
            int duplicates = 0;
            int missing = 0;
            int notDone = 0;
            int invalid = 0;
            int events = 0;
            int recovered = 0;
            int reconciled = 0;
            int foundByJobProbe = 0;
            try (Database db = H2Database.open(wb.state); JdbcStateStore store = new JdbcStateStore(db)) {
                Map<String, KeyRecord> recs = new HashMap<>();
                store.keys(JOB).forEach(k -> recs.put(k.key(), k));
                for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
                    String key = d.toString();
                    int n = saved.getOrDefault("journal:" + key, 0);
                    if (n > 1) {
                        duplicates += n - 1;
                        details.add("saved " + n + " times: journal:" + key);
                    } else if (n == 0) {
                        missing++;
                        details.add("never saved: journal:" + key);
                    }
                    KeyRecord r = recs.get(key);
                    if (r == null || r.state() != KeyState.DONE) {
                        notDone++;
                        details.add("not done: " + key + " " + (r == null ? "absent" : r.state() + " " + r.message()));
                        continue;
                    }
                    List<KeyEvent> history = store.events(JOB, key);
                    events += history.size();
                    for (KeyEvent e : history) {
                        switch (e.type()) {
                            case RECOVERED -> recovered++;
                            case STEP_RECONCILED -> reconciled++;
                            case KEY_DONE -> foundByJobProbe += e.probe() == io.keyline.domain.ProbeAnswer.PRESENT ? 1 : 0;
                            default -> {
                            }
                        }
                    }
                    List<String> problems = HistoryChecker.problems(history);
                    if (!problems.isEmpty() || !HistoryChecker.endsIn(history, r.state())) {
                        invalid++;
                        details.add("invalid history: " + key + " " + problems);
                    }
                }
            }
            int lockedExisting = site.editsOfExistingPages();
            if (lockedExisting > 0) {
                details.add("the editor was opened " + lockedExisting + " times for a page that existed");
            }
            Map<String, Object> fig = new LinkedHashMap<>();
            fig.put("kills", killed);
            fig.put("runs", runs);
            fig.put("keys", keys);
            fig.put("saves", site.saveLog().size());
            fig.put("duplicates", duplicates);
            fig.put("missing", missing);
            fig.put("not_done", notDone);
            fig.put("invalid", invalid);
            fig.put("edits_of_existing_pages", lockedExisting);
            fig.put("edit_pages", site.count("GET", "edit"));
            // where the kills landed: keys taken over from a killed run, saves found done by their probe (the
            // answer was lost), keys found done by the job's probe before their first step
            fig.put("recovered", recovered);
            fig.put("saves_reconciled", reconciled);
            fig.put("found_by_job_probe", foundByJobProbe);
            fig.put("operator_actions", operatorActions);
            fig.put("events", events);
            fig.put("cpu_burners", burn.threads());
            fig.put("save_hold_ms", 80);
            fig.put("seconds", TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
            fig.put("seed", seed);
            Suites.report("wiki-kill-loop", fig, String.join("\n", details) + "\nchild log: " + log + "\n");
            assertThat(killed).isGreaterThanOrEqualTo(kills);
            assertThat(details).as("pages saved twice or never, keys not done, bad histories, locked pages")
                    .isEmpty();
        }
    }

    /**
     * What an operator does for keys that wait: a key whose save's outcome is unknown is marked done when the page
     * is there and confirmed when it is not; a failed or login-parked key goes back to its token step.
     */
    private static int resolveAsOperator(Workbench wb, WikiSite site) {
        JsonNode keys = Json.read(wb.cli("status", JOB, "--attention", "--json").out(), JsonNode.class);
        int n = 0;
        for (JsonNode k : keys) {
            String key = k.get("key").asText();
            switch (k.get("state").asText()) {
                case "NEEDS_CONFIRMATION" -> {
                    if (site.text("journal:" + key) != null) {
                        wb.cli("mark-done", JOB, key, "--note", "checked the wiki: the page is there");
                    } else {
                        wb.cli("confirm", JOB, key, "--note", "checked the wiki: no page yet");
                    }
                    n++;
                }
                case "FAILED", "NEEDS_CREDENTIAL" -> {
                    wb.cli("retry", JOB, key, "--from-step", "page", "--note", "a fresh token");
                    n++;
                }
                default -> {
                    // nothing for a person to do
                }
            }
        }
        return n;
    }

    /** Waits until the run sent its first request to the site (true), or ended or took too long (false). */
    private static boolean reachedTheSite(Process p, WikiSite site, long maxMillis) throws InterruptedException {
        int before = site.requests().size();
        long end = System.nanoTime() + maxMillis * 1_000_000;
        while (System.nanoTime() < end) {
            if (site.requests().size() > before) {
                return true;
            }
            if (p.waitFor(20, TimeUnit.MILLISECONDS)) {
                return false;
            }
        }
        return false;
    }
}
