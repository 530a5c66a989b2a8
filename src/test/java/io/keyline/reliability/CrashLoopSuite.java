package io.keyline.reliability;

import io.keyline.store.h2.H2Database;
import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.acceptance.ChildProcess;
import io.keyline.acceptance.Jobs;
import io.keyline.core.json.Json;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.store.Database;
import io.keyline.store.JdbcStateStore;
import io.keyline.testing.TestSite;
import io.keyline.testing.TestSite.Fault;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * R1: at least 500 SIGKILLs at random points of runs over 50-key jobs against the fault-injecting
 * loopback site, with reruns and the operator actions the state asks for. Each round is a fresh
 * 50-key job (alternately with and without a probe) so that kills keep landing in the middle of
 * work. Counts effects applied twice (duplicates), DONE keys that stopped being DONE (lost) and
 * keys whose event history is not a legal path through the transition table (invalid).
 */
@Tag("reliability")
class CrashLoopSuite {

    static final int KEYS = 50;
    static final LocalDate FROM = LocalDate.parse("2026-06-01");
    static final LocalDate TO = FROM.plusDays(KEYS - 1);

    /** Kept when the suite fails: the state it leaves is the evidence (its path is printed first). */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path tmp;

    @Test
    void fiveHundredKillsNeitherDuplicateNorLoseNorCorrupt() throws Exception {
        int kills = Integer.getInteger("keyline.crash.kills", 500);
        int perRound = Integer.getInteger("keyline.crash.perRound", 100);
        // keys in parallel: the kills land while several keys of the job are in flight
        int concurrency = Integer.getInteger("keyline.crash.concurrency", 8);
        long seed = Long.getLong("keyline.crash.seed", System.nanoTime());
        // two runs at a time, the first killed while the second lives on (a takeover); off by default
        boolean overlap = Boolean.getBoolean("keyline.crash.overlap");
        Random random = new Random(seed);
        // printed first, so that a run that dies on the way (a corrupt state throws) can be replayed
        System.out.println("RELIABILITY crash-loop starting seed=" + seed + " (replay: -Dkeyline.crash.seed=" + seed
                + ") state=" + tmp.resolve("state") + " (kept if the suite fails)");
        int halfCommitsBefore = H2Database.halfCommitsFinished();
        Workbench wb = new Workbench(tmp);
        wb.clock.followSystemClock();
        Path log = tmp.resolve("children.log");
        Map<String, TestSite> sites = new LinkedHashMap<>();
        Map<String, Set<String>> seenDone = new HashMap<>();
        int lost = 0;
        int killed = 0;
        int faults = 0;
        int operatorActions = 0;
        List<String> lostKeys = new ArrayList<>();
        List<String> unfinished = new ArrayList<>();
        long started = System.nanoTime();
        try {
            int round = 0;
            while (killed < kills) {
                String job = "crash-" + round;
                TestSite site = new TestSite();
                site.postDelayMillis(60);
                sites.put(job, site);
                wb.job(job, Jobs.publish(job, "unsafe", round % 2 == 0, null).replaceFirst("\"key\":",
                        "\"concurrency\": " + concurrency + ", \"key\":"), site.base());
                for (int i = 0; i < perRound && killed < kills; i++) {
                    if (random.nextInt(4) == 0) {
                        Fault[] pool = {Fault.RESET_AFTER_RECEIVE, Fault.STATUS_503, Fault.STATUS_500_AFTER_ACTING,
                            Fault.HANG_AFTER_ACTING, Fault.STATUS_429, Fault.STATUS_404, Fault.STATUS_401};
                        site.failPosts(pool[random.nextInt(pool.length)]);
                        faults++;
                    }
                    Process p = ChildProcess.start(wb.state, wb.jobs, log, "run", "--yes", job, "--from", FROM.toString(),
                            "--to", TO.toString());
                    // overlap: a second run of the job starts while the first (usually the one serving the state)
                    // is alive, and lives on after it was killed: it takes the file over (serverWentAway)
                    Process second = null;
                    if (overlap && !p.waitFor(50 + random.nextInt(300), TimeUnit.MILLISECONDS)) {
                        second = ChildProcess.start(wb.state, wb.jobs, log, "run", "--yes", job, "--from", FROM.toString(),
                                "--to", TO.toString());
                    }
                    if (!p.waitFor(150 + random.nextInt(1100), TimeUnit.MILLISECONDS)) {
                        p.destroyForcibly();
                        killed++;
                    }
                    p.waitFor(30, TimeUnit.SECONDS);
                    if (second != null) {
                        if (!second.waitFor(150 + random.nextInt(1100), TimeUnit.MILLISECONDS)) {
                            second.destroyForcibly();
                            killed++;
                        }
                        second.waitFor(30, TimeUnit.SECONDS);
                    }
                    if (i % 5 == 4) {
                        operatorActions += resolveAsOperator(wb, job, site);
                        lost += checkDone(wb, job, seenDone.computeIfAbsent(job, j -> new HashSet<>()), lostKeys);
                    }
                }
                // finish the round: reruns and operator actions until every key is DONE
                Result last = null;
                long finishing = System.nanoTime();
                for (int r = 0; r < 15; r++) {
                    last = wb.cli("run", "--yes", job, "--from", FROM.toString(), "--to", TO.toString());
                    if (last.exit() == 0) {
                        break;
                    }
                    operatorActions += resolveAsOperator(wb, job, site);
                }
                if (last != null && last.exit() != 0) {
                    // the evidence of a round that did not finish (a run that waited out a lock, say)
                    unfinished.add("round " + round + " (" + job + ") not finished after 15 reruns in "
                            + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - finishing) + " s; last rerun: "
                            + last);
                }
                lost += checkDone(wb, job, seenDone.computeIfAbsent(job, j -> new HashSet<>()), lostKeys);
                round++;
            }
            // final check over every round: effects, DONE states, event histories
            int duplicates = 0;
            int notDone = 0;
            int invalid = 0;
            int events = 0;
            List<String> details = new ArrayList<>();
            try (Database db = H2Database.open(wb.state); JdbcStateStore store = new JdbcStateStore(db)) {
                for (var e : sites.entrySet()) {
                    String job = e.getKey();
                    for (var eff : e.getValue().allEffects().entrySet()) {
                        if (eff.getValue() > 1) {
                            duplicates += eff.getValue() - 1;
                            details.add("duplicate: " + job + " " + eff.getKey() + " effects=" + eff.getValue());
                        }
                    }
                    Map<String, KeyRecord> recs = new HashMap<>();
                    store.keys(job).forEach(k -> recs.put(k.key(), k));
                    for (String key : seenDone.getOrDefault(job, Set.of())) {
                        KeyRecord r = recs.get(key);
                        if (r == null || r.state() != KeyState.DONE) {
                            lost++;
                            lostKeys.add(job + " " + key + " now " + (r == null ? "absent" : r.state()));
                        }
                    }
                    for (KeyRecord r : recs.values()) {
                        if (r.state() != KeyState.DONE) {
                            notDone++;
                            details.add("not done: " + job + " " + r.key() + " " + r.state() + " " + r.message());
                        }
                        if (r.state() == KeyState.DONE && e.getValue().effects(r.key()) != 1) {
                            details.add("done without exactly one effect: " + job + " " + r.key() + " effects="
                                    + e.getValue().effects(r.key()));
                            duplicates += e.getValue().effects(r.key()) > 1 ? 0 : 1;
                        }
                        List<KeyEvent> history = store.events(job, r.key());
                        events += history.size();
                        List<String> problems = HistoryChecker.problems(history);
                        if (!problems.isEmpty() || !HistoryChecker.endsIn(history, r.state())) {
                            invalid++;
                            details.add("invalid: " + job + " " + r.key() + " " + problems + " stored " + r.state());
                        }
                    }
                }
            }
            details.addAll(lostKeys);
            if (!details.isEmpty()) {
                details.addAll(unfinished);
            }
            Map<String, Object> fig = new LinkedHashMap<>();
            fig.put("kills", killed);
            fig.put("rounds", round);
            fig.put("concurrency", concurrency);
            fig.put("overlap", overlap);
            fig.put("keys", round * KEYS);
            fig.put("faults", faults);
            fig.put("operator_actions", operatorActions);
            fig.put("events", events);
            fig.put("duplicates", duplicates);
            fig.put("lost", lost);
            fig.put("invalid", invalid);
            fig.put("not_done", notDone);
            // how often an open (a child's, or one in this JVM) finished a transaction a killed child had left
            // half-committed
            fig.put("half_commits_finished", finishedInChildren(log) + H2Database.halfCommitsFinished()
                    - halfCommitsBefore);
            fig.put("indexes_rebuilt", rebuiltInChildren(log));
            fig.put("seconds", TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
            fig.put("seed", seed);
            Suites.report("crash-loop", fig, String.join("\n", details) + "\nchild log: " + log + "\n");
            assertThat(killed).isGreaterThanOrEqualTo(kills);
            assertThat(details).as("duplicates, lost, invalid or unfinished keys").isEmpty();
        } finally {
            for (TestSite s : sites.values()) {
                s.close();
            }
        }
    }

