package io.keyline.ui.plan;

import io.keyline.text.Text;
import io.keyline.core.OperatorException;
import io.keyline.core.Plan;
import io.keyline.core.Planner;
import io.keyline.core.RunReport;
import io.keyline.core.operations.KeySelection;
import io.keyline.core.operations.PlanApply;
import io.keyline.core.operations.PlanText;
import io.keyline.core.operations.Words;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Threads;
import io.keyline.ui.common.ViewModel;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.value.ChangeListener;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.List;
import java.util.Map;

/**
 * The dry-run plan of a job: the operator chooses the keys ({@link PlanChoice}: the core's
 * key selection, with the command line's messages), {@link #plan()} shows what a run would do for each
 * without executing anything, and {@link #apply()} executes exactly that plan through {@link PlanApply},
 * or refuses when anything changed since. Changing the choice clears the plan on screen; after Apply the
 * rows show each key's state.
 */
public final class PlanViewModel extends ViewModel {

    /**
     * One key of the plan on screen.
     *
     * @param plan  what the plan says for it
     * @param after the key after Apply, or {@code null} before
     */
    public record Row(Plan.KeyPlan plan, KeyRecord after, io.keyline.core.operations.Outcomes.KeyOutcome outcome) {
        public Row(Plan.KeyPlan plan, KeyRecord after) {
            this(plan, after, null);
        }

        public String key() {
            return plan.key();
        }

        /** The key's state: after Apply the one it ended in, before it the one it is in. */
        public io.keyline.domain.KeyState state() {
            return after != null ? after.state() : plan.state();
        }

        /** Why the key waits in {@link #state()}, or {@code null}. */
        public io.keyline.domain.WaitReason waitReason() {
            return after != null ? after.waitReason() : plan.stateReason();
        }
    }

    private final ConsoleServices services;
    private final PlanChoice choice;
    private final ObservableList<String> jobs = FXCollections.observableArrayList();
    private final ObservableList<String> jobsView = FXCollections.unmodifiableObservableList(jobs);
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ObservableList<Row> rowsView = FXCollections.unmodifiableObservableList(rows);
    private final ReadOnlyObjectWrapper<Plan> plan = new ReadOnlyObjectWrapper<>(this, "plan");
    private final ReadOnlyStringWrapper summaryText = new ReadOnlyStringWrapper(this, "summaryText", "");
    private final ReadOnlyStringWrapper paused = new ReadOnlyStringWrapper(this, "paused", "");
    private final ReadOnlyStringWrapper outcome = new ReadOnlyStringWrapper(this, "outcome", "");
    private final ReadOnlyStringWrapper notYetDue = new ReadOnlyStringWrapper(this, "notYetDue", "");
    /** After a Due plan: the job's missing keys it does not include (older than the catch-up window). */
    private final ObservableList<String> missing = FXCollections.observableArrayList();
    private final ObservableList<String> missingView = FXCollections.unmodifiableObservableList(missing);
    private final ReadOnlyBooleanWrapper stale = new ReadOnlyBooleanWrapper(this, "stale");
    private final ReadOnlyBooleanWrapper applied = new ReadOnlyBooleanWrapper(this, "applied");
    private final ReadOnlyBooleanWrapper canApply = new ReadOnlyBooleanWrapper(this, "canApply");
    private final ObjectProperty<Row> selected = new SimpleObjectProperty<>(this, "selected");
    private final ReadOnlyStringWrapper detail = new ReadOnlyStringWrapper(this, "detail", "");
    private final ReadOnlyStringWrapper planId = new ReadOnlyStringWrapper(this, "planId", "");
    private final javafx.beans.property.ReadOnlyIntegerWrapper exitCode =
            new javafx.beans.property.ReadOnlyIntegerWrapper(this, "exitCode", -1);

