package io.keyline.reliability;

import io.keyline.acceptance.ChildProcess;
import io.keyline.domain.EventType;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.store.Database;
import io.keyline.store.JdbcStateStore;
import io.keyline.store.StateLocation;
import io.keyline.testing.TestSite;
import io.keyline.testing.Workbench;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 4 {@code keyline worker} processes on one (embedded) PostgreSQL, 2,000
 * keys of jobs with an unsafe POST against the loopback test site (half with a probe, half without),
 * 2 of the workers SIGKILLed mid-step (the site has created the article, the answer has not left) and
 * started again, as systemd would. Counts, from the site's own
 * log, the keys posted more than once (duplicates) and the keys that ended neither DONE nor waiting for
 * a person (lost), and checks that every key that waits has the evidence a person needs.
 *
 * <p>{@code -Dkeyline.workers.keys=N} (default 2000), {@code -Dkeyline.workers.kills=N} (default 2).
 */
@Tag("reliability")
class WorkersSuite {

    static final int PROCESSES = 4;

    @TempDir
    Path tmp;

    /** Keys each worker runs at once. */
    static final int CONCURRENCY = Integer.getInteger("keyline.workers.concurrency", 4);

    /** An unsafe POST of the key's article, with or without a probe; manual keys. */
    static String job(String name, boolean probe, String base) {
        return """
            {
              "name": "%s",
              "key": { "type": "manual" },
              "concurrency": %d,
              "retry": { "maxAttempts": 3, "initialDelay": "PT1S", "multiplier": 2.0, "maxDelay": "PT5S",
                         "jitter": 0.0, "maxElapsed": "PT10M" },
              "steps": [
                { "id": "publish", "kind": "http", "effect": "unsafe", "timeout": "PT10S",
                  "request": { "method": "POST", "url": "%s/api/articles", "headers": { "Content-Type": "text/plain" },
                               "body": "article {key}" }%s }
              ]
            }
            """.formatted(name, CONCURRENCY, base, probe ? """
                ,
                  "probe": { "kind": "http", "url": "%s/api/articles?date={key}",
                             "presentWhen": { "jsonPointer": "/total", "notEquals": 0 } }""".formatted(base) : "");
    }

