package io.keyline.ui.job;

import io.keyline.core.KeyRecords;
import io.keyline.core.operations.Calendar;
import io.keyline.core.operations.KeyTable;
import io.keyline.core.operations.Outcomes;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.OperatorMoves;
import io.keyline.text.Text;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Threads;
import io.keyline.ui.common.ViewModel;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * One job: its calendar (core {@link Calendar}: states, missing keys, keys run ahead of schedule), a
 * key table filtered and paged in SQL where done keys carry their outcome (core {@link Outcomes}), its
 * kill switch, and the key actions of the table's menu. Loads run in the background; a newer request
 * makes an older answer stale (it is dropped).
 */
public final class JobViewModel extends ViewModel {

    /** Rows per page of the key table. */
    public static final int PAGE_SIZE = 200;

    /**
     * A state filter of the key table.
     *
     * @param key     the bundle key of what the operator sees
     * @param states  the states it shows (empty: all)
     * @param reviews whether it shows the keys that wait for their job's review with the others, alone or not
     */
    public record Filter(String key, Set<KeyState> states, KeyRecords.KeyQuery.ReviewWaits reviews) {
        /** A filter of {@code states}, the keys that wait for their job's review among them. */
        public Filter(String key, Set<KeyState> states) {
            this(key, states, KeyRecords.KeyQuery.ReviewWaits.WITH);
        }

        /** What the operator sees, in the language in use: a state as its chips say it. */
        public String label() {
            return Text.t(key);
        }

        /** The filter in full words: a state as sentences say it ("Needs confirmation" for "Confirm"). */
        public String inFull() {
            return key.startsWith(CHIP) ? Text.t("common.state." + key.substring(CHIP.length())) : label();
        }

        @Override
        public String toString() {
            return label();
        }
    }

    /**
     * One row of the key table, with the words its cells show as of the load that read it (a row that says the same
     * is equal, and a reload leaves it in place).
     *
     * @param record  the key
     * @param outcome what a done key came to (finish time, duration, outputs), or {@code null}
     * @param when    short enough for a narrow column: when it was done ("12-04 20:12"), how long a person has been
     *                awaited, on two lines ("waiting" and "3 h 10 min"), or when it last changed ("3 min ago")
     * @param whenInFull {@code when} in full, on one line: a done key's time with how long ago it was ("12-04 20:12
     *                (25 min ago)"), a wait's "waiting 3 h 10 min"
     * @param said    what it came to, with how long its run took, or why it waits, with its next attempt
     */
    public record KeyRow(KeyRecord record, Outcomes.KeyOutcome outcome, String when, String whenInFull, String said) {
        public String key() {
            return record.key();
        }

        public KeyState state() {
            return record.state();
        }

        /** What an operator may do to the key now. */
        public OperatorMoves moves() {
            return OperatorMoves.of(record);
        }
    }

    /** The bundle keys of the chips' words, {@code ui.chip.STATE}. */
    private static final String CHIP = "ui.chip.";
    public static final Filter ALL = new Filter("ui.job.filter.all", Set.of());
    public static final Filter ATTENTION = new Filter("ui.job.filter.attention", KeyState.ATTENTION);
    public static final Filter FAILED = new Filter(CHIP + "FAILED", EnumSet.of(KeyState.FAILED));

    /**
     * Every filter, for the combo box. The keys that wait for their job's review have their own, after the keys that
     * wait for a confirmation, as their chip sets them apart.
     */
    public static List<Filter> filters() {
        List<Filter> out = new ArrayList<>(List.of(ALL, ATTENTION, FAILED));
        for (KeyState s : KeyState.values()) {
            if (s == KeyState.NEEDS_CONFIRMATION) {
                out.add(new Filter(CHIP + "NEEDS_CONFIRMATION", EnumSet.of(s),
                        KeyRecords.KeyQuery.ReviewWaits.WITHOUT));
                out.add(new Filter(CHIP + "NEEDS_REVIEW", EnumSet.of(s), KeyRecords.KeyQuery.ReviewWaits.ONLY));
            } else if (s != KeyState.FAILED) {
                out.add(new Filter(CHIP + s.name(), EnumSet.of(s)));
            }
        }
        return out;
    }