    public PlanViewModel(ConsoleServices services, Threads threads) {
        super(threads);
        this.services = services;
        this.choice = new PlanChoice(services, threads, this::clearPlan, error::set);
        selected.addListener((o, a, b) -> detail.set(b == null ? "" : detailOf(b)));
        ChangeListener<Object> update = (o, a, b) -> canApply.set(plan.get() != null && !busy.get() && !applied.get()
                && !stale.get() && plan.get().keys().stream().anyMatch(Plan.KeyPlan::runs));
        busy.addListener(update);
        applied.addListener(update);
        stale.addListener(update);
        plan.addListener(update);
        plan.addListener((o, a, b) -> planId.set(b == null ? "" : b.planId()));
    }

    /** The key choice (job, target and its input, run ahead of schedule). */
    public PlanChoice choice() {
        return choice;
    }

    /** Loads the job names (for the job picker) in the background. */
    public void loadJobs() {
        load(false, () -> services.catalog().get().jobs().stream().map(JobDefinition::name).toList(),
                jobs::setAll, e -> error.set(Text.t("ui.plan.jobsFailed", message(e))));
    }

    /** Plans exactly these keys (the heatmap's gaps, the inbox's missing keys): target Keys, then Plan. */
    public void planKeys(List<String> keys) {
        choice.keys(keys);
        plan();
    }

    /** Plans the chosen keys in the background and saves the plan (so the CLI can apply it too). */
    public void plan() {
        plan(false);
    }

    /**
     * The dialog's first plan: of the current key, or of every due key when the job waits for its review. Applying
     * the plan is the review, and the review lets every due key go; the operator sees each request it lets go.
     */
    public void planOnOpen() {
        plan(true);
    }

    private void plan(boolean opening) {
        String name = choice.jobProperty().get();
        if (busy.get()) {
            return;
        }
        if (name == null || name.isBlank()) {
            choice.invalid(Text.t("ui.plan.chooseJob"));
            return;
        }
        clearPlan();
        error.set("");
        act(() -> {
            JobDefinition d = services.job(name);
            try {
                KeySelection.Choice c = choice.choice(d);
                KeySelection.Resolved r = services.operations().select(d, c, services.scheduler().window());
                if (opening && !c.due() && services.operations().review(d).pending()) {
                    // the review lets the due keys go: show them, when there are any
                    KeySelection.Resolved due = services.operations().select(d, KeySelection.Choice.dueKeys(),
                            services.scheduler().window());
                    if (!due.keys().isEmpty()) {
                        c = KeySelection.Choice.dueKeys();
                        r = due;
                    }
                }
                KeySelection.Resolved resolved = r;
                Plan p = services.operations().planApply().planAndSave(d, resolved.keys(), resolved.notes(),
                        Planner.Options.DEFAULT.withAhead(c.ahead()));
                List<String> gaps = !c.due() ? List.of() : services.operations().calendar(d).missing().stream()
                        .filter(k -> !resolved.keys().contains(k)).toList();
                return new Planned(p, null, gaps, c.due());
            } catch (IllegalArgumentException | OperatorException e) {
                return new Planned(null, Format.problem(e), List.of());
            }
        }, r -> {
            choice.invalid(r.invalid());
            if (r.due()) {
                choice.targetProperty().set(PlanChoice.Target.DUE);
            }
            if (r.plan() != null) {
                show(r.plan());
                missing.setAll(r.missing());
            }
        }, e -> error.set(Text.t("ui.plan.planFailed", Format.problem(e))));
    }

    /**
     * A key's plan as the console says it: a key later than the current one is "not yet due" with the
     * console's way to include it (the plan's own words name the command line's option).
     */
    static Plan.KeyPlan said(Plan.KeyPlan k) {
        return k.notYetDue() ? k.withAction(Text.t("ui.plan.notYetDueKey", k.key())) : k;
    }

    /** The action column's text of a row. */
    public static String actionText(Row r) {
        return Format.action(said(r.plan()).action()) + (r.after() == null ? "" : afterText(r.after().state()));
    }