    /** The indexes the children's opens rebuilt after a kill, from their warnings ("rebuilt N index(es) ..."). */
    private static long rebuiltInChildren(Path log) throws IOException {
        return countedInChildren(log, Pattern.compile("rebuilt (\\d+) index\\(es\\) that a killed"));
    }

    /** The transactions the children's opens finished, from their warnings ("finished N transaction(s) ..."). */
    private static long finishedInChildren(Path log) throws IOException {
        return countedInChildren(log, Pattern.compile("finished (\\d+) transaction\\(s\\) that a killed"));
    }

    /** The sum of the numbers {@code p} (one group) finds in the children's log. */
    private static long countedInChildren(Path log, Pattern p) throws IOException {
        if (!Files.exists(log)) {
            return 0;
        }
        try (var lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            return lines.map(p::matcher).filter(Matcher::find)
                    .mapToLong(m -> Long.parseLong(m.group(1))).sum();
        }
    }

    /** Keys seen DONE must stay DONE; returns how many disappeared since the last look. */
    private static int checkDone(Workbench wb, String job, Set<String> seen, List<String> lostKeys) {
        JsonNode keys = Json.read(wb.cli("status", job, "--json").out(), JsonNode.class);
        Set<String> doneNow = new HashSet<>();
        for (JsonNode k : keys) {
            if (k.get("state").asText().equals("DONE")) {
                doneNow.add(k.get("key").asText());
            }
        }
        int lost = 0;
        for (String key : seen) {
            if (!doneNow.contains(key)) {
                lost++;
                lostKeys.add("lost: " + job + " " + key + " was DONE, is no longer");
            }
        }
        seen.addAll(doneNow);
        return lost;
    }

    /** What an operator does for keys that wait: checks the site, then marks done, confirms or re-arms. */
    private static int resolveAsOperator(Workbench wb, String job, TestSite site) {
        JsonNode keys = Json.read(wb.cli("status", job, "--attention", "--json").out(), JsonNode.class);
        int n = 0;
        for (JsonNode k : keys) {
            String key = k.get("key").asText();
            switch (k.get("state").asText()) {
                case "NEEDS_CONFIRMATION" -> {
                    if (site.effects(key) > 0) {
                        wb.cli("mark-done", job, key, "--note", "checked the site: it is there");
                    } else {
                        wb.cli("confirm", job, key, "--note", "checked the site: not there");
                    }
                    n++;
                }
                case "FAILED", "NEEDS_CREDENTIAL" -> {
                    wb.cli("retry", job, key);
                    n++;
                }
                default -> {
                    // nothing for a person to do
                }
            }
        }
        return n;
    }
}
