package io.keyline.ui.job;

import io.keyline.core.RunReport;
import io.keyline.core.StateStore;
import io.keyline.domain.JobControl;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyRules;
import io.keyline.domain.KeyState;
import io.keyline.domain.KeyType;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Threads;
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
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One job: its calendar heatmap, a key table filtered and paged in SQL, and its kill switch.
 * Loads run in the background; a newer request makes an older answer stale (it is dropped).
 */
public final class JobViewModel {

    /** Rows per page of the key table. */
    public static final int PAGE_SIZE = 200;

    /**
     * A state filter of the key table.
     *
     * @param label  what the operator sees
     * @param states the states it shows (empty: all)
     */
    public record Filter(String label, Set<KeyState> states) {
        @Override
        public String toString() {
            return label;
        }
    }

    public static final Filter ALL = new Filter("All states", Set.of());
    public static final Filter ATTENTION = new Filter("Needs attention", KeyState.ATTENTION);
    public static final Filter FAILED = new Filter("Failed", EnumSet.of(KeyState.FAILED));

    /** Every filter, for the combo box. */
    public static List<Filter> filters() {
        List<Filter> out = new ArrayList<>(List.of(ALL, ATTENTION, FAILED));
        for (KeyState s : KeyState.values()) {
            if (s != KeyState.FAILED) {
                out.add(new Filter(io.keyline.ui.common.Format.state(s), EnumSet.of(s)));
            }
        }
        return out;
    }

    private final ConsoleServices services;
    private final Threads threads;
    private final ReadOnlyObjectWrapper<JobDefinition> definition = new ReadOnlyObjectWrapper<>();
    private final ObjectProperty<Filter> filter = new SimpleObjectProperty<>(ALL);
    private final StringProperty search = new SimpleStringProperty("");
    private final IntegerProperty page = new SimpleIntegerProperty(0);
    private final ReadOnlyIntegerWrapper total = new ReadOnlyIntegerWrapper();
    private final ObservableList<KeyRecord> rows = FXCollections.observableArrayList();
    private final ObservableList<KeyRecord> rowsReadOnly = FXCollections.unmodifiableObservableList(rows);
    private final ObservableList<HeatCell> heat = FXCollections.observableArrayList();
    private final ObservableList<HeatCell> heatReadOnly = FXCollections.unmodifiableObservableList(heat);
    private final ReadOnlyBooleanWrapper paused = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper pauseText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper notice = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private long generation;

