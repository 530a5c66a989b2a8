package io.keyline.ui.timeline;

import io.keyline.core.operations.EvidenceText;
import io.keyline.domain.EventType;
import io.keyline.domain.Evidence;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.Printable;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Threads;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A key's status timeline: its events grouped by run (operator actions outside a run form their
 * own group), the key's current record and the one action that fits its state. Everything that
 * touches the state runs through {@link Threads#submit}.
 */
public final class TimelineViewModel {

    /** The one action that resolves the key's state. */
    public enum Action {
        NONE(""), CONFIRM("Confirm…"), RENEW_CREDENTIAL("Renew credential…"), RETRY("Retry");

        private final String label;

        Action(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        static Action of(KeyState s) {
            if (s == null) {
                return NONE;
            }
            return switch (s) {
                case NEEDS_CONFIRMATION -> CONFIRM;
                case NEEDS_CREDENTIAL -> RENEW_CREDENTIAL;
                case FAILED -> RETRY;
                default -> NONE;
            };
        }
    }

    /** One row of the list: a run header or an event. */
    public sealed interface Row permits RunHeader, EventRow {
    }

    /**
     * The header of a group of events.
     *
     * @param runId    the run, or {@code null} for operator actions outside a run
     * @param start    first event
     * @param end      last event
     * @param events   events in the group
     * @param failures failed attempts in the group
     * @param outcome  key state after the group's last event
     */
    public record RunHeader(String runId, Instant start, Instant end, int events, int failures, KeyState outcome)
            implements Row {
        public boolean operator() {
            return runId == null;
        }

        public Duration duration() {
            return start == null || end == null ? Duration.ZERO : Duration.between(start, end);
        }

        public String title() {
            return operator() ? "Operator" : "Run " + runId;
        }

        /** "2026-11-29 09:00:00 · 4.2 s · 7 events · 1 failure". */
        public String summary() {
            StringBuilder sb = new StringBuilder(Format.time(start));
            if (!operator()) {
                sb.append(" · ").append(EvidenceText.duration(duration()));
            }
            sb.append(" · ").append(events).append(events == 1 ? " event" : " events");
            if (failures > 0) {
                sb.append(" · ").append(failures).append(failures == 1 ? " failure" : " failures");
            }
            return sb.toString();
        }
    }

    /**
     * One event of the key's history.
     *
     * @param id            store sequence
     * @param runId         run, or {@code null}
     * @param ts            when
     * @param sincePrevious time since the previous event of the same group, or {@code null} for the first
     * @param type          what happened
     * @param step          step, or {@code null}
     * @param attempt       attempt of the step, or 0
     * @param state         key state after the event
     * @param stateChanged  whether the event changed the key's state
     * @param failureClass  failure class, or {@code null}
     * @param message       message
     * @param user          operator (operator actions), or {@code null}
     * @param note          operator's note, or {@code null}
     * @param evidence      evidence, or {@code null}
     */
    public record EventRow(long id, String runId, Instant ts, Duration sincePrevious, EventType type, String step,
                           int attempt, KeyState state, boolean stateChanged, FailureClass failureClass, String message,
                           String user, String note, Evidence evidence) implements Row {

        private static final Set<EventType> FAILURES = EnumSet.of(EventType.STEP_FAILED, EventType.KEY_FAILED,
                EventType.RETRY_SCHEDULED, EventType.WAITING_FOR_CONFIRMATION, EventType.WAITING_FOR_CREDENTIAL);

        /** A failed attempt, or the key stopping to wait for a person. */
        public boolean failure() {
            return failureClass != null || FAILURES.contains(type);
        }

        public boolean operatorAction() {
            return user != null;
        }

        public boolean hasEvidence() {
            return evidence != null;
        }

        /** "publish#2", "publish", or "". */
        public String stepAttempt() {
            if (step == null) {
                return "";
            }
            return attempt > 0 ? step + "#" + attempt : step;
        }

        /** "Step failed" for STEP_FAILED. */
        public String typeLabel() {
            String n = type.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
            return Character.toUpperCase(n.charAt(0)) + n.substring(1);
        }

        /** "by alice: checked the site" for operator actions, else "". */
        public String byline() {
            if (user == null) {
                return "";
            }
            return "by " + user + (note == null || note.isBlank() ? "" : ": " + note);
        }

        public String evidenceText() {
            return EvidenceText.format(evidence);
        }
    }

    /** What one background load produced. */
    record Loaded(KeyRecord record, List<Row> rows, int events, String problem) {
    }

    private final ConsoleServices services;
    private final Threads threads;
    private final ReadOnlyStringWrapper job = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper key = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<KeyRecord> record = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<KeyState> state = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper details = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<Action> action = new ReadOnlyObjectWrapper<>(Action.NONE);
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ObservableList<Row> rowsView = FXCollections.unmodifiableObservableList(rows);
    private final ReadOnlyIntegerWrapper eventCount = new ReadOnlyIntegerWrapper();
    private final ReadOnlyObjectWrapper<EventRow> expanded = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper notice = new ReadOnlyStringWrapper("");
    private Runnable onChanged = () -> { };
    private long generation;

    public TimelineViewModel(ConsoleServices services, Threads threads) {
        this.services = services;
        this.threads = threads;
    }

    /** Called on the UI thread after an action here changed the key (the main window refreshes). */
    public void setOnChanged(Runnable listener) {
        this.onChanged = listener == null ? () -> { } : listener;
    }

    /** Loads the key's record and events in the background. */
    public void load(String jobName, String keyName) {
        Objects.requireNonNull(jobName, "job");
        Objects.requireNonNull(keyName, "key");
        job.set(jobName);
        key.set(keyName);
        notice.set("");
        expanded.set(null);
        reload();
    }

    /** Loads the current key again. */
    public void reload() {
        if (job.get().isEmpty()) {
            return;
        }
        String j = job.get();
        String k = key.get();
        long gen = ++generation;
        loading.set(true);
        threads.submit(() -> read(j, k), l -> {
            if (gen == generation) {
                apply(l);
            }
        }, e -> {
            if (gen == generation) {
                loading.set(false);
                error.set("Could not read the timeline: " + e.getMessage());
            }
        });
    }

    /**
     * Re-arms a FAILED key and runs it in the background; ignored unless the key is FAILED and
     * nothing else runs from here.
     *
     * @return whether the retry was started
     */
    public boolean retry(String note) {
        KeyRecord rec = record.get();
        if (busy.get() || rec == null || rec.state() != KeyState.FAILED) {
            return false;
        }
        String j = job.get();
        String k = key.get();
        busy.set(true);
        error.set("");
        notice.set("Retrying " + k + "…");
        long gen = ++generation;
        threads.submit(() -> {
            JobDefinition def = jobDefinition(j);
            services.actions().retry(def, k, note);
            services.engine().run(def, List.of(k));
            return read(j, k);
        }, l -> {
            busy.set(false);
            if (gen == generation) {
                apply(l);
            }
            KeyRecord now = l.record();
            notice.set(now == null ? "" : "Retried: " + k + " is " + Format.state(now.state())
                    + (now.message() == null || now.state() == KeyState.DONE ? "" : " (" + now.message() + ")"));
            onChanged.run();
        }, e -> {
            busy.set(false);
            notice.set("");
            error.set("Retry failed: " + e.getMessage());
            reload();
            onChanged.run();
        });
        return true;
    }

    /** Shows (or hides, if shown) an event's evidence. Rows without evidence are ignored. */
    public void toggle(EventRow row) {
        if (row == null || !row.hasEvidence()) {
            return;
        }
        expanded.set(row.equals(expanded.get()) ? null : row);
    }

    public void expand(EventRow row) {
        if (row != null && row.hasEvidence()) {
            expanded.set(row);
        }
    }

    public void collapse() {
        expanded.set(null);
    }

    private JobDefinition jobDefinition(String name) {
        return services.catalog().get().job(name).orElseThrow(() -> new IllegalStateException(
                "job " + name + " is not loaded (its file is missing or invalid)"));
    }

    private Loaded read(String j, String k) {
        KeyRecord rec = services.store().key(j, k).orElse(null);
        List<KeyEvent> events = services.store().events(j, k);
        String problem = rec == null ? "Key " + k + " of " + j + " has never run." : null;
        return new Loaded(rec, group(events), events.size(), problem);
    }

    /** Groups events (oldest first) into consecutive runs; operator events outside a run form their own group. */
    static List<Row> group(List<KeyEvent> events) {
        List<Row> out = new ArrayList<>(events.size() + events.size() / 4 + 1);
        int headerAt = -1;
        String run = null;
        boolean open = false;
        Instant start = null;
        Instant previous = null;
        KeyState previousState = null;
        int count = 0;
        int failures = 0;
        KeyState last = null;
        for (KeyEvent e : events) {
            boolean sameGroup = open && Objects.equals(run, e.runId());
            if (!sameGroup) {
                if (open) {
                    out.set(headerAt, new RunHeader(run, start, previous, count, failures, last));
                }
                headerAt = out.size();
                out.add(null);
                run = e.runId();
                open = true;
                start = e.ts();
                previous = null;
                count = 0;
                failures = 0;
            }
            Duration since = previous == null || e.ts() == null ? null : Duration.between(previous, e.ts());
            EventRow row = new EventRow(e.id(), e.runId(), e.ts(), since, e.type(), e.step(), e.attempt(), e.state(),
                    previousState != e.state(), e.failureClass(), e.message() == null ? "" : Printable.line(e.message()),
                    e.user(), e.note() == null ? null : Printable.line(e.note()), e.evidence());
            out.add(row);
            count++;
            if (e.type() == EventType.STEP_FAILED || e.type() == EventType.KEY_FAILED
                    || e.type() == EventType.RETRY_SCHEDULED && e.evidence() != null) {
                failures++;
            }
            previous = e.ts();
            previousState = e.state();
            last = e.state();
        }
        if (open) {
            out.set(headerAt, new RunHeader(run, start, previous, count, failures, last));
        }
        return out;
    }

    private void apply(Loaded l) {
        loading.set(false);
        KeyRecord rec = l.record();
        record.set(rec);
        state.set(rec == null ? null : rec.state());
        message.set(rec == null ? l.problem() : rec.message() == null ? "" : Printable.line(rec.message()));
        details.set(rec == null ? "" : details(rec, services.clock().instant()));
        action.set(Action.of(rec == null ? null : rec.state()));
        rows.setAll(l.rows());
        eventCount.set(l.events());
        error.set("");
        EventRow keep = expanded.get();
        EventRow show = null;
        for (int i = l.rows().size() - 1; i >= 0; i--) {
            if (l.rows().get(i) instanceof EventRow e && e.hasEvidence()) {
                if (keep != null && e.id() == keep.id()) {
                    show = e;
                    break;
                }
                if (show == null && e.failure() && keep == null) {
                    show = e;
                }
            }
        }
        expanded.set(show);
    }

    static String details(KeyRecord r, Instant now) {
        StringBuilder sb = new StringBuilder();
        if (r.step() != null) {
            sb.append("step ").append(r.step());
            if (r.attempts() > 0) {
                sb.append(" · ").append(r.attempts()).append(r.attempts() == 1 ? " attempt" : " attempts");
            }
        }
        if (r.nextAttemptAt() != null) {
            sb.append(sb.isEmpty() ? "" : " · ").append("next attempt ").append(Format.time(r.nextAttemptAt()))
                    .append(" (").append(Format.relative(r.nextAttemptAt(), now)).append(')');
        }
        if (r.failureClass() != null) {
            sb.append(sb.isEmpty() ? "" : " · ").append(r.failureClass());
        }
        if (r.credential() != null) {
            sb.append(sb.isEmpty() ? "" : " · ").append("credential ").append(r.credential());
        }
        sb.append(sb.isEmpty() ? "" : " · ").append("updated ").append(Format.relative(r.updatedAt(), now));
        return sb.toString();
    }

    public ReadOnlyStringProperty jobProperty() {
        return job.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty keyProperty() {
        return key.getReadOnlyProperty();
    }

    /** The key's current record, or {@code null} when it has never run. */
    public ReadOnlyObjectProperty<KeyRecord> recordProperty() {
        return record.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<KeyState> stateProperty() {
        return state.getReadOnlyProperty();
    }

    /** The key's current message. */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /** "step publish · 2 attempts · next attempt … · updated 3 min ago". */
    public ReadOnlyStringProperty detailsProperty() {
        return details.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Action> actionProperty() {
        return action.getReadOnlyProperty();
    }

    /** Run headers and events, oldest first. */
    public ObservableList<Row> rows() {
        return rowsView;
    }

    public ReadOnlyIntegerProperty eventCountProperty() {
        return eventCount.getReadOnlyProperty();
    }

    /** The event whose evidence is shown (the latest failure after a load), or {@code null}. */
    public ReadOnlyObjectProperty<EventRow> expandedProperty() {
        return expanded.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    /** A retry started here is running. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** What the last action here did. */
    public ReadOnlyStringProperty noticeProperty() {
        return notice.getReadOnlyProperty();
    }
}