    private final ConsoleServices services;
    private final ReadOnlyObjectWrapper<JobDefinition> definition = new ReadOnlyObjectWrapper<>();
    private final ObjectProperty<Filter> filter = new SimpleObjectProperty<>(ALL);
    private final StringProperty search = new SimpleStringProperty("");
    private final javafx.beans.binding.StringBinding emptyText = javafx.beans.binding.Bindings.createStringBinding(
            () -> filter.get() == ALL && search.get().isBlank() ? Text.t("ui.job.noKeysYet")
                    : Text.t("ui.job.noKeysMatch"), filter, search);
    private final IntegerProperty page = new SimpleIntegerProperty(0);
    private final ReadOnlyIntegerWrapper total = new ReadOnlyIntegerWrapper();
    private final ObservableList<KeyRow> rows = FXCollections.observableArrayList();
    private final ObservableList<KeyRow> rowsReadOnly = FXCollections.unmodifiableObservableList(rows);
    private final ReadOnlyObjectWrapper<Calendar.View> calendar = new ReadOnlyObjectWrapper<>(Calendar.View.NONE);
    private final ReadOnlyBooleanWrapper paused = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper pauseText = new ReadOnlyStringWrapper("");
    private io.keyline.ui.common.RetryShow retryShow = io.keyline.ui.common.RetryShow.NONE;
    private final ReadOnlyStringWrapper reviewText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper fileWarnings = new ReadOnlyStringWrapper("");
    /**
     * The keys highlighted in the key table, the one the keyboard acts on last, and the job they are of: kept by key,
     * as a reload replaces the rows whose words changed (a waiting key's age, every minute) and a table keeps its
     * highlight by row: it drops a highlighted row that is replaced, and keeps the row, not the key, when keys arrive
     * above it.
     */
    private List<String> highlighted = List.of();
    private String highlightedJob;
    /** While a load's rows replace the table's: what the table highlights meanwhile is not the operator's doing. */
    private boolean applying;

    public JobViewModel(ConsoleServices services, Threads threads) {
        super(threads);
        this.services = services;
        filter.addListener((o, a, b) -> {
            page.set(0);
            reloadRows();
        });
        search.addListener((o, a, b) -> {
            page.set(0);
            reloadRows();
        });
        page.addListener((o, a, b) -> reloadRows());
    }

    /** Shows a job: definition, calendar, first page, pause state (the job file is read in the background). */
    public void load(String job) {
        if (!job.equals(highlightedJob)) {
            highlighted = List.of(); // another job's keys are not this one's, though they may be named alike
            highlightedJob = job;
        }
        load(false, () -> Read.of(services.catalog().get(), job), read -> {
            java.util.Optional<JobDefinition> def = java.util.Optional.ofNullable(read.job());
            definition.set(def.orElse(null));
            fileWarnings.set(read.warnings());
            if (def.isEmpty()) {
                notice.set(Text.t("ui.job.gone", job, services.jobsDir().toString()));
                rows.clear();
                calendar.set(Calendar.View.NONE);
                return;
            }
            reload();
        }, this::failed);
    }

    /** Reloads everything of the current job (live updates call this). */
    public void reload() {
        load(true);
    }

    private void reloadRows() {
        load(false);
    }

    private void load(boolean all) {
        JobDefinition def = definition.get();
        if (def == null) {
            return;
        }
        KeyRecords.KeyQuery q = new KeyRecords.KeyQuery(def.name(), filter.get().states(), search.get(), 0, PAGE_SIZE)
                .withReviews(filter.get().reviews()).page(page.get() * PAGE_SIZE, PAGE_SIZE, true);
        load(!all, () -> {
            // a whole reload (the console's periodic one) reads the job file again: an edit on disk shows at once
            Read read = all ? Read.of(services.catalog().get(), def.name()) : null;
            JobDefinition now = read == null || read.job() == null ? def : read.job();
            return new Loaded(now, read == null ? null : read.warnings(), services.operations().keyTable(now, q, all));
        }, l -> {
            JobDefinition shown = definition.get();
            if (shown != null && shown.name().equals(l.job().name())
                    && !java.util.Objects.equals(shown.fileSha256(), l.job().fileSha256())) {
                definition.set(l.job());
            }
            if (l.warnings() != null && shown != null && shown.name().equals(l.job().name())) {
                fileWarnings.set(l.warnings());
            }
            apply(l.table());
        }, this::failed);
    }

    /** A job's definition as its file reads now ({@code null} when gone or invalid), and what the loader warns of it. */
    private record Read(JobDefinition job, String warnings) {
        static Read of(io.keyline.core.jobfile.JobCatalog catalog, String name) {
            JobDefinition job = catalog.job(name).orElse(null);
            List<String> said = job == null ? List.of()
                    : catalog.warningsOf(job).stream().map(io.keyline.core.jobfile.JobFileError::toString).toList();
            return new Read(job, said.isEmpty() ? "" : Text.t("ui.job.fileWarnings", String.join("\n", said)));
        }
    }

