package io.keyline.ui.plan;

import io.keyline.core.OperatorException;
import io.keyline.core.Plan;
import io.keyline.core.RunReport;
import io.keyline.core.Targets;
import io.keyline.domain.InvalidKeyException;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeyState;
import io.keyline.domain.KeyType;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Threads;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The dry-run plan of a job (SPEC §5): the operator chooses the keys, {@link #plan()} computes what a
 * run would do for each of them without executing anything, and {@link #apply()} executes exactly
 * that plan, or refuses when the job file or the state of its keys changed since (a stale plan).
 *
 * <p>All state work runs through {@link Threads#submit}; the properties change on the UI thread.
 */
public final class PlanViewModel {

    /** Which keys a plan targets. */
    public enum Target {
        /** The current key of a date, week or month job. */
        TODAY("Today"),
        /** From one key to another (inclusive; the current key when "to" is empty). */
        RANGE("Range"),
        /** Missed schedule ticks of the catch-up window, pending keys and retries. */
        DUE("Due"),
        /** Keys named one by one. */
        KEYS("Keys");

        private final String label;

        Target(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** How many keys share one planned action (timestamps folded, as the CLI summarizes). */
    public record ActionCount(String action, int keys) {
    }

    private final ConsoleServices services;
    private final Threads threads;

    private final StringProperty job = new SimpleStringProperty(this, "job");
    private final ObjectProperty<Target> target = new SimpleObjectProperty<>(this, "target", Target.TODAY);
    private final StringProperty from = new SimpleStringProperty(this, "from", "");
    private final StringProperty to = new SimpleStringProperty(this, "to", "");
    private final StringProperty keysText = new SimpleStringProperty(this, "keys", "");

    private final ObservableList<String> jobs = FXCollections.observableArrayList();

    private final ObservableList<String> jobsReadOnly = FXCollections.unmodifiableObservableList(jobs);
    private final ObservableList<Plan.KeyPlan> rows = FXCollections.observableArrayList();
    private final ObservableList<Plan.KeyPlan> rowsReadOnly = FXCollections.unmodifiableObservableList(rows);
    private final ObservableList<ActionCount> summary = FXCollections.observableArrayList();
    private final ObservableList<ActionCount> summaryReadOnly = FXCollections.unmodifiableObservableList(summary);
    private final ReadOnlyObjectWrapper<Plan> plan = new ReadOnlyObjectWrapper<>(this, "plan");
    private final ReadOnlyStringWrapper planId = new ReadOnlyStringWrapper(this, "planId", "");
    private final ReadOnlyStringWrapper summaryText = new ReadOnlyStringWrapper(this, "summaryText", "");
    private final ReadOnlyStringWrapper paused = new ReadOnlyStringWrapper(this, "paused", "");
    private final ReadOnlyStringWrapper validation = new ReadOnlyStringWrapper(this, "validation", "");
    private final ReadOnlyStringWrapper outcome = new ReadOnlyStringWrapper(this, "outcome", "");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");
    private final ReadOnlyBooleanWrapper stale = new ReadOnlyBooleanWrapper(this, "stale");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy");
    private final ReadOnlyBooleanWrapper applied = new ReadOnlyBooleanWrapper(this, "applied");
    private final ReadOnlyBooleanWrapper canApply = new ReadOnlyBooleanWrapper(this, "canApply");
    private final ReadOnlyBooleanWrapper manualKeys = new ReadOnlyBooleanWrapper(this, "manualKeys");
    private final ObjectProperty<Plan.KeyPlan> selected = new SimpleObjectProperty<>(this, "selected");
    private final ReadOnlyStringWrapper detail = new ReadOnlyStringWrapper(this, "detail", "");
    private final ReadOnlyIntegerWrapper exitCode = new ReadOnlyIntegerWrapper(this, "exitCode", -1);
    private final ReadOnlyObjectWrapper<Map<KeyState, Integer>> finalStates =
            new ReadOnlyObjectWrapper<>(this, "finalStates", Map.of());

    /** The definition the inputs are validated against (loaded in the background), or {@code null}. */
    private JobDefinition definition;
    /** The keys of the plan on screen, in target order. */
    private List<String> plannedKeys = List.of();

    public PlanViewModel(ConsoleServices services, Threads threads) {
        this.services = services;
        this.threads = threads;
        target.addListener((o, a, b) -> validateInputs());
        from.addListener((o, a, b) -> validateInputs());
        to.addListener((o, a, b) -> validateInputs());
        keysText.addListener((o, a, b) -> validateInputs());
        job.addListener((o, a, b) -> {
            if (b != null && !b.equals(a)) {
                definition = null;
                clearPlan();
                loadJob(b);
            }
        });
        selected.addListener((o, a, b) -> detail.set(detail(b)));
        busy.addListener((o, a, b) -> updateCanApply());
        applied.addListener((o, a, b) -> updateCanApply());
        stale.addListener((o, a, b) -> updateCanApply());
        plan.addListener((o, a, b) -> updateCanApply());
        validation.addListener((o, a, b) -> updateCanApply());
    }

    // ---------------------------------------------------------------- inputs

    /** Loads the job names (for the job picker) in the background. */
    public void loadJobs() {
        threads.submit(() -> services.catalog().get().jobs().stream().map(JobDefinition::name).toList(),
                jobs::setAll, e -> error.set("Could not read the jobs folder: " + message(e)));
    }

    private void loadJob(String name) {
        threads.submit(() -> findJob(name), d -> {
            if (name.equals(job.get())) {
                definition = d;
                manualKeys.set(d.key().type() == KeyType.MANUAL);
                if (manualKeys.get() && target.get() == Target.TODAY || manualKeys.get() && target.get() == Target.RANGE) {
                    target.set(Target.KEYS);
                }
                error.set("");
                validateInputs();
            }
        }, e -> error.set(message(e)));
    }

    /** Checks the key inputs against the job's key rules as they are typed (pure, no state access). */
    private void validateInputs() {
        JobDefinition d = definition;
        if (d == null) {
            validation.set("");
            return;
        }
        try {
            resolveWithoutState(d);
            validation.set("");
        } catch (InvalidKeyException | OperatorException e) {
            validation.set(e.getMessage());
        }
    }

    /** The targeted keys; {@code null} for {@link Target#DUE}, which needs the state. */
    private List<String> resolveWithoutState(JobDefinition d) {
        return switch (target.get()) {
            case TODAY -> Targets.current(d, services.clock());
            case RANGE -> {
                String f = from.get() == null ? "" : from.get().strip();
                String t = to.get() == null ? "" : to.get().strip();
                if (d.key().type() == KeyType.MANUAL) {
                    throw new OperatorException("job " + d.name() + " has manual keys: name them one by one");
                }
                if (f.isEmpty()) {
                    throw new InvalidKeyException("enter the first key of the range (\"from\")");
                }
                yield Targets.range(d, f, t.isEmpty() ? KeyRules.current(d.key(), services.clock()) : t);
            }
            case DUE -> null;
            case KEYS -> {
                List<String> raw = splitKeys(keysText.get());
                if (raw.isEmpty()) {
                    throw new InvalidKeyException("enter one or more keys (separated by spaces, commas or lines)");
                }
                yield Targets.explicit(d, raw);
            }
        };
    }

    static List<String> splitKeys(String text) {
        List<String> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        for (String s : text.split("[\\s,;]+")) {
            if (!s.isBlank()) {
                out.add(s.strip());
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- plan

    /** Computes the plan of the chosen keys in the background and saves it (so the CLI can apply it too). */
    public void plan() {
        String name = job.get();
        if (busy.get()) {
            return;
        }
        if (name == null || name.isBlank()) {
            validation.set("choose a job");
            return;
        }
        busy.set(true);
        outcome.set("");
        error.set("");
        Target t = target.get();
        threads.submit(() -> {
            JobDefinition d = findJob(name);
            List<String> keys;
            java.util.Map<String, String> notes = new java.util.HashMap<>();
            try {
                if (t == Target.DUE) {
                    // the same window as the scheduler: catch-up keys are marked before they run
                    List<Targets.DueKey> due = Targets.dueKeys(d, services.store(), services.clock().instant(),
                            services.scheduler().window());
                    due.stream().filter(Targets.DueKey::catchUp).forEach(k -> notes.put(k.key(), k.note()));
                    keys = due.stream().map(Targets.DueKey::key).toList();
                } else {
                    keys = resolveWithoutState(d);
                }
            } catch (InvalidKeyException | OperatorException e) {
                return new Planned(d, null, e.getMessage());
            }
            Plan p = new io.keyline.core.operations.PlanApply(services.store(), services.planner())
                    .planAndSave(d, keys, notes, io.keyline.core.Planner.Options.DEFAULT);
            return new Planned(d, p, null);
        }, r -> {
            busy.set(false);
            definition = r.job();
            if (r.invalid() != null) {
                validation.set(r.invalid());
                return;
            }
            validation.set("");
            show(r.plan());
        }, e -> {
            busy.set(false);
            error.set("Could not make the plan: " + message(e));
        });
    }

    /** After a stale refusal: plans the same choice again, for review. */
    public void replan() {
        plan();
    }

    private record Planned(JobDefinition job, Plan plan, String invalid) {
    }

    private void show(Plan p) {
        plan.set(p);
        plannedKeys = p.keys().stream().map(Plan.KeyPlan::key).toList();
        rows.setAll(p.keys());
        selected.set(p.keys().stream().filter(k -> !k.requests().isEmpty()).findFirst()
                .orElse(p.keys().isEmpty() ? null : p.keys().get(0)));
        Map<String, Integer> counts = counts(p);
        List<ActionCount> list = new ArrayList<>();
        counts.forEach((a, n) -> list.add(new ActionCount(a, n)));
        summary.setAll(list);
        planId.set(p.planId());
        paused.set(p.paused() == null ? "" : p.paused() + ": nothing will start until it is resumed");
        summaryText.set(summaryText(p.keys().size(), list));
        stale.set(false);
        applied.set(false);
        exitCode.set(-1);
        finalStates.set(Map.of());
    }

    private void clearPlan() {
        plan.set(null);
        plannedKeys = List.of();
        rows.clear();
        selected.set(null);
        summary.clear();
        planId.set("");
        paused.set("");
        summaryText.set("");
        stale.set(false);
        applied.set(false);
        outcome.set("");
    }

    /** Keys per action, in first-seen order; timestamps are folded so that waits group together. */
    static Map<String, Integer> counts(Plan p) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Plan.KeyPlan k : p.keys()) {
            counts.merge(k.action().replaceAll("\\d{4}-\\d{2}-\\d{2}T[^ )]*", "T"), 1, Integer::sum);
        }
        return counts;
    }

    static String summaryText(int keys, List<ActionCount> counts) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%,d key%s", keys, keys == 1 ? "" : "s"));
        for (ActionCount c : counts) {
            sb.append(" · ").append(String.format(Locale.ROOT, "%,d", c.keys())).append(" × ").append(c.action());
        }
        return sb.toString();
    }

    // ---------------------------------------------------------------- apply

    /**
     * Executes exactly the plan on screen: plans the same keys again and runs them only if the plan
     * id is unchanged; otherwise refuses (nothing is sent) and sets {@link #staleProperty()}.
     */
    public void apply() {
        Plan shown = plan.get();
        if (shown == null || busy.get() || applied.get() || stale.get()) {
            return;
        }
        busy.set(true);
        outcome.set("Applying plan " + shown.planId() + "…");
        error.set("");
        threads.submit(() -> {
            try {
                return new Applied(new io.keyline.core.operations.PlanApply(services.store(), services.planner())
                        .apply(shown.planId(), this::findJob, services.engine()), shown.planId());
            } catch (io.keyline.core.operations.PlanApply.StalePlanException e) {
                return new Applied(null, e.currentId());
            }
        }, a -> {
            busy.set(false);
            if (a.report() == null) {
                stale.set(true);
                outcome.set("Stale plan: the job file or the state of its keys changed since plan " + shown.planId()
                        + " was made (now " + a.currentId() + "). Nothing was run. Re-plan and review it again.");
                return;
            }
            applied.set(true);
            RunReport r = a.report();
            Map<KeyState, Integer> states = new LinkedHashMap<>();
            for (KeyState s : KeyState.values()) {
                int n = (int) r.count(s);
                if (n > 0) {
                    states.put(s, n);
                }
            }
            finalStates.set(Map.copyOf(states));
            exitCode.set(r.exitCode());
            outcome.set(outcomeText(shown.planId(), r, states));
        }, e -> {
            busy.set(false);
            outcome.set("");
            error.set("Could not apply plan " + shown.planId() + ": " + message(e));
        });
    }

    private record Applied(RunReport report, String currentId) {
    }

    static String outcomeText(String id, RunReport r, Map<KeyState, Integer> states) {
        StringBuilder sb = new StringBuilder("Applied plan ").append(id).append(": ");
        if (states.isEmpty()) {
            sb.append("no keys");
        } else {
            List<String> parts = new ArrayList<>();
            states.forEach((s, n) -> parts.add(n + " " + io.keyline.ui.common.Format.state(s).toLowerCase(Locale.ROOT)));
            sb.append(String.join(", ", parts));
        }
        if (r.stopped() != null) {
            sb.append(" (stopped: ").append(r.stopped()).append(')');
        }
        int exit = r.exitCode();
        sb.append(". Exit ").append(exit).append(": ").append(RunReport.meaning(exit)).append('.');
        return sb.toString();
    }

    // ---------------------------------------------------------------- detail

    /** The exact requests of a key's http steps, as monospace text (credential values are already masked). */
    public static String detail(Plan.KeyPlan k) {
        if (k == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        sb.append(k.key()).append("  ").append(k.state()).append('\n');
        sb.append(k.action()).append('\n');
        if (!k.steps().isEmpty()) {
            sb.append("steps: ").append(String.join(" → ", k.steps())).append('\n');
        }
        if (k.requests().isEmpty()) {
            sb.append("\n(no http request)\n");
        }
        for (Plan.RequestPreview r : k.requests()) {
            sb.append('\n').append(r.step()).append(": ").append(r.method()).append(' ').append(r.url()).append('\n');
            r.headers().forEach((h, v) -> sb.append("  ").append(h).append(": ").append(v).append('\n'));
            if (r.note() != null) {
                sb.append("  body: ").append(r.bodySource()).append(" - ").append(r.note()).append('\n');
            } else if (r.bodyBytes() != null && r.bodyBytes() > 0) {
                sb.append("  body: ").append(r.bodyBytes()).append(" bytes, sha256 ").append(r.bodySha256())
                        .append(" (").append(r.bodySource()).append(")\n");
            } else {
                sb.append("  body: none\n");
            }
        }
        return sb.toString();
    }

    // ---------------------------------------------------------------- helpers

    private JobDefinition findJob(String name) {
        var catalog = services.catalog().get();
        return catalog.job(name).orElseThrow(() -> new OperatorException("job " + name + " is not in "
                + services.jobsDir() + (catalog.errors().stream().anyMatch(e -> e.file().toString().contains(name))
                ? " (its file has errors)" : "")));
    }

    private void updateCanApply() {
        canApply.set(plan.get() != null && !busy.get() && !applied.get() && !stale.get()
                && plan.get().keys().stream().anyMatch(Plan.KeyPlan::runs));
    }

    private static String message(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    // ---------------------------------------------------------------- properties

    /** The job to plan (writable: the dialog's job picker). */
    public StringProperty jobProperty() {
        return job;
    }

    public ObjectProperty<Target> targetProperty() {
        return target;
    }

    public StringProperty fromProperty() {
        return from;
    }

    public StringProperty toProperty() {
        return to;
    }

    /** Explicit keys, separated by spaces, commas or new lines. */
    public StringProperty keysTextProperty() {
        return keysText;
    }

    public ObservableList<String> jobs() {
        return jobsReadOnly;
    }

    /** One row per targeted key: key, state, planned action, steps and requests. */
    public ObservableList<Plan.KeyPlan> rows() {
        return rowsReadOnly;
    }

    /** The key whose requests the detail pane shows (the view's table selection). */
    public ObjectProperty<Plan.KeyPlan> selectedProperty() {
        return selected;
    }

    /** {@link #detail(Plan.KeyPlan)} of the selected key. */
    public ReadOnlyStringProperty detailProperty() {
        return detail.getReadOnlyProperty();
    }

    public ObservableList<ActionCount> summary() {
        return summaryReadOnly;
    }

    public ReadOnlyObjectProperty<Plan> planProperty() {
        return plan.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty planIdProperty() {
        return planId.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty summaryTextProperty() {
        return summaryText.getReadOnlyProperty();
    }

    /** The job's pause reason when it is paused, else empty. */
    public ReadOnlyStringProperty pausedProperty() {
        return paused.getReadOnlyProperty();
    }

    /** What is wrong with the key inputs (shown inline), or empty. */
    public ReadOnlyStringProperty validationProperty() {
        return validation.getReadOnlyProperty();
    }

    /** The result of the last apply, or the stale-plan refusal. */
    public ReadOnlyStringProperty outcomeProperty() {
        return outcome.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** True after apply refused the plan because the state changed: show a Re-plan button. */
    public ReadOnlyBooleanProperty staleProperty() {
        return stale.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** True once the plan on screen was executed (it cannot be applied twice). */
    public ReadOnlyBooleanProperty appliedProperty() {
        return applied.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty canApplyProperty() {
        return canApply.getReadOnlyProperty();
    }

    /** The job has manual keys: only explicit keys (and due) make sense. */
    public ReadOnlyBooleanProperty manualKeysProperty() {
        return manualKeys.getReadOnlyProperty();
    }

    /** Exit code of the last apply (SPEC §6), or -1. */
    public ReadOnlyIntegerProperty exitCodeProperty() {
        return exitCode.getReadOnlyProperty();
    }

    /** Final states of the keys of the last apply, with their counts. */
    public ReadOnlyObjectProperty<Map<KeyState, Integer>> finalStatesProperty() {
        return finalStates.getReadOnlyProperty();
    }
}
