package io.keyline.ui.shell;

import io.keyline.core.CredentialAlerts;
import io.keyline.core.StateStore;
import io.keyline.core.jobfile.JobCatalog;
import io.keyline.core.operations.Attention;
import io.keyline.core.operations.Calendar;
import io.keyline.core.operations.Words;
import io.keyline.domain.JobControl;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.ui.ConsoleServices;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Loads a {@link Snapshot}: a handful of queries per job, whatever the number of keys. Runs off the FX thread. */
public final class SnapshotLoader {

    private SnapshotLoader() {
    }

    public static Snapshot load(ConsoleServices s) {
        Instant now = s.clock().instant();
        JobCatalog catalog = s.catalog().get();
        StateStore store = s.store();
        Map<String, Map<KeyState, Integer>> counts = store.countsByJob();
        Map<String, Calendar.View> calendars = new HashMap<>();
        List<Snapshot.JobSummary> jobs = new ArrayList<>();
        for (JobDefinition j : catalog.jobs()) {
            Map<KeyState, Integer> c = counts.getOrDefault(j.name(), Map.of());
            JobControl jc = store.jobControl(j.name());
            int attention = 0;
            for (KeyState st : KeyState.ATTENTION) {
                attention += c.getOrDefault(st, 0);
            }
            int total = c.values().stream().mapToInt(Integer::intValue).sum();
            Calendar.View cal = Calendar.of(j, store, s.clock());
            calendars.put(j.name(), cal);
            int missing = cal.missing().size();
            jobs.add(new Snapshot.JobSummary(j.name(), j.description(),
                    j.schedule() == null ? "no schedule" : Words.schedule(j.schedule().text(), j.key().zone()),
                    j.key().type().jsonName(), jc.pausedAt(now), jc.pausedAt(now) ? jc.reason() : null, attention,
                    c.getOrDefault(KeyState.DONE, 0), total, missing,
                    missing == 0 ? "" : Calendar.count(cal.type(), missing)));
        }
        List<Attention.Item> items = Attention.of(store, s.credentials(), catalog.jobs(), calendars, now);
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
}