    /** A page of keys, and the job and its warnings when the job file was read again ({@code warnings} null if not). */
    private record Loaded(JobDefinition job, String warnings, KeyTable table) {
    }

    private void apply(KeyTable l) {
        Instant now = services.clock().instant();
        List<KeyRow> read = l.keys().stream().map(r -> row(r, l.outcomes().get(r.key()), now)).toList();
        applying = true;
        try {
            replaceChanged(rows, read);
        } finally {
            applying = false;
        }
        // a highlighted key this load no longer lists (done under a filter, another page) is let go
        Set<String> listed = new java.util.HashSet<>(read.stream().map(KeyRow::key).toList());
        highlighted = highlighted.stream().filter(listed::contains).toList();
        total.set(l.total());
        if (l.calendar() != null) {
            calendar.set(l.calendar());
        }
        if (l.control() != null) {
            paused.set(l.control().pausedAt(now));
            pauseText.set(!l.control().pausedAt(now) ? ""
                    : l.control().until() == null ? Text.t("ui.job.pausedBy", l.control().user(), l.control().reason())
                    : Text.t("ui.job.pausedByUntil", l.control().user(), l.control().reason(),
                    io.keyline.ui.common.Format.time(l.control().until())));
            JobDefinition def = definition.get();
            io.keyline.core.Review.Need need = def == null ? io.keyline.core.Review.Need.NONE
                    : io.keyline.core.Review.need(def, l.control());
            String words = need.said().text();
            reviewText.set(need.pending() ? Text.t("ui.job.review", Character.toUpperCase(words.charAt(0))
                    + words.substring(1)) : "");
        }
    }

    /** The row of {@code k}, its words as of {@code now}. */
    static KeyRow row(KeyRecord k, Outcomes.KeyOutcome outcome, Instant now) {
        return new KeyRow(k, outcome, when(k, now), whenInFull(k, now), said(k, outcome, now));
    }

    /**
     * The Updated cell's words, in a column that leaves Outcome its room: a done key's time alone, how long a person
     * has been awaited on two lines (a key that waits for a person has its reason on two already).
     */
    private static String when(KeyRecord k, Instant now) {
        if (k.state() == KeyState.DONE) {
            return io.keyline.ui.common.Format.shortTime(k.updatedAt());
        }
        java.time.Duration waited = io.keyline.core.Waiting.age(k, now); // how long a person has been awaited
        return waited == null ? io.keyline.ui.common.Format.relative(k.updatedAt(), now)
                : Text.t("ui.job.waitingLines", io.keyline.core.Waiting.text(waited));
    }

    /** The Updated cell's words in full, on one line (its tooltip). */
    private static String whenInFull(KeyRecord k, Instant now) {
        if (k.state() == KeyState.DONE) {
            return Text.t("ui.job.doneAt", io.keyline.ui.common.Format.shortTime(k.updatedAt()),
                    io.keyline.ui.common.Format.relative(k.updatedAt(), now));
        }
        String waiting = io.keyline.core.Waiting.text(k, now);
        return waiting.isEmpty() ? io.keyline.ui.common.Format.relative(k.updatedAt(), now) : waiting;
    }

    private static String said(KeyRecord k, Outcomes.KeyOutcome outcome, Instant now) {
        String out = outcome == null ? "" : outcome.text();
        String took = outcome == null ? "" : outcome.tookText();
        if (!took.isEmpty()) {
            return out.isEmpty() ? Text.t("ui.job.took", took) : Text.t("ui.job.tookThen", took, out);
        }
        if (!out.isEmpty()) {
            return out;
        }
        String msg = io.keyline.ui.common.Format.keyMessage(k);
        if (k.nextAttemptAt() != null) {
            String next = Text.t("ui.job.nextAttempt", io.keyline.ui.common.Format.shortTime(k.nextAttemptAt()),
                    io.keyline.ui.common.Format.relative(k.nextAttemptAt(), now));
            msg = msg.isEmpty() ? next : next + " — " + msg;
        }
        return msg;
    }

    private void failed(Throwable e) {
        notice.set(Text.t("ui.job.loadFailed", e.getMessage()));
    }

    /** Turns the kill switch on. */
    public void pause(String reason, Instant until) {
        act(() -> {
            services.operations().actions().pause(name(), reason, until);
            return Text.t("ui.job.paused", name());
        });
    }

