package io.keyline.core.operations;

import io.keyline.core.CredentialInfo;
import io.keyline.core.CredentialStore;
import io.keyline.core.Orphans;
import io.keyline.core.Waiting;
import io.keyline.core.KeyEvents;
import io.keyline.core.KeyRecords;
import io.keyline.core.Leases;
import io.keyline.domain.Evidence;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.OperatorMoves;
import io.keyline.domain.Trigger;
import io.keyline.text.Said;
import io.keyline.text.Text;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What waits for a person, grouped by cause: one item per rejected or missing credential (listing
 * every key that waits for it and where to log in), one per job, step and failure when several keys
 * failed the same way, one per key that waits for a confirmation (each payload is reviewed on its
 * own), one per job whose keys wait for the review of its unsafe steps, one per interrupted key, and one
 * per job with keys that never ran. A handful of queries, whatever the number of keys.
 */
public final class Attention {

    /** The inbox shows at most this many waiting keys (the oldest first). */
    public static final int LIMIT = 500;

    private Attention() {
    }

    /** The cause an item groups by. */
    public enum Kind {
        /** Keys that failed (one item per job, step and failure). */
        FAILED,
        /** A key whose unsafe step waits for a confirmation. */
        CONFIRMATION,
        /** Keys that wait for a renewed login (one item per credential). */
        CREDENTIAL,
        /** A key a killed run left running: it resumes when run. */
        INTERRUPTED,
        /** Keys of a job that should exist but never ran. */
        MISSING,
        /** Keys of a new (or edited) job that wait for the review of its unsafe steps: Plan…, then Apply. */
        REVIEW
    }

    /**
     * One item of the attention list.
     *
     * @param id         stable identity across reloads (the selection is kept by it)
     * @param kind       the cause
     * @param job        the job, or {@code null} for a credential several jobs wait for
     * @param keys       the keys it covers, as {@code job key} pairs in {@code jobKeys}, oldest first
     * @param jobKeys    the job of each key, same order as {@code keys}
     * @param state      the keys' state ({@code null} for missing keys)
     * @param title      "daily-article · 2026-11-08 · publish", "3 keys wait for a new login to sandbox-cookie"
     * @param reason     the cause in plain words
     * @param evidence   one line of evidence of the latest failure, or empty
     * @param since      when the oldest key entered the state
     * @param credential the credential (CREDENTIAL), or {@code null}
     * @param loginUrl   where to log in again (CREDENTIAL), or {@code null}
     */
    public record Item(String id, Kind kind, String job, List<String> keys, List<String> jobKeys, KeyState state,
                       String title, String reason, String evidence, Instant since, String credential,
                       String loginUrl) {
        public Item {
            keys = List.copyOf(keys);
            jobKeys = List.copyOf(jobKeys);
        }

        /** What an operator may do to the item's keys (nothing for missing keys, which have no state). */
        public OperatorMoves moves() {
            return OperatorMoves.of(kind == Kind.MISSING ? null : state,
                    kind == Kind.REVIEW ? io.keyline.domain.WaitReason.REVIEW : null);
        }

        /** The one action that resolves the item: the move that resolves its keys' state, or run or plan them. */
        public String action() {
            return switch (kind) {
                case INTERRUPTED -> Text.t("core.attention.runNow");
                case MISSING -> Text.t("core.attention.planMissing", keys.size());
                case REVIEW -> Text.t("core.attention.plan");
                default -> {
                    Trigger move = moves().resolving().orElseThrow();
                    yield move == Trigger.RETRY && keys.size() > 1
                            ? Text.t("core.attention.retryKeys", keys.size()) : Words.move(move);
                }
            };
        }

        /**
         * How old the item is, as its label says it: "waiting 3 d 4 h" for keys that wait for a person (the
         * oldest of them), "5 min ago" for an interrupted key, empty for missing keys.
         */
        public String ageText(Instant now) {
            if (since == null) {
                return "";
            }
            if (kind == Kind.INTERRUPTED || kind == Kind.MISSING) {
                return Timeline.relative(since, now);
            }
            java.time.Duration age = java.time.Duration.between(since, now);
            return Text.t("core.waiting.waiting",
                    Waiting.text(age.isNegative() ? java.time.Duration.ZERO : age));
        }

        /** The first (or only) key. */
        public String key() {
            return keys.get(0);
        }

        /** The first key's job. */
        public String firstJob() {
            return jobKeys.get(0);
        }

        /** "2026-11-29, 2026-11-30, 2026-12-01" (with the job when several jobs are involved), cut after 12. */
        public String keysText() {
            boolean oneJob = jobKeys.stream().distinct().count() == 1;
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < keys.size() && i < 12; i++) {
                parts.add(oneJob ? keys.get(i) : jobKeys.get(i) + " " + keys.get(i));
            }
            String listed = String.join(Text.t("common.listSeparator"), parts);
            if (keys.size() > 12) {
                listed = Text.t("core.attention.keysMore", listed, Text.t("common.andMore", keys.size() - 12));
            }
            return oneJob ? Text.t("core.attention.keysOfJob", jobKeys.get(0), listed) : listed;
        }