    /** What a planned action says after Apply of the state its key came to ("  →  done"). */
    static String afterText(io.keyline.domain.KeyState s) {
        return "  →  " + Words.stateLower(s);
    }

    /**
     * The detail pane of a row: what the plan showed (state, action, steps, exact requests); after Apply, first
     * what the key came to (when it finished, how long it took, its steps' answers, or why it stopped).
     */
    static String detailOf(Row r) {
        String planned = Format.action(PlanText.detail(said(r.plan())));
        KeyRecord now = r.after();
        if (now == null) {
            return planned;
        }
        String came;
        if (now.state() == io.keyline.domain.KeyState.DONE && r.outcome() != null) {
            String took = r.outcome().tookText();
            String answers = r.outcome().text();
            String at = Format.time(r.outcome().finishedAt());
            came = (took.isEmpty() ? Text.t("ui.plan.afterDone", at) : Text.t("ui.plan.afterDoneTook", at, took))
                    + (answers.isEmpty() ? "" : "\n" + answers);
        } else {
            String message = Format.keyMessage(now);
            came = message.isEmpty() ? Text.t("ui.plan.afterState", Words.stateLower(now.state()))
                    : Text.t("ui.plan.afterStateWhy", Words.stateLower(now.state()), message);
        }
        return came + "\n\n" + Text.t("ui.plan.before") + "\n" + planned;
    }

    /** After a stale refusal: plans the same choice again, for review. */
    public void replan() {
        plan();
    }

    /** @param due whether the plan is of the due keys (the dialog shows that choice) */
    private record Planned(Plan plan, String invalid, List<String> missing, boolean due) {
        Planned(Plan plan, String invalid, List<String> missing) {
            this(plan, invalid, missing, false);
        }
    }

    private void show(Plan p) {
        plan.set(p);
        rows.setAll(p.keys().stream().map(k -> new Row(k, null)).toList());
        selected.set(rows.stream().filter(r -> !r.plan().requests().isEmpty()).findFirst()
                .orElse(rows.isEmpty() ? null : rows.get(0)));
        paused.set(p.paused() == null ? "" : Text.t("ui.plan.paused", p.paused()));
        summaryText.set(Format.action(PlanText.summary(p.keys().stream().map(PlanViewModel::said).toList())));
        long later = p.keys().stream().filter(Plan.KeyPlan::notYetDue).count();
        notYetDue.set(later == 0 ? "" : Text.t("ui.plan.notYetDue", later));
    }

    private void clearPlan() {
        plan.set(null);
        rows.clear();
        selected.set(null);
        paused.set("");
        summaryText.set("");
        notYetDue.set("");
        missing.clear();
        stale.set(false);
        applied.set(false);
        outcome.set("");
        exitCode.set(-1);
    }

    /**
     * Executes exactly the plan on screen, or refuses (nothing is sent) when it went stale; the rows
     * then show each key's state after the run.
     */
    public void apply() {
        Plan shown = plan.get();
        if (shown == null || busy.get() || applied.get() || stale.get()) {
            return;
        }
        outcome.set(Text.t("ui.plan.applying"));
        error.set("");
        // what made the plan stale, when apply refuses it
        java.util.concurrent.atomic.AtomicReference<io.keyline.text.Said> changed =
                new java.util.concurrent.atomic.AtomicReference<>();
        act(() -> {
            try {
                return services.operations().planApply().applyAndRead(shown.planId(), services::job,
                        services.engine());
            } catch (PlanApply.StalePlanException e) {
                changed.set(e.changes());
                return new PlanApply.Applied(null, Map.of());
            }
        }, a -> {
            if (a.report() == null) {
                stale.set(true);
                outcome.set(changed.get() == null ? Text.t("ui.plan.stale")
                        : Text.t("ui.plan.staleWhat", changed.get().text()));
                return;
            }
            applied.set(true);
            RunReport r = a.report();
            exitCode.set(r.exitCode());
            String shownKey = selected.get() == null ? null : selected.get().key();
            rows.setAll(rows.stream().map(x -> new Row(x.plan(), a.after().get(x.key()), a.outcomes().get(x.key())))
                    .toList());
            // the selected key's pane says what it came to now (it said what the plan expected before)
            selected.set(rows.stream().filter(x -> x.key().equals(shownKey)).findFirst().orElse(null));
            String counts = Words.counts(Words.countsOf(r.keys()));
            // "every key of the plan", not "every key": keys outside it may still wait (or were just released)
            String words = r.exitCode() == RunReport.OK ? Text.t("ui.plan.allDone") : Words.outcome(r.exitCode());
            outcome.set((r.stopped() == null ? Text.t("ui.plan.applied", counts, words)
                    : Text.t("ui.plan.appliedStopped", counts, r.stopped(), words))
                    + released(a.released()));
        }, e -> {
            outcome.set("");
            error.set(Text.t("ui.plan.applyFailed", Format.problem(e)));
        });
    }

