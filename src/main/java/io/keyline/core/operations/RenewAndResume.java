package io.keyline.core.operations;

import io.keyline.core.CredentialInfo;
import io.keyline.core.CredentialStore;
import io.keyline.core.CredentialTester;
import io.keyline.core.Engine;
import io.keyline.core.OperatorActions;
import io.keyline.core.StateStore;
import io.keyline.credentials.ParsedCredential;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Renew a login and resume what waited for it, as {@code keyline credentials set} and the console's
 * Renew dialog do it: store the credential (encrypted), put every key parked on it back to pending,
 * optionally run them at once, and say so in one line ("3 parked keys resumed, 3 of 3 completed").
 */
public final class RenewAndResume {

    private final CredentialStore credentials;
    private final StateStore store;
    private final OperatorActions actions;

    public RenewAndResume(CredentialStore credentials, StateStore store, OperatorActions actions) {
        this.credentials = credentials;
        this.store = store;
        this.actions = actions;
    }

    /**
     * What waits for a credential: shown before it is renewed.
     *
     * @param name     credential name
     * @param info     what is stored now (never the value), or empty when it is not set
     * @param loginUrl where to log in again, or {@code null}
     * @param parked   the keys parked on it ("job key"), oldest first
     */
    public record Waiting(String name, Optional<CredentialInfo> info, String loginUrl, List<KeyRecord> parked) {
        /** "2026-11-29, 2026-11-30 of daily-article" or "3 keys of 2 jobs: …", for one line. */
        public String keysText() {
            Map<String, List<String>> byJob = new LinkedHashMap<>();
            parked.forEach(k -> byJob.computeIfAbsent(k.job(), j -> new ArrayList<>()).add(k.key()));
            List<String> parts = new ArrayList<>();
            byJob.forEach((j, ks) -> parts.add(j + " " + String.join(", ", ks)));
            return String.join("; ", parts);
        }
    }

    /**
     * A stored credential and the keys that went back to pending.
     *
     * @param info    what is stored now
     * @param resumed the keys that were parked on it, now pending
     */
    public record Renewed(CredentialInfo info, List<KeyRecord> resumed) {
    }

    /**
     * The resumed keys after they ran.
     *
     * @param finals      their final records
     * @param missingJobs jobs of resumed keys whose file is gone (those keys stay pending)
     */
    public record Ran(List<KeyRecord> finals, List<String> missingJobs) {
        public long done() {
            return finals.stream().filter(k -> k.state() == KeyState.DONE).count();
        }
    }

    /** The credential's stored description, login URL and the keys parked on it. */
    public Waiting waiting(String name) {
        Optional<CredentialInfo> info = credentials.info(name);
        List<KeyRecord> parked = store.query(new StateStore.KeyQuery(null, Set.of(KeyState.NEEDS_CREDENTIAL), null, 0,
                Integer.MAX_VALUE)).stream().filter(r -> name.equals(r.credential()))
                .sorted(java.util.Comparator.comparing(KeyRecord::updatedAt).thenComparing(KeyRecord::job)
                        .thenComparing(KeyRecord::key)).toList();
        return new Waiting(name, info, info.map(CredentialInfo::loginUrl).orElse(null), parked);
    }

    /**
     * Stores the credential and resumes the keys parked on it. The stored value stays unchanged when
     * storing fails.
     *
     * @param loginUrl where to log in again, or {@code null} to keep the stored one
     */
    public Renewed renew(String name, ParsedCredential value, String loginUrl, String user) {
        CredentialInfo info = credentials.set(name, value, loginUrl, user);
        List<KeyRecord> resumed = actions.credentialUpdated(name, info.fingerprint());
        return new Renewed(credentials.info(name).orElse(info), resumed);
    }

    /** Runs the resumed keys now, one run per job (in the order they resumed). */
    public Ran run(List<KeyRecord> resumed, Function<String, Optional<JobDefinition>> jobs, Engine engine) {
        Map<String, List<String>> byJob = new LinkedHashMap<>();
        for (KeyRecord k : resumed) {
            byJob.computeIfAbsent(k.job(), j -> new ArrayList<>()).add(k.key());
        }
        List<KeyRecord> finals = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : byJob.entrySet()) {
            Optional<JobDefinition> job = jobs.apply(e.getKey());
            if (job.isEmpty()) {
                missing.add(e.getKey());
                continue;
            }
            finals.addAll(engine.run(job.get(), e.getValue()).keys());
        }
        return new Ran(finals, missing);
    }

    /** "3 parked keys resumed" — then ", 3 of 3 completed" when they ran, with what did not complete. */
    public static String summary(Renewed renewed, Ran ran) {
        int n = renewed.resumed().size();
        StringBuilder sb = new StringBuilder().append(n).append(n == 1 ? " parked key" : " parked keys")
                .append(" resumed");
        if (ran == null) {
            return sb.append(n == 0 ? "" : ": they run on the next run").toString();
        }
        sb.append(", ").append(ran.done()).append(" of ").append(n).append(" completed");
        Map<KeyState, Integer> other = new LinkedHashMap<>();
        ran.finals().stream().filter(k -> k.state() != KeyState.DONE).forEach(k -> other.merge(k.state(), 1,
                Integer::sum));
        if (!other.isEmpty()) {
            sb.append(" (").append(Words.counts(other)).append(')');
        }
        if (!ran.missingJobs().isEmpty()) {
            sb.append("; job files not found: ").append(String.join(", ", ran.missingJobs()));
        }
        return sb.toString();
    }

    /**
     * What a test of the stored credential found, and the keys it resumed.
     *
     * @param results  per step that uses it: accepted, rejected or not tested
     * @param resumed  the keys that went back to pending because every probe that answered accepted it
     */
    public record Tested(List<CredentialTester.Result> results, List<KeyRecord> resumed) {
        public long accepted() {
            return results.stream().filter(r -> r.verdict() == CredentialTester.Verdict.ACCEPTED).count();
        }

        public long rejected() {
            return results.stream().filter(r -> r.verdict() == CredentialTester.Verdict.REJECTED).count();
        }

        /** Whether any probe could answer. */
        public boolean answered() {
            return results.stream().anyMatch(r -> r.verdict() != CredentialTester.Verdict.NOT_TESTED);
        }

        /** "2 parked keys resumed", or "" when none did. */
        public String resumedText() {
            int n = resumed.size();
            return n == 0 ? "" : n + " parked key" + (n == 1 ? "" : "s") + " resumed";
        }
    }

    /**
     * Tests the stored credential with the read-only probes of the steps that use it, as {@code keyline
     * credentials test} and the console's Test do: when every probe that answered accepted it (and one
     * did), the breaker closes and the keys parked on it resume.
     */
    public Tested test(String name, List<JobDefinition> jobs, java.time.Clock clock) throws InterruptedException {
        List<CredentialTester.Result> results = new CredentialTester(credentials, clock).test(name, jobs);
        Tested t = new Tested(results, List.of());
        if (t.rejected() == 0 && t.accepted() > 0) {
            String fp = credentials.info(name).map(CredentialInfo::fingerprint).orElse("?");
            return new Tested(results, actions.credentialAccepted(name, fp));
        }
        return t;
    }
}
