package io.keyline.core.operations;

import io.keyline.core.CredentialInfo;
import io.keyline.core.CredentialProvider;
import io.keyline.core.CredentialStore;
import io.keyline.core.CredentialTester;
import io.keyline.core.DecisionInputs;
import io.keyline.core.Engine;
import io.keyline.core.OperatorActions;
import io.keyline.core.OperatorException;
import io.keyline.core.KeyRecords;
import io.keyline.core.RunRequest;
import io.keyline.credentials.CredentialType;
import io.keyline.credentials.MasterKeyException;
import io.keyline.credentials.ParsedCredential;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.text.Text;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Renew a login and resume what waited for it, as {@code keyline credentials set} and the console's
 * Renew dialog do it: store the credential (encrypted), put every key parked on it back to pending,
 * optionally run them at once, and say so in one line ("3 parked keys resumed, 3 of 3 completed").
 */
public record RenewAndResume(CredentialStore credentials, KeyRecords store, OperatorActions actions) {

    /**
     * What waits for a credential: shown before it is renewed.
     *
     * @param name     credential name
     * @param info     what is stored now (never the value), or empty when it is not set
     * @param loginUrl where to log in again, or {@code null}
     * @param parked   the keys parked on it ("job key"), oldest first
     * @param reviewFirst the jobs of parked keys that wait for the review of their unsafe steps once they resume
     */
    public record Waiting(String name, Optional<CredentialInfo> info, String loginUrl, List<KeyRecord> parked,
                          List<String> reviewFirst) {
        public Waiting {
            reviewFirst = List.copyOf(reviewFirst);
        }

        /** "2026-11-29, 2026-11-30 of daily-article" or "3 keys of 2 jobs: …", for one line. */
        public String keysText() {
            Map<String, List<String>> byJob = new LinkedHashMap<>();
            parked.forEach(k -> byJob.computeIfAbsent(k.job(), j -> new ArrayList<>()).add(k.key()));
            List<String> parts = new ArrayList<>();
            // the list words of the language in use, as Attention lists keys ("2026-11-29、2026-11-30")
            byJob.forEach((j, ks) -> parts.add(j + " " + String.join(Text.t("common.listSeparator"), ks)));
            return String.join(Text.t("common.groupSeparator"), parts);
        }

        /** "3 keys will resume: daily-article 2026-11-29, …", or that none waits (the Renew dialog's line). */
        public String resumeText() {
            int n = parked.size();
            if (n == 0) {
                return Text.t("core.renew.noneWaits");
            }
            String resume = Text.t("core.renew.willResume", n, keysText());
            return reviewFirst.isEmpty() ? resume : Text.t("core.renew.willResumeForReview", resume,
                    String.join(Text.t("common.listSeparator"), reviewFirst), reviewFirst.size());
        }

        /** The stored credential's type (the Renew dialog presets it), or empty when not set or not known. */
        public Optional<CredentialType> storedType() {
            try {
                return info.map(i -> CredentialType.fromJsonName(i.type()));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }

        /** What is stored now ({@link #stored}), or that it is not set yet and keys wait for it. */
        public String storedText() {
            return info.map(RenewAndResume::stored).orElseGet(() -> Text.t("core.renew.notSet", name));
        }
    }

    /** The rule for a credential's name, as {@code keyline credentials set NAME} and the Renew dialog apply it. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    /** Why {@code name} (checked as given) cannot name a credential, or {@code null} when it can. */
    public static String nameProblem(String name) {
        return name == null || name.isEmpty() ? Text.t("core.renew.nameMissing") : !NAME.matcher(name).matches()
                ? Text.t("core.renew.nameInvalid", NAME.pattern()) : null;
    }

    /**
     * "Stored now: cookie, fingerprint ab12…, 2 cookies, expires 2026-12-01 10:00:00, last accepted
     * 2026-11-30 09:00:00": what is stored (never the value), times local.
     */
    public static String stored(CredentialInfo i) {
        // the type and the last result are the stored words (cookie, rejected); the last result is said in words
        // when the bundle knows it
        List<String> facts = new ArrayList<>(List.of(i.type(), Text.t("core.renew.fingerprint", i.fingerprint())));
        if (i.cookies() > 0) {
            facts.add(Text.t("core.renew.cookies", i.cookies()));
        }
        if (i.earliestExpiry() != null) {
            facts.add(Text.t("core.renew.expires", EvidenceText.time(i.earliestExpiry())));
        }
        if (i.lastResult() != null) {
            String key = "core.renew.lastResult." + i.lastResult().replace(' ', '_');
            String last = Text.has(key) ? Text.t(key) : Text.t("core.renew.lastResult", i.lastResult());
            facts.add(i.lastUsedAt() == null ? last : Text.t("core.renew.lastAt", last,
                    EvidenceText.time(i.lastUsedAt())));
        }
        return Text.t("core.renew.stored", String.join(Text.t("core.renew.factSeparator"), facts));
    }

    /**
     * A stored credential and the keys that went back to pending.
     *
     * @param info       what is stored now
     * @param resumed    the keys that were parked on it, now pending
     * @param rejectedAt when the value given is the one the site rejected: when it was rejected (then nothing
     *                   resumed), else {@code null}
     * @param reviewFirst the jobs of resumed keys that an unattended run holds for the review of the job's unsafe
     *                    steps ({@link OperatorActions#awaitingReview}): they wait for it before they run
     */
    public record Renewed(CredentialInfo info, List<KeyRecord> resumed, java.time.Instant rejectedAt,
                          List<String> reviewFirst) {
        public Renewed {
            reviewFirst = reviewFirst == null ? List.of() : List.copyOf(reviewFirst);
        }

        public Renewed(CredentialInfo info, List<KeyRecord> resumed, java.time.Instant rejectedAt) {
            this(info, resumed, rejectedAt, List.of());
        }

        /** Whether the value given is the one the site rejected (nothing resumed). */
        public boolean sameAsRejected() {
            return rejectedAt != null;
        }
    }

    /**
     * "This is the value that was rejected at 2026-11-29 10:00:00; nothing resumes: log in again (at URL) and
     * store the new value."
     */
    public static String sameAsRejected(String name, Renewed renewed) {
        String at = EvidenceText.time(renewed.rejectedAt());
        return renewed.info().loginUrl() == null ? Text.t("core.renew.sameAsRejected", at, name)
                : Text.t("core.renew.sameAsRejectedAt", at, name, renewed.info().loginUrl());
    }

    /**
     * A save from the console: stored (and the parked keys resumed), or refused because the site just rejected
     * this very value (the operator may still choose to save it anyway).
     *
     * @param renewed what was stored, or {@code null} when nothing was
     * @param refusal why nothing was stored (plain words), or {@code null}
     */
    public record Saving(Renewed renewed, String refusal) {
        public boolean refused() {
            return renewed == null;
        }
    }

    /**
     * Stores {@code value} and resumes the keys parked on it, unless the site just rejected this very value: a
     * test of it just answered <em>rejected</em> ({@code tested}), or it is the stored value the site rejected.
     * Then nothing is stored and the refusal says why; {@link #renew(String, ParsedCredential, String, String,
     * List)} stores it anyway (the operator's second, explicit choice).
     *
     * @param tested what the probes of a test of this very value just made found, or {@code null} when it was not
     *               tested; refused when its strict verdict is rejected (a site refused it, or it could not go out)
     */
    public Saving renewUnlessRejected(String name, ParsedCredential value, String loginUrl, String user,
                                      List<JobDefinition> jobs, List<CredentialTester.Result> tested) {
        if (tested != null && CredentialTester.outcome(tested) == CredentialTester.Outcome.REJECTED) {
            return new Saving(null, LoginCheck.notSavedTested(tested));
        }
        Optional<CredentialInfo> stored = rejectedAs(name, value);
        if (stored.isPresent()) {
            CredentialInfo b = stored.get();
            return new Saving(null, LoginCheck.notSavedSameAsRejected(EvidenceText.time(
                    b.lastUsedAt() != null ? b.lastUsedAt() : b.updatedAt())));
        }
        return new Saving(renew(name, value, loginUrl, user, jobs), null);
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

        /** The keys that were not sent because their job waits for the review of its unsafe steps. */
        public List<KeyRecord> held() {
            return finals.stream().filter(DecisionInputs::waitsForReview).toList();
        }

        /** The jobs of {@link #held} keys, each once, in the order they ran. */
        public List<String> heldJobs() {
            return held().stream().map(KeyRecord::job).distinct().toList();
        }
    }

    /** The credential's stored description, login URL and the keys parked on it. */
    public Waiting waiting(String name, List<JobDefinition> jobs) {
        Optional<CredentialInfo> info = credentials.info(name);
        List<KeyRecord> parked = store.query(new KeyRecords.KeyQuery(null, Set.of(KeyState.NEEDS_CREDENTIAL), null, 0,
                Integer.MAX_VALUE)).stream().filter(r -> name.equals(r.credential()))
                .sorted(java.util.Comparator.comparing(KeyRecord::updatedAt).thenComparing(KeyRecord::job)
                        .thenComparing(KeyRecord::key)).toList();
        return new Waiting(name, info, info.map(CredentialInfo::loginUrl).orElse(null), parked,
                actions.awaitingReview(parked, jobs));
    }

    /**
     * Stores the credential and resumes the keys parked on it, each from the first step of its job that uses the
     * credential (the outputs of the old login are discarded). The stored value stays unchanged when storing
     * fails.
     *
     * @param loginUrl where to log in again, or {@code null} to keep the stored one
     * @param jobs     the jobs (their steps tell where a parked key resumes)
     */
    public Renewed renew(String name, ParsedCredential value, String loginUrl, String user, List<JobDefinition> jobs) {
        return renew(name, value, loginUrl, null, user, jobs);
    }

    /**
     * {@link #renew(String, ParsedCredential, String, String, List)}, and whether the site may refresh the stored
     * cookies ({@code null} keeps the stored choice). The value the site rejected, given again, resumes nothing
     * ({@link Renewed#sameAsRejected()}): the keys would only park again.
     */
    public Renewed renew(String name, ParsedCredential value, String loginUrl, Boolean refreshBySite, String user,
                         List<JobDefinition> jobs) {
        Optional<CredentialInfo> before = rejectedAs(name, value);
        CredentialInfo info = credentials.set(name, value, loginUrl, refreshBySite, user);
        if (before.isPresent()) {
            CredentialInfo b = before.get();
            Instant at = b.lastUsedAt() != null ? b.lastUsedAt() : b.updatedAt();
            if (!info.rejected()) {
                // the value the operator stored before the site refreshed it: it is still the rejected login
                credentials.recordUse(name, at, b.lastResult());
                info = credentials.info(name).orElse(info);
            }
            return new Renewed(info, List.of(), at);
        }
        List<KeyRecord> resumed = actions.credentialUpdated(name, info.fingerprint(), jobs);
        return new Renewed(credentials.info(name).orElse(info), resumed, null, actions.awaitingReview(resumed, jobs));
    }

    /**
     * The stored credential, when the site rejected it and {@code value} is that value: the one stored now, or the
     * one the operator stored before the site refreshed it (a cookie the site added or set again, such as
     * WordPress's {@code wp-settings-time-1}, changes the stored value but not the login that was rejected).
     */
    private Optional<CredentialInfo> rejectedAs(String name, ParsedCredential value) {
        Optional<CredentialInfo> stored = credentials.info(name).filter(CredentialInfo::rejected);
        if (stored.isEmpty() || stored.get().fingerprint().equals(value.fingerprint())) {
            return stored;
        }
        CredentialProvider.Lookup current = credentials.lookup(name);
        return current.material() != null && value.fingerprint().equals(current.material().renewalFingerprint())
                ? stored : Optional.empty();
    }

    /**
     * Runs the resumed keys now, one run per job (in the order they resumed). Whoever renewed the login has not
     * seen the plans of these jobs: the keys of a job whose unsafe steps wait for a review are held for it, as an
     * unattended run holds them, and send nothing ({@link Ran#held}).
     */
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
            finals.addAll(engine.run(job.get(), e.getValue(), RunRequest.RESUMED).keys());
        }
        return new Ran(finals, missing);
    }

    /**
     * "3 parked keys resumed" — then ": they run on the next run", or that the scheduler holds them until their job
     * is reviewed, and how to review it; or ", 3 of 3 completed" when they ran, with what did not complete, and
     * which keys wait for their job's review and how to review it.
     */
    public static String summary(Renewed renewed, Ran ran) {
        int n = renewed.resumed().size();
        if (ran == null) {
            return n > 0 && !renewed.reviewFirst().isEmpty() ? heldForReview(n, renewed.reviewFirst())
                    : Text.t(n == 0 ? "core.renew.resumed" : "core.renew.resumedNext", n);
        }
        return ranText(renewed, ran, true);
    }

    /**
     * {@link #summary} of keys that ran, without the console's words on how to review a job (the command line
     * says it on lines of its own).
     */
    public static String ranSummary(Renewed renewed, Ran ran) {
        return ranText(renewed, ran, false);
    }

    private static String ranText(Renewed renewed, Ran ran, boolean howToReview) {
        int n = renewed.resumed().size();
        List<KeyRecord> held = ran.held();
        // "3 parked keys resumed; 3 wait for the review …" when none ran, not "0 ran, 0 completed"
        String s = held.isEmpty() ? Text.t("core.renew.resumedRan", n, ran.done())
                : held.size() == ran.finals().size() ? Text.t("core.renew.resumed", n)
                : Text.t("core.renew.resumedRanSome", n, ran.finals().size() - held.size(), ran.done());
        Map<KeyState, Integer> other = new LinkedHashMap<>();
        ran.finals().stream().filter(k -> k.state() != KeyState.DONE && !DecisionInputs.waitsForReview(k))
                .forEach(k -> other.merge(k.state(), 1, Integer::sum));
        if (!other.isEmpty()) {
            s = Text.t("core.renew.ranOthers", s, Words.counts(other));
        }
        if (!held.isEmpty()) {
            List<String> jobs = ran.heldJobs();
            String names = String.join(Text.t("common.listSeparator"), jobs);
            s += Text.t("core.renew.heldForReview", held.size(), names);
            if (howToReview) {
                s += Text.t("core.renew.howToReview", names, jobs.size());
            }
        }
        if (!ran.missingJobs().isEmpty()) {
            s += Text.t("core.renew.jobsMissing", String.join(", ", ran.missingJobs()));
        }
        return s;
    }

    /**
     * "1 parked key resumed, but the scheduler parks it again until p is reviewed: Plan… on the job's page, then
     * apply the plan (or keyline approve p)".
     */
    private static String heldForReview(int resumed, List<String> jobs) {
        return Text.t("core.renew.reviewFirst", resumed, String.join(Text.t("common.listSeparator"), jobs),
                jobs.size());
    }

    /**
     * The outcome of a save in the Renew dialog's two lines.
     *
     * @param message the saved line, or empty when the save is not a success
     * @param error   the error line: empty, or why not every resumed key completed
     * @param review  the jobs whose resumed keys wait for their review before they run: the saved line says what
     *                is still to do, it is not a success
     */
    public record Saved(String message, String error, List<String> review) {
        public Saved {
            review = List.copyOf(review);
        }

        /** Keys it resumed wait for a person (their job's review). */
        public boolean waits() {
            return !review.isEmpty();
        }
    }

    /**
     * What a save says: stored and resumed (and, when {@code ran} is not {@code null}, how many of the resumed
     * keys completed). A run where not every resumed key that ran completed is not a success: it is said in the
     * error line. Keys held for their job's review did not run: the line says how to review it.
     */
    public static Saved saved(Renewed renewed, Ran ran) {
        // keys left waiting for their job's review: not resumed to run (nothing ran), or held by the run
        List<String> review = ran != null ? ran.heldJobs()
                : renewed.resumed().isEmpty() ? List.of() : renewed.reviewFirst();
        if (ran != null && ran.done() + ran.held().size() < renewed.resumed().size()) {
            return new Saved("", Text.t("core.renew.savedNotAll", summary(renewed, ran)), review);
        }
        return new Saved(Text.t("core.renew.saved", summary(renewed, ran)), "", review);
    }

    /** Why a save failed: the master key's own message, else that the stored credential is unchanged. */
    public static String notSaved(String name, Throwable e) {
        return e instanceof MasterKeyException ? Words.error(e)
                : Text.t("core.renew.notSaved", name, Words.error(e));
    }

    /** Why the resumed keys did not run after a save (the save itself stands). */
    public static String runFailed(Throwable e) {
        return Text.t("core.renew.runFailed", Words.error(e));
    }

    /** Why a test of the stored credential failed: it cannot be used at all, or the test broke. */
    public static String testFailed(String name, Throwable e) {
        return e instanceof OperatorException ? Text.t("core.renew.cannotTest", name, Words.error(e))
                : Text.t("core.renew.testFailed", Words.error(e));
    }

    /** "Saved. 3 resumed; running them…": said while the resumed keys run. */
    public static String running(Renewed renewed) {
        return Text.t("core.renew.running", renewed.resumed().size());
    }

    /**
     * What a test of the stored credential found, and the keys it resumed.
     *
     * @param results     per step that uses it: accepted, rejected or not tested
     * @param resumed     the keys that went back to pending because every probe that answered accepted it
     * @param reviewFirst the jobs of resumed keys that an unattended run holds for the review of the job's unsafe
     *                    steps ({@link OperatorActions#awaitingReview})
     */
    public record Tested(List<CredentialTester.Result> results, List<KeyRecord> resumed, List<String> reviewFirst) {
        public Tested {
            reviewFirst = reviewFirst == null ? List.of() : List.copyOf(reviewFirst);
        }

        public Tested(List<CredentialTester.Result> results, List<KeyRecord> resumed) {
            this(results, resumed, List.of());
        }

        /** Accepted, rejected or inconclusive (strict: one success and no auth signal is accepted). */
        public CredentialTester.Outcome outcome() {
            return CredentialTester.outcome(results);
        }

        /** As {@link #summary}, in the console's plain words ({@link LoginCheck}). */
        public String plainSummary() {
            return withResumed(Text.t("core.renew.storedLogin", LoginCheck.summary(results)));
        }

        private String withResumed(String s) {
            return resumed.isEmpty() ? s : reviewFirst.isEmpty() ? Text.t("core.renew.testedResumed", s,
                    resumed.size()) : Text.t("core.renew.testedReviewFirst", s, resumedText());
        }

        /**
         * "2 parked keys resumed" (and, when their job waits for its review, that the scheduler holds them until
         * then and how to review it), or "" when none did.
         */
        public String resumedText() {
            int n = resumed.size();
            return n == 0 ? "" : reviewFirst.isEmpty() ? Text.t("core.renew.resumed", n) : heldForReview(n, reviewFirst);
        }
    }

    /** {@link #test(String, List, java.time.Clock, String)} with each job's current key. */
    public Tested test(String name, List<JobDefinition> jobs, java.time.Clock clock) throws InterruptedException {
        return test(name, jobs, clock, null);
    }

    /**
     * Tests the stored credential with every read-only request of its jobs that can tell (see
     * {@link CredentialTester}), as {@code keyline credentials test} and the console's Test do: only when it is
     * accepted does the breaker close and the keys parked on it resume.
     *
     * @param key the key the requests are made for, or {@code null} for each job's current key
     */
    public Tested test(String name, List<JobDefinition> jobs, java.time.Clock clock, String key)
            throws InterruptedException {
        List<CredentialTester.Result> results = new CredentialTester(credentials, clock).test(name, jobs, key);
        Tested t = new Tested(results, List.of());
        if (t.outcome() == CredentialTester.Outcome.ACCEPTED) {
            String fp = credentials.info(name).map(CredentialInfo::fingerprint).orElse("?");
            List<KeyRecord> resumed = actions.credentialAccepted(name, fp, jobs);
            return new Tested(results, resumed, actions.awaitingReview(resumed, jobs));
        }
        return t;
    }
}