    public JobViewModel(ConsoleServices services, Threads threads) {
        this.services = services;
        this.threads = threads;
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

    /** Shows a job: definition, heatmap, first page, pause state (the job file is read in the background). */
    public void load(String job) {
        long gen = ++generation;
        threads.submit(() -> services.catalog().get().job(job), def -> {
            if (gen != generation) {
                return;
            }
            definition.set(def.orElse(null));
            if (def.isEmpty()) {
                notice.set("Job " + job + " is not in " + services.jobsDir() + " any more");
                rows.clear();
                heat.clear();
                return;
            }
            reload();
        }, this::failed);
    }

    /** Reloads everything of the current job (live updates call this). */
    public void reload() {
        JobDefinition def = definition.get();
        if (def == null) {
            return;
        }
        long gen = ++generation;
        StateStore.KeyQuery q = query(def);
        threads.submit(() -> new Loaded(services.store().query(q), services.store().count(q), heatmap(def),
                services.store().jobControl(def.name())), l -> {
                    if (gen == generation) {
                        apply(l);
                    }
                }, this::failed);
    }

    private void reloadRows() {
        JobDefinition def = definition.get();
        if (def == null) {
            return;
        }
        long gen = ++generation;
        StateStore.KeyQuery q = query(def);
        loading.set(true);
        threads.submit(() -> new Loaded(services.store().query(q), services.store().count(q), null, null), l -> {
            if (gen == generation) {
                apply(l);
            }
        }, this::failed);
    }

    private record Loaded(List<KeyRecord> rows, int total, List<HeatCell> heat, JobControl control) {
    }

    private void apply(Loaded l) {
        rows.setAll(l.rows());
        total.set(l.total());
        if (l.heat() != null) {
            heat.setAll(l.heat());
        }
        if (l.control() != null) {
            Instant now = services.clock().instant();
            paused.set(l.control().pausedAt(now));
            pauseText.set(l.control().pausedAt(now) ? "Paused by " + l.control().user() + ": " + l.control().reason()
                    + (l.control().until() == null ? "" : " (until " + io.keyline.ui.common.Format.time(l.control().until()) + ")")
                    : "");
        }
        loading.set(false);
    }

    private void failed(Throwable e) {
        loading.set(false);
        notice.set("Could not load: " + e.getMessage());
    }

    private StateStore.KeyQuery query(JobDefinition def) {
        return new StateStore.KeyQuery(def.name(), filter.get().states(), search.get(), 0, PAGE_SIZE)
                .page(page.get() * PAGE_SIZE, PAGE_SIZE, true);
    }

    /** The last 90 days, 52 weeks or 24 months up to the current key; manual jobs have none. */
    List<HeatCell> heatmap(JobDefinition def) {
        if (def.key().type() == KeyType.MANUAL) {
            return List.of();
        }
        int n = switch (def.key().type()) {
            case DATE -> 90;
            case WEEK -> 52;
            default -> 24;
        };
        List<String> keys = new ArrayList<>(n);
        String k = KeyRules.current(def.key(), services.clock());
        for (int i = 0; i < n; i++) {
            keys.add(k);
            k = KeyRules.previous(def.key(), k);
        }
        Collections.reverse(keys);
        Map<String, KeyRecord> known = services.store().query(StateStore.KeyQuery.all(def.name())
                .between(keys.get(0), keys.get(keys.size() - 1))).stream()
                .collect(Collectors.toMap(KeyRecord::key, Function.identity()));
        String start = def.key().start();
        List<HeatCell> out = new ArrayList<>(n);
        for (String key : keys) {
            KeyRecord r = known.get(key);
            boolean before = start != null && KeyRules.compare(def.key(), key, start) < 0;
            out.add(new HeatCell(key, KeyRules.firstDay(def.key(), key), r == null ? null : r.state(), before));
        }
        return out;
    }

    /** Turns the kill switch on. */
    public void pause(String reason, Instant until) {
        JobDefinition def = definition.get();
        threads.submit(() -> services.actions().pause(def.name(), reason, until), jc -> {
            notice.set(def.name() + " paused");
            reload();
        }, e -> notice.set("Could not pause: " + e.getMessage()));
    }

    public void resume() {
        JobDefinition def = definition.get();
        threads.submit(() -> services.actions().resume(def.name()), jc -> {
            notice.set(def.name() + " resumed");
            reload();
        }, e -> notice.set("Could not resume: " + e.getMessage()));
    }

    /** Runs the given keys now (in the background); the table updates as they progress. */
    public void run(List<String> keys, Runnable done) {
        JobDefinition def = definition.get();
        notice.set("Running " + keys.size() + " key" + (keys.size() == 1 ? "" : "s") + "…");
        threads.submit(() -> services.engine().run(def, keys), r -> {
            notice.set("Run finished: " + summary(r));
            reload();
            done.run();
        }, e -> {
            notice.set("Run failed: " + e.getMessage());
            done.run();
        });
    }

    static String summary(RunReport r) {
        if (r.stopped() != null) {
            return r.stopped();
        }
        List<String> parts = new ArrayList<>();
        for (KeyState s : KeyState.values()) {
            long n = r.count(s);
            if (n > 0) {
                parts.add(n + " " + io.keyline.ui.common.Format.state(s).toLowerCase(java.util.Locale.ROOT));
            }
        }
        return String.join(", ", parts);
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

    public IntegerProperty pageProperty() {
        return page;
    }

    public ReadOnlyIntegerProperty totalProperty() {
        return total.getReadOnlyProperty();
    }

    public ObservableList<KeyRecord> rows() {
        return rowsReadOnly;
    }

    public ObservableList<HeatCell> heat() {
        return heatReadOnly;
    }

    public ReadOnlyBooleanProperty pausedProperty() {
        return paused.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty pauseTextProperty() {
        return pauseText.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    public Instant now() {
        return services.clock().instant();
    }
}
