package io.keyline.ui.shell;

import io.keyline.core.CredentialAlerts;
import io.keyline.core.StateStore;
import io.keyline.core.jobfile.JobCatalog;
import io.keyline.domain.Evidence;
import io.keyline.domain.JobControl;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.Printable;
import io.keyline.ui.ConsoleServices;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Loads a {@link Snapshot}: a handful of queries, whatever the number of keys. Runs off the FX thread. */
public final class SnapshotLoader {

    /** The inbox shows at most this many items (the oldest first). */
    static final int INBOX_LIMIT = 500;

    private SnapshotLoader() {
    }

    public static Snapshot load(ConsoleServices s) {
        Instant now = s.clock().instant();
        JobCatalog catalog = s.catalog().get();
        StateStore store = s.store();
        Map<String, Map<KeyState, Integer>> counts = store.countsByJob();
        List<Snapshot.JobSummary> jobs = new ArrayList<>();
        for (JobDefinition j : catalog.jobs()) {
            Map<KeyState, Integer> c = counts.getOrDefault(j.name(), Map.of());
            JobControl jc = store.jobControl(j.name());
            int attention = 0;
            for (KeyState st : KeyState.ATTENTION) {
                attention += c.getOrDefault(st, 0);
            }
            int total = c.values().stream().mapToInt(Integer::intValue).sum();
            jobs.add(new Snapshot.JobSummary(j.name(), j.description(), j.schedule() == null ? null : j.schedule().text(),
                    j.key().type().jsonName(), jc.pausedAt(now), jc.pausedAt(now) ? jc.reason() : null, attention,
                    c.getOrDefault(KeyState.DONE, 0), total));
        }
        List<KeyRecord> waiting = new ArrayList<>(store.query(new StateStore.KeyQuery(null, KeyState.ATTENTION, null, 0,
                Integer.MAX_VALUE)));
        waiting.sort(Comparator.comparing(KeyRecord::updatedAt).thenComparing(KeyRecord::job).thenComparing(KeyRecord::key));
        Map<String, Evidence> failures = new HashMap<>();
        for (KeyEvent e : store.lastFailures(KeyState.ATTENTION)) {
            failures.put(e.job() + "/" + e.key(), e.evidence());
        }
        List<Snapshot.AttentionItem> items = new ArrayList<>();
        for (KeyRecord r : waiting.subList(0, Math.min(INBOX_LIMIT, waiting.size()))) {
            Evidence ev = failures.get(r.job() + "/" + r.key());
            items.add(new Snapshot.AttentionItem(r.job(), r.key(), r.state(), r.step(),
                    r.message() == null ? "" : Printable.line(r.message()), ev == null ? "" : summary(ev), r.updatedAt(),
                    r.credential()));
        }
        // keys a killed run left RUNNING: no decision needed, one click runs them now
        for (KeyRecord r : io.keyline.core.Orphans.of(store, null, now)) {
            if (items.size() < INBOX_LIMIT) {
                items.add(new Snapshot.AttentionItem(r.job(), r.key(), r.state(), r.step(),
                        io.keyline.core.Orphans.describe(r), "", r.updatedAt(), null));
            }
        }
        List<Snapshot.RunningKey> running = new ArrayList<>();
        for (KeyRecord r : store.query(new StateStore.KeyQuery(null, java.util.Set.of(KeyState.RUNNING), null, 0, 200))) {
            JobDefinition j = catalog.job(r.job()).orElse(null);
            int idx = j == null || r.step() == null ? 0 : Math.max(0, j.stepIndex(r.step()));
            running.add(new Snapshot.RunningKey(r.job(), r.key(), r.step(), idx, j == null ? 0 : j.steps().size(),
                    r.updatedAt(), r.leaseOwner()));
        }
        int keys = counts.values().stream().flatMap(m -> m.values().stream()).mapToInt(Integer::intValue).sum();
        return new Snapshot(now, jobs, items, running, CredentialAlerts.of(s.credentials(), now, s.credentialWarn()),
                catalog.errors(), keys);
    }

    /** One line about what a failed attempt sent and got back. */
    private static String summary(Evidence ev) {
        StringBuilder sb = new StringBuilder();
        if (ev.request() != null) {
            sb.append(ev.request().method()).append(' ').append(ev.request().url());
            sb.append(ev.status() != null ? " → HTTP " + ev.status() : "");
            if (ev.responseBody() != null && !ev.responseBody().isBlank()) {
                sb.append("  ").append(oneLine(ev.responseBody(), 100));
            } else if (ev.status() == null && ev.detail() != null) {
                sb.append(" → ").append(oneLine(ev.detail(), 100));
            }
        } else if (ev.command() != null) {
            sb.append(String.join(" ", ev.command()));
            sb.append(ev.exitCode() != null ? " → exit " + ev.exitCode() : "");
            if (ev.stderr() != null && !ev.stderr().isBlank()) {
                String[] lines = ev.stderr().strip().split("\n");
                sb.append("  ").append(oneLine(lines[lines.length - 1], 100));
            }
        }
        if (ev.detail() != null && sb.isEmpty()) {
            sb.append(oneLine(ev.detail(), 160));
        }
        return sb.toString();
    }

    static String oneLine(String s, int max) {
        String t = s.strip().replaceAll("\\s+", " ");
        return t.length() <= max ? t : t.substring(0, max - 1) + "…";
    }
}
