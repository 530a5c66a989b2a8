package io.keyline.cli;

import io.keyline.core.CredentialInfo;
import io.keyline.core.StateStore;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

@Command(name = "status", description = "Shows keys and their states (all jobs, or one).")
final class StatusCommand extends Sub implements Callable<Integer> {

    @Parameters(index = "0", arity = "0..1", paramLabel = "JOB", description = "Only this job.")
    String jobName;

    @Option(names = "--attention", description = "Only keys that wait for a person: FAILED, NEEDS_CONFIRMATION, "
            + "NEEDS_CREDENTIAL, and keys a killed run left RUNNING (interrupted: they resume on the next run).")
    boolean attention;

    @Option(names = "--json", description = "Print a JSON array.")
    boolean json;

    @Override
    public Integer call() {
        io.keyline.core.StartupTrace.mark("command line parsed");
        String name = jobName == null ? null : job(jobName).name();
        Set<KeyState> states = attention ? KeyState.ATTENTION : Set.of();
        List<KeyRecord> keys = new ArrayList<>(ws().store().query(new StateStore.KeyQuery(name, states, null, 0,
                Integer.MAX_VALUE)));
        io.keyline.core.StartupTrace.mark("keys read (" + keys.size() + ")");
        List<CredentialInfo> credentials = ws().credentials().list();
        Map<String, Integer> parkedOnMissing = ws().credentials().parkedOnMissing();
        java.time.Instant now = ws().options().clock().instant();
        if (attention) {
            keys.addAll(io.keyline.core.Orphans.of(ws().store(), name, now));
            keys.sort(java.util.Comparator.comparing(KeyRecord::job).thenComparing(KeyRecord::key));
        }
        // a RUNNING key whose process is gone (Orphans); the state is asked only for those
        Set<KeyRecord> orphans = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (KeyRecord k : keys) {
            if (k.state() == KeyState.RUNNING && io.keyline.core.Orphans.orphaned(ws().store(), k, now)) {
                orphans.add(k);
            }
        }
        doneReading();
        if (json) {
            Map<String, String> loginUrls = new java.util.HashMap<>();
            credentials.stream().filter(i -> i.loginUrl() != null).forEach(i -> loginUrls.put(i.name(), i.loginUrl()));
            List<Map<String, Object>> rows = new ArrayList<>();
            for (KeyRecord k : keys) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("job", k.job());
                m.put("key", k.key());
                m.put("state", k.state().name());
                m.put("step", k.step());
                m.put("attempts", k.attempts());
                m.put("nextAttemptAt", k.nextAttemptAt());
                m.put("updatedAt", k.updatedAt());
                boolean orphan = orphans.contains(k);
                m.put("message", orphan ? io.keyline.core.Orphans.describe(k) : k.message());
                m.put("credential", k.credential());
                m.put("class", k.failureClass() == null ? null : k.failureClass().name());
                if (k.state() == KeyState.NEEDS_CREDENTIAL && k.credential() != null
                        && loginUrls.containsKey(k.credential())) {
                    m.put("loginUrl", loginUrls.get(k.credential()));
                }
                m.put("interrupted", orphan);
                rows.add(m);
            }
            Text.json(out(), rows);
            return 0;
        }
        for (String w : CredentialsCommand.warnings(credentials, parkedOnMissing, now,
                CredentialsCommand.warnWindow(root().env()))) {
            out().println("! " + w);
        }
        if (keys.isEmpty()) {
            out().println(attention ? "Nothing waits for you." : "No keys yet" + (name == null ? "." : " for " + name + "."));
            return 0;
        }
        Text.Table t = new Text.Table("JOB", "KEY", "STATE", "STEP", "ATTEMPTS", "NEXT ATTEMPT", "UPDATED", "MESSAGE");
        for (KeyRecord k : keys) {
            boolean orphan = orphans.contains(k);
            t.row(k.job(), k.key(), orphan ? "RUNNING (interrupted)" : k.state(), k.step(), k.attempts(),
                    Text.time(k.nextAttemptAt()), Text.time(k.updatedAt()),
                    Text.clip(orphan ? io.keyline.core.Orphans.describe(k) : k.message(), 160));
        }
        io.keyline.core.StartupTrace.mark("table built");
        t.print(out());
        io.keyline.core.StartupTrace.mark("table printed");
        return 0;
    }
}