    public void resume() {
        act(() -> {
            services.operations().actions().resume(name());
            return Text.t("ui.job.resumed", name());
        });
    }

    /**
     * What the operator is asked before several keys send an unsafe step at once, as the command line asks on a
     * terminal.
     *
     * @param keys   how many keys would send
     * @param which  "3 keys of daily (2026-11-26 .. 2026-11-28) would send publish"
     * @param steps  the unsafe steps they would send
     * @param planId the saved plan the question was asked on
     * @param review whether running them also reviews the job's unsafe steps, as applying the plan would
     */
    public record Consent(int keys, String which, String steps, String planId, boolean review) {
    }

    /**
     * Runs the given keys now (in the background); the table updates as they progress. When two or more of them
     * would send an unsafe step, they are planned first (in the background) and run only when {@code ask} says yes
     * (on the FX thread); yes also reviews the job's unsafe steps, as applying the plan would. One key, or keys that
     * send no unsafe step, run at once.
     */
    public void run(List<String> keys, java.util.function.Predicate<Consent> ask, Runnable done) {
        JobDefinition def = definition.get();
        if (busy.get()) {
            busyElsewhere();
            done.run();
            return;
        }
        if (keys.size() < 2 || io.keyline.core.Review.hash(def) == null) {
            runNow(def, keys, null, done);
            return;
        }
        act(() -> consent(def, keys), c -> {
            if (c == null || ask.test(c)) {
                runNow(def, keys, c, done);
            } else {
                notice.set(Text.t("ui.consent.declined"));
                done.run();
            }
        }, e -> {
            notice.set(Text.t("ui.job.runFailed", e.getMessage()));
            done.run();
        });
    }

    /**
     * The question to ask before {@code keys} run, or {@code null} when fewer than two of them would send. It is
     * planned without asking the probes, as the command line's question without a terminal is: the dialog shows no
     * probe's answer, so nothing goes to the site before the operator says yes (a key a probe would find done is
     * counted as sending: the question asks for one key too many, never one too few). A key not yet due is planned
     * as the run takes it, not run.
     */
    private Consent consent(JobDefinition def, List<String> keys) {
        // in key order: the table lists the newest first, and the question names the first and the last key
        io.keyline.core.Plan plan = services.operations().planApply().planAndSave(def, keys.stream().sorted().toList(),
                java.util.Map.of(), io.keyline.core.Planner.Options.DEFAULT.withProbes(false));
        List<io.keyline.core.Plan.KeyPlan> sending = plan.sendingUnsafe(def);
        if (sending.size() < 2) {
            return null;
        }
        String steps = String.join(", ", plan.unsafeSent(def));
        return new Consent(sending.size(), Text.t("ui.consent.which", sending.size(), def.name(),
                sending.get(0).key(), sending.get(sending.size() - 1).key(), steps), steps, plan.planId(),
                plan.review().pending());
    }

    private void runNow(JobDefinition def, List<String> keys, Consent consent, Runnable done) {
        notice.set(Text.t("ui.job.running", keys.size()));
        boolean started = act(() -> {
            if (consent != null && consent.review()) {
                services.operations().actions().approve(def, Text.t("ui.consent.note", consent.keys(),
                        consent.planId()));
            }
            return services.operations().keyActions().runNow(def, keys, services.engine());
        }, text -> {
            notice.set(text);
            reload();
            done.run();
        }, e -> {
            notice.set(Text.t("ui.job.runFailed", e.getMessage()));
            done.run();
        });
        if (!started) {
            busyElsewhere();
            done.run();
        }
    }

    /** Shows what a retry sends through an unsafe step before it sends (the main window's Retry dialog). */
    public void setRetryShow(io.keyline.ui.common.RetryShow show) {
        this.retryShow = show == null ? io.keyline.ui.common.RetryShow.NONE : show;
    }

    /**
     * Re-arms a failed key, as the operator saw it ({@code shown}), and runs it now; when its next step is unsafe,
     * what it sends is shown first ({@link #setRetryShow}) and sent only when the operator says so. A key that is in
     * another state than {@code shown} now is left as it is, and the notice says why.
     */
    public void retry(KeyRecord shown) {
        String key = shown.key();
        if (busy.get()) {
            busyElsewhere();
            return;
        }
        io.keyline.ui.common.RetryFlow.start(services, threads, retryShow, name(), List.of(key),
                Text.t("ui.retry.note"), () -> asShown(shown), work -> act(() -> Text.t("ui.inbox.retriedOne",
                        io.keyline.ui.common.Format.outcome(work.call().get(0)))),
                e -> notice.set(Text.t("ui.inbox.couldNotRetry", key, io.keyline.ui.common.Format.problem(e))));
    }

