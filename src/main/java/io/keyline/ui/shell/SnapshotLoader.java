package io.keyline.ui.shell;

import io.keyline.core.CredentialAlerts;
import io.keyline.core.jobfile.JobCatalog;
import io.keyline.core.operations.Attention;
import io.keyline.core.operations.Calendar;
import io.keyline.core.operations.Operations;
import io.keyline.core.operations.Overview;
import io.keyline.core.operations.Words;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.text.Text;
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
        Operations ops = s.operations();
        Overview overview = ops.overview(catalog.jobs());
        Map<String, Calendar.View> calendars = new HashMap<>();
        List<Snapshot.JobSummary> jobs = new ArrayList<>();
        for (Overview.Job o : overview.jobs()) {
            JobDefinition j = o.def();
            Calendar.View cal = ops.calendar(j);
            calendars.put(j.name(), cal);
            int missing = cal.missing().size();
            jobs.add(new Snapshot.JobSummary(j.name(),
                    j.schedule() == null ? Text.t("ui.jobs.noSchedule") : Words.schedule(j.schedule().text(), j.key().zone()),
                    o.paused(now), o.paused(now) ? o.control().reason() : null,
                    o.attention(), o.count(KeyState.DONE), o.total(), missing,
                    missing == 0 ? "" : Calendar.count(cal.type(), missing)));
        }
        List<Attention.Item> items = ops.attention(catalog.jobs(), calendars, now);
        List<Snapshot.RunningKey> running = new ArrayList<>();
        for (KeyRecord r : ops.running(200)) {
            JobDefinition j = catalog.job(r.job()).orElse(null);
            int idx = j == null || r.step() == null ? 0 : Math.max(0, j.stepIndex(r.step()));
            running.add(new Snapshot.RunningKey(r.job(), r.key(), r.step(), idx, j == null ? 0 : j.steps().size(),
                    r.leaseOwner()));
        }
        return new Snapshot(now, jobs, items, running, CredentialAlerts.of(s.credentials(), now, s.credentialWarn()),
                catalog.errors(), overview.keys());
    }
}