        /** How many keys wait (missing keys do not count as waiting). */
        public int waitingKeys() {
            return kind == Kind.MISSING ? 0 : keys.size();
        }
    }

    /**
     * The attention list, oldest cause first; items of missing keys come last.
     *
     * @param calendars each job's calendar (for its missing keys), by job name; jobs without one have none
     */
    public static List<Item> of(KeyRecords store, KeyEvents history, Leases leases, CredentialStore credentials,
                                List<JobDefinition> jobs,
                                Map<String, Calendar.View> calendars, Instant now) {
        List<KeyRecord> waiting = new ArrayList<>(store.query(new KeyRecords.KeyQuery(null, KeyState.ATTENTION, null,
                0, Integer.MAX_VALUE)));
        waiting.sort(Comparator.comparing(KeyRecord::updatedAt).thenComparing(KeyRecord::job)
                .thenComparing(KeyRecord::key));
        waiting = waiting.subList(0, Math.min(LIMIT, waiting.size()));
        Map<String, Evidence> failures = new HashMap<>();
        Map<String, Said> failureWords = new HashMap<>();
        for (KeyEvent e : history.lastFailures(KeyState.ATTENTION)) {
            failures.put(e.job() + "/" + e.key(), e.evidence());
            if (e.said() != null) {
                failureWords.put(e.job() + "/" + e.key(), e.said());
            }
        }
        Map<String, List<KeyRecord>> groups = new LinkedHashMap<>();
        for (KeyRecord r : waiting) {
            groups.computeIfAbsent(groupOf(r, failures.get(r.job() + "/" + r.key())), g -> new ArrayList<>()).add(r);
        }
        Map<String, Optional<CredentialInfo>> infos = new HashMap<>();
        Map<String, JobDefinition> byName = new HashMap<>();
        jobs.forEach(j -> byName.put(j.name(), j));
        List<Item> items = new ArrayList<>();
        groups.forEach((id, rs) -> {
            KeyRecord first = rs.get(0);
            Evidence ev = failures.get(first.job() + "/" + first.key());
            String evidence = ev == null ? "" : EvidenceText.brief(ev, failureWords.get(first.job() + "/" + first.key()));
            List<String> keys = rs.stream().map(KeyRecord::key).toList();
            List<String> jobKeys = rs.stream().map(KeyRecord::job).toList();
            String message = Words.keyMessage(first);
            switch (first.state()) {
                case NEEDS_CREDENTIAL -> {
                    String cred = first.credential();
                    Optional<CredentialInfo> info = cred == null ? Optional.empty()
                            : infos.computeIfAbsent(cred, credentials::info);
                    String url = info.map(CredentialInfo::loginUrl).orElse(null);
                    String title = cred == null ? Text.t("core.attention.title.login", rs.size())
                            : Text.t("core.attention.title.loginTo", rs.size(), cred);
                    String reason = info.isEmpty() ? Text.t("core.attention.reason.notSet")
                            : url == null ? Text.t("core.attention.reason.rejected")
                            : Text.t("core.attention.reason.rejectedAt", url);
                    items.add(new Item(id, Kind.CREDENTIAL, jobKeys.stream().distinct().count() == 1 ? first.job()
                            : null, keys, jobKeys, first.state(), title, reason, evidence,
                            first.updatedAt(), cred, url));
                }
                case NEEDS_CONFIRMATION -> {
                    if (io.keyline.core.DecisionInputs.waitsForReview(first)) {
                        String title = Text.t("core.attention.title.review", first.job(), rs.size());
                        // the console's own words: what the card's Plan… does, not the command line's commands
                        String reason = Text.t("core.attention.reason.review", first.job(),
                                first.step() == null ? "" : first.step());
                        // a wait for the review is no failure: the last failure's evidence (the login a renewal
                        // replaced, say) is history, not why the key waits
                        items.add(new Item(id, Kind.REVIEW, first.job(), keys, jobKeys, first.state(),
                                title, reason, "", first.updatedAt(), null, null));
                    } else {
                        Instant expires = Waiting.expiresAt(byName.get(first.job()), first);
                        var rule = Waiting.expiry(byName.get(first.job()), first);
                        String reason = expires == null ? message : Text.t(
                                rule.then() == io.keyline.domain.ConfirmExpiry.Then.SKIP
                                        ? "core.attention.reason.expiresSkip" : "core.attention.reason.expiresFail",
                                message, Timeline.relative(expires, now));
                        items.add(new Item(id, Kind.CONFIRMATION, first.job(), keys, jobKeys, first.state(),
                                title(first), reason, evidence, first.updatedAt(), null, null));
                    }
                }
                default -> {
                    String title = rs.size() == 1 ? title(first) : String.join(TITLE_SEPARATOR, first.step() == null
                            ? List.of(first.job(), Words.keys(rs.size()))
                            : List.of(first.job(), Words.keys(rs.size()), first.step()));
                    String reason = rs.size() == 1 ? message : first.failureClass() == null
                            ? Text.t("core.attention.reason.sameWay", rs.size(), message)
                            : Text.t("core.attention.reason.sameWayClass", rs.size(),
                            Words.failureLower(first.failureClass()), message);
                    items.add(new Item(id, Kind.FAILED, first.job(), keys, jobKeys, first.state(),
                            title, reason, evidence, first.updatedAt(), null, null));
                }
            }
        });
        // keys a killed run left RUNNING: no decision needed, one click runs them now
        for (KeyRecord r : Orphans.of(store, leases, null, now)) {
            if (items.size() < LIMIT) {
                items.add(new Item(groupId("key", r.job(), r.key()), Kind.INTERRUPTED, r.job(), List.of(r.key()),
                        List.of(r.job()), r.state(), title(r),
                        Orphans.said(r, byName.get(r.job()), store.steps(r.job(), r.key())).text(), "", r.updatedAt(),
                        null, null));
            }
        }
        items.sort(Comparator.comparing(Item::since));
        for (JobDefinition j : jobs) {
            Calendar.View cal = calendars.get(j.name());
            if (cal == null || cal.missing().isEmpty()) {
                continue;
            }
            List<String> missing = cal.missing();
            String what = Calendar.count(cal.type(), missing.size());
            String range = missing.size() == 1 ? missing.get(0)
                    : Text.t("core.attention.range", missing.get(0), missing.get(missing.size() - 1));
            items.add(new Item(groupId("missing", j.name()), Kind.MISSING, j.name(), missing,
                    missing.stream().map(k -> j.name()).toList(), null,
                    Text.t("core.attention.title.missing", j.name(), what),
                    Text.t(missing.size() == 1 ? "core.attention.reason.missing.one"
                            : "core.attention.reason.missing.many", what, range),
                    "", null, null, null));
        }
        return items;
    }

    /** The cause a waiting key is grouped by. */
    private static String groupOf(KeyRecord r, Evidence ev) {
        return switch (r.state()) {
            case NEEDS_CREDENTIAL -> groupId("credential", Objects.requireNonNullElse(r.credential(), "?"));
            case FAILED -> groupId("failed", r.job(), r.step(), String.valueOf(r.failureClass()), failureOf(ev, r));
            case NEEDS_CONFIRMATION -> io.keyline.core.DecisionInputs.waitsForReview(r) ? groupId("review", r.job())
                    : groupId("key", r.job(), r.key());
            default -> groupId("key", r.job(), r.key());
        };
    }

    /**
     * An item's identity (machine text, never shown): the kind of cause, then what it groups by
     * ({@code key:daily/2026-11-08}, {@code credential:site-cookie}).
     */
    private static String groupId(String cause, String... parts) {
        return cause + ":" + String.join("/", parts);
    }

    /** What a failure looked like, without what differs per key: the status or exit code, else the class. */
    private static String failureOf(Evidence ev, KeyRecord r) {
        if (ev != null && ev.status() != null) {
            return groupId("http", String.valueOf(ev.status()));
        }
        if (ev != null && ev.exitCode() != null) {
            return groupId("exit", String.valueOf(ev.exitCode()));
        }
        FailureClass c = r.failureClass();
        return c == null ? groupId("key", r.key()) : c.name();
    }

    private static String title(KeyRecord r) {
        return String.join(TITLE_SEPARATOR, r.step() == null ? List.of(r.job(), r.key())
                : List.of(r.job(), r.key(), r.step()));
    }

    /** Between the parts of a title: "daily-article  ·  2026-11-08  ·  publish". */
    private static final String TITLE_SEPARATOR = "  ·  ";
}