    @Test
    void fourWorkersTwoKilledNoDuplicateNoLostKey() throws Exception {
        int keysTotal = Integer.getInteger("keyline.workers.keys", 2000);
        int kills = Integer.getInteger("keyline.workers.kills", 2);
        Workbench wb = new Workbench(tmp);
        wb.clock.followSystemClock();
        String url = wb.usePostgres();
        TestSite probed = new TestSite();
        TestSite blind = new TestSite();
        probed.postDelayMillis(15);
        blind.postDelayMillis(15);
        Map<String, TestSite> sites = Map.of("probed", probed, "blind", blind);
        try {
            wb.job("probed", job("probed", true, probed.base()), null);
            wb.job("blind", job("blind", false, blind.base()), null);
            // reviewed, as an operator does before a job's first unattended run
            assertThat(wb.cli("approve", "probed").exit()).isZero();
            assertThat(wb.cli("approve", "blind").exit()).isZero();
            List<String> keys = new ArrayList<>();
            for (int i = 1; i <= keysTotal / 2; i++) {
                keys.add(String.format("k%05d", i));
            }
            wb.seed("probed", keys);
            wb.seed("blind", keys);
            Path logs = tmp.resolve("workers");
            Files.createDirectories(logs);
            List<Process> workers = new CopyOnWriteArrayList<>();
            AtomicInteger started = new AtomicInteger();
            for (int i = 0; i < PROCESSES; i++) {
                workers.add(ChildProcess.start(wb, logs.resolve("w" + started.getAndIncrement() + ".log"), "worker",
                        "--tick", "PT1S"));
            }
            long t0 = System.nanoTime();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(30);
            // Each kill lands in the worst place: the site has created the article and not answered yet. The
            // POST that reaches the next share of the keys looks up the worker that holds its key (the lease
            // owner, host/pid/nonce) and SIGKILLs that process before the answer leaves; the main thread
            // starts a new worker in its place, as systemd would.
            AtomicInteger killed = new AtomicInteger();
            AtomicBoolean killing = new AtomicBoolean();
            BlockingQueue<Integer> restart = new LinkedBlockingQueue<>();
            List<String> killedKeys = new CopyOnWriteArrayList<>();
            try (Database watchDb = io.keyline.workspace.Workspace.open(StateLocation.parse(url, wb.env()));
                 JdbcStateStore watch = new JdbcStateStore(watchDb)) {
                for (var e : sites.entrySet()) {
                    String jobName = e.getKey();
                    e.getValue().onPost(r -> {
                        int k = killed.get();
                        long target = (long) keysTotal * (k + 1) / (kills + 2);
                        // the first kills cover both jobs (one reconciled by its probe, one left to a person)
                        boolean jobNeeded = killedKeys.stream().noneMatch(x -> x.startsWith(jobName + " "))
                                || killedKeys.size() >= sites.size();
                        if (k >= kills || probed.posts() + blind.posts() < target || !jobNeeded
                                || !killing.compareAndSet(false, true)) {
                            return;
                        }
                        try {
                            String idem = r.header("Idempotency-Key");
                            String key = idem == null ? null : idem.split(":")[1];
                            String owner = key == null ? null
                                    : watch.key(jobName, key).map(KeyRecord::leaseOwner).orElse(null);
                            if (owner == null) {
                                return;
                            }
                            long pid = Long.parseLong(owner.split("/")[1]);
                            for (int i = 0; i < workers.size(); i++) {
                                Process p = workers.get(i);
                                if (p.pid() == pid && p.isAlive()) {
                                    p.destroyForcibly();
                                    p.waitFor(30, TimeUnit.SECONDS);
                                    killedKeys.add(jobName + " " + key);
                                    killed.incrementAndGet();
                                    restart.add(i);
                                    return;
                                }
                            }
                        } catch (InterruptedException ex) {
                            Thread.currentThread().interrupt();
                        } finally {
                            killing.set(false);
                        }
                    });
                }
                int restarted = 0;
                while (restarted < kills && System.nanoTime() < deadline) {
                    Integer victim = restart.poll(100, TimeUnit.MILLISECONDS);
                    if (victim == null && killed.get() == restarted && !killing.get()
                            && probed.posts() + blind.posts() >= keysTotal) {
                        break; // every key was posted before the kills could happen: the assertion says so
                    }
                    if (victim != null) {
                        workers.set(victim, ChildProcess.start(wb, logs.resolve("w" + started.getAndIncrement()
                                + ".log"), "worker", "--tick", "PT1S"));
                        restarted++;
                    }
                }
            }
            // done when no key is left to run: every key DONE or waiting for a person
            Map<KeyState, Integer> counts = new EnumMap<>(KeyState.class);
            try (Database db = io.keyline.workspace.Workspace.open(StateLocation.parse(url, wb.env()));
                 JdbcStateStore store = new JdbcStateStore(db)) {
                while (System.nanoTime() < deadline) {
                    counts.clear();
                    for (String job : sites.keySet()) {
                        store.countsByState(job).forEach((s, n) -> counts.merge(s, n, Integer::sum));
                    }
                    int open = counts.getOrDefault(KeyState.PENDING, 0) + counts.getOrDefault(KeyState.RUNNING, 0)
                            + counts.getOrDefault(KeyState.RETRY_WAIT, 0);
                    if (open == 0) {
                        break;
                    }
                    Thread.sleep(500);
                }
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            for (Process p : workers) {
                p.destroy(); // SIGTERM: they are idle by now
            }
            for (Process p : workers) {
                assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            }
            StringBuilder all = new StringBuilder();
            long conflicts = 0;
            Pattern conflict = Pattern.compile("claim conflicts (\\d+)");
            try (var files = Files.list(logs)) {
                for (Path p : files.sorted().toList()) {
                    String text = Files.readString(p);
                    Matcher m = conflict.matcher(text);
                    while (m.find()) {
                        conflicts += Long.parseLong(m.group(1));
                    }
                    all.append("--- ").append(p.getFileName()).append('\n')
                            .append(text.lines().filter(l -> l.startsWith("worker ") || l.contains("keyline:"))
                                    .reduce("", (a, b) -> a + b + "\n"));
                }
            }

            // the verdict: from the site's own counts and the state
            int duplicates = 0;
            int lost = 0;
            int waiting = 0;
            int waitingWithoutEvidence = 0;
            int reconciled = 0;
            List<String> problems = new ArrayList<>();
            try (Database db = io.keyline.workspace.Workspace.open(StateLocation.parse(url, wb.env()));
                 JdbcStateStore store = new JdbcStateStore(db)) {
                for (var e : sites.entrySet()) {
                    Map<String, KeyRecord> recs = new TreeMap<>();
                    store.keys(e.getKey()).forEach(r -> recs.put(r.key(), r));
                    for (String k : keys) {
                        int effects = e.getValue().effects(k);
                        KeyRecord r = recs.get(k);
                        if (effects > 1) {
                            duplicates++;
                            problems.add(e.getKey() + " " + k + " posted " + effects + " times");
                        }
                        if (r == null || !(r.state() == KeyState.DONE || r.state() == KeyState.NEEDS_CONFIRMATION)
                                || r.state() == KeyState.DONE && effects == 0) {
                            lost++;
                            problems.add(e.getKey() + " " + k + " " + (r == null ? "missing" : r.state()) + " effects="
                                    + effects);
                            continue;
                        }
                        List<KeyEvent> events = store.events(e.getKey(), k);
                        if (events.stream().anyMatch(ev -> ev.type() == EventType.STEP_RECONCILED)) {
                            reconciled++;
                        }
                        if (r.state() == KeyState.NEEDS_CONFIRMATION) {
                            waiting++;
                            // what a person needs: why it waits, and which attempt was cut short by whom
                            boolean explained = r.message() != null && r.message().contains("unknown")
                                    && events.stream().anyMatch(ev -> ev.type() == EventType.RECOVERED)
                                    && events.stream().anyMatch(ev -> ev.type() == EventType.WAITING_FOR_CONFIRMATION
                                    && ev.message() != null);
                            if (!explained) {
                                waitingWithoutEvidence++;
                                problems.add(e.getKey() + " " + k + " waits without evidence: " + r.message());
                            }
                        }
                    }
                }
            }
            Map<String, Object> figures = new LinkedHashMap<>();
            figures.put("processes", PROCESSES);
            figures.put("concurrency", CONCURRENCY);
            figures.put("keys", keysTotal);
            figures.put("kills", killed.get());
            figures.put("duplicates", duplicates);
            figures.put("lost", lost);
            figures.put("waiting", waiting);
            figures.put("reconciled", reconciled);
            figures.put("claim_conflicts", conflicts);
            figures.put("seconds", Math.round(seconds));
            figures.put("keys_per_s", Math.round(keysTotal / seconds * 10) / 10.0);
            String line = Suites.report("workers", figures, "states " + counts + "\n" + String.join("\n", problems)
                    + "\nkilled mid-step: " + killedKeys + "\n\n" + all);
            assertThat(killed.get()).as(line).isEqualTo(kills);
            assertThat(duplicates).as(line + "\n" + problems).isZero();
            assertThat(lost).as(line + "\n" + problems).isZero();
            assertThat(waitingWithoutEvidence).as(line + "\n" + problems).isZero();
            // every kill cut a POST short after the site acted: a key with a probe was reconciled (found
            // posted, not resent), a key without one waits for a person; at concurrency N the killed worker
            // had up to N keys of each job in flight (the jobs run side by side), each cut short the same
            // way; no other key is touched
            assertThat(waiting + reconciled).as(line + "\nkilled mid-step: " + killedKeys)
                    .isBetween(killed.get(), killed.get() * CONCURRENCY * sites.size());
        } finally {
            probed.close();
            blind.close();
        }
    }
}