    /**
     * " Applying the plan reviewed p: 2 other keys that waited for the review go back to pending (…)": the job's keys
     * outside the plan that the review let go on, or "" when there are none.
     */
    private static String released(List<KeyRecord> keys) {
        if (keys.isEmpty()) {
            return "";
        }
        String list = String.join(Text.t("common.listSeparator"), keys.stream().map(KeyRecord::key)
                .limit(20).toList()) + (keys.size() > 20 ? Text.t("common.listSeparator") + "…" : "");
        return Text.t("ui.plan.released", keys.get(0).job(), keys.size(), list);
    }

    /** The id of the plan on screen ({@code keyline apply ID} applies it too), or empty. */
    public ReadOnlyStringProperty planIdProperty() {
        return planId.getReadOnlyProperty();
    }

    /** Exit code of the last Apply, or -1: 0 everything done, above 0 something waits or failed. */
    public javafx.beans.property.ReadOnlyIntegerProperty exitCodeProperty() {
        return exitCode.getReadOnlyProperty();
    }

    public ObservableList<String> jobs() {
        return jobsView;
    }

    /** One row per targeted key; empty whenever the choice changed since the plan was made. */
    public ObservableList<Row> rows() {
        return rowsView;
    }

    public ObjectProperty<Row> selectedProperty() {
        return selected;
    }

    /** The selected key's action, steps and exact requests (the confirm dialog's headers, secrets masked). */
    public ReadOnlyStringProperty detailProperty() {
        return detail.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Plan> planProperty() {
        return plan.getReadOnlyProperty();
    }

    /** "8 keys · 6 × run write → publish · 2 × skip (done)". */
    public ReadOnlyStringProperty summaryTextProperty() {
        return summaryText.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty pausedProperty() {
        return paused.getReadOnlyProperty();
    }

    /** "2 keys are not yet due …" when the plan has such keys, else empty. */
    public ReadOnlyStringProperty notYetDueProperty() {
        return notYetDue.getReadOnlyProperty();
    }

    /** After a Due plan: the missing keys it leaves out because they are older than the catch-up window. */
    public ObservableList<String> missingNotDue() {
        return missingView; // one wrapper: listeners on a fresh one each call would be dropped with it
    }

    /** What the last Apply did in plain words, or why it refused. */
    public ReadOnlyStringProperty outcomeProperty() {
        return outcome.getReadOnlyProperty();
    }

    /** True after Apply refused the plan because something changed: show Re-plan. */
    public ReadOnlyBooleanProperty staleProperty() {
        return stale.getReadOnlyProperty();
    }

    /** True once the plan on screen was executed (it cannot be applied twice). */
    public ReadOnlyBooleanProperty appliedProperty() {
        return applied.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty canApplyProperty() {
        return canApply.getReadOnlyProperty();
    }
}