    /** Re-arms a done key ({@code shown}): its steps (all, or from {@code fromStep}) run again at the next run. */
    public void rearm(KeyRecord shown, String note, String fromStep) {
        String key = shown.key();
        act(() -> {
            asShown(shown);
            return services.operations().keyActions().rearm(definition.get(), key, note, fromStep).job() + " " + key
                    + " " + io.keyline.core.operations.KeyActions.rearmed(fromStep);
        });
    }

    /** Skips a key the operator saw as {@code shown} (refused when it is in another state now). */
    public void skip(KeyRecord shown, String note) {
        moveShown(shown, "ui.inbox.skip.doneOne", (job, key) -> services.operations().actions().skip(job, key, note));
    }

    /** Marks done a key the operator saw as {@code shown} (refused when it is in another state now). */
    public void markDone(KeyRecord shown, String note) {
        moveShown(shown, "ui.inbox.markDone.doneOne",
                (job, key) -> services.operations().actions().markDone(job, key, note));
    }

    /** Does {@code move} to the key as it was {@code shown}; {@code doneOne} names the bundle's words for it. */
    private void moveShown(KeyRecord shown, String doneOne,
                           java.util.function.BiConsumer<JobDefinition, String> move) {
        String key = shown.key();
        act(() -> {
            asShown(shown);
            move.accept(definition.get(), key);
            return Text.t(doneOne, name(), key);
        });
    }

    /** Refuses (in the background) a move on a key that is no longer in the state it was shown in. */
    private void asShown(KeyRecord shown) {
        services.operations().keyActions().requireAsShown(name(), shown.key(), shown.state(), shown.waitReason());
    }

    private void act(Callable<String> work) {
        if (!tell(work, e -> Text.t("ui.job.actionFailed", e.getMessage()), this::reload)) {
            busyElsewhere();
        }
    }

    private void busyElsewhere() {
        notice.set(Text.t("ui.job.busy"));
    }

    private String name() {
        return definition.get().name();
    }

    public ReadOnlyObjectProperty<JobDefinition> definitionProperty() {
        return definition.getReadOnlyProperty();
    }

    public ObjectProperty<Filter> filterProperty() {
        return filter;
    }

    public StringProperty searchProperty() {
        return search;
    }

    /** What the key table says when it lists no key: none match the filter or search, or the job has none yet. */
    public javafx.beans.binding.StringExpression emptyTextProperty() {
        return emptyText;
    }

    public IntegerProperty pageProperty() {
        return page;
    }

    public ReadOnlyIntegerProperty totalProperty() {
        return total.getReadOnlyProperty();
    }

    public ObservableList<KeyRow> rows() {
        return rowsReadOnly;
    }

    /**
     * The operator highlighted {@code keys} in the key table, the one the keyboard acts on last. Ignored while a
     * load replaces the rows (the table drops or moves its highlight then, and {@link #highlighted} gives it back) and
     * while another job is being shown.
     */
    public void highlight(List<String> keys) {
        JobDefinition def = definition.get();
        // while another job loads, the table still shows the keys of the one before
        if (applying || def == null || !def.name().equals(highlightedJob)) {
            return;
        }
        highlighted = List.copyOf(keys);
    }

    /**
     * The keys the operator highlighted, the one the keyboard acts on last: kept by key across reloads (its row may
     * have moved or been replaced); a key a reload no longer lists, or of another job, is not among them.
     */
    public List<String> highlighted() {
        JobDefinition def = definition.get();
        return def != null && def.name().equals(highlightedJob) ? highlighted : List.of();
    }

    /** The calendar: states, missing keys, keys ahead of schedule. */
    public ReadOnlyObjectProperty<Calendar.View> calendarProperty() {
        return calendar.getReadOnlyProperty();
    }

    /**
     * What the loader warns of in the job's file (a rule any 403 meets, which would not wait for a new login), with
     * where it is; empty when nothing.
     */
    public ReadOnlyStringProperty fileWarningsProperty() {
        return fileWarnings.getReadOnlyProperty();
    }

    /** "New job: review its plan. …" while the job's unsafe steps wait for a review, else empty. */
    public ReadOnlyStringProperty reviewTextProperty() {
        return reviewText.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty pausedProperty() {
        return paused.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty pauseTextProperty() {
        return pauseText.getReadOnlyProperty();
    }
}
