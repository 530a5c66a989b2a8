package io.keyline.ui.timeline;

import io.keyline.core.operations.Outcomes;
import io.keyline.core.operations.Timeline;
import io.keyline.core.operations.Timeline.EventRow;
import io.keyline.core.operations.Timeline.Row;
import io.keyline.core.operations.Words;
import io.keyline.domain.KeyRecord;
import io.keyline.text.Text;
import io.keyline.domain.KeyState;
import io.keyline.domain.OperatorMoves;
import io.keyline.domain.Trigger;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Threads;
import io.keyline.ui.common.ViewModel;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.Objects;

/**
 * A key's status timeline (core {@link Timeline}): its events grouped by run in plain words, the key's
 * current record, what a done key came to, and the one action that fits its state. After a load the
 * list scrolls to the newest run and the evidence pane shows that run's failure (or nothing). Everything
 * that touches the state runs through {@link Threads#submit}.
 */
public final class TimelineViewModel extends ViewModel {

    /**
     * The one move that resolves the key's state ({@link OperatorMoves#resolving}), or none. A key held for its job's
     * review is resolved by a plan of the job ({@code PLAN}).
     */
    public enum Action {
        NONE(null), CONFIRM(Trigger.CONFIRM), RENEW_CREDENTIAL(Trigger.CREDENTIAL_UPDATED), RETRY(Trigger.RETRY),
        PLAN(Trigger.APPROVE);

        private final Trigger move;

        Action(Trigger move) {
            this.move = move;
        }

        public String label() {
            return move == null ? "" : Words.move(move);
        }

        static Action of(KeyRecord rec) {
            Trigger t = OperatorMoves.of(rec).resolving().orElse(null);
            for (Action a : values()) {
                if (a.move == t) {
                    return a;
                }
            }
            return NONE;
        }
    }

    /**
     * What the page's header says about the key as it was last read.
     *
     * @param record  the key's current record, or {@code null} when it has never run
     * @param message the key's current message
     * @param details "step publish · 2 attempts · next attempt … · updated 3 min ago", or empty
     * @param outcome for a done key: when it finished, how long it took, what it came to; else empty
     * @param action  the one move that resolves its state, or {@link Action#NONE}
     * @param events  how many events the key has
     */
    public record Header(KeyRecord record, String message, String details, String outcome, Action action,
                         int events) {
        static final Header NONE = new Header(null, "", "", "", Action.NONE, 0);
    }

    private final ConsoleServices services;
    private final ReadOnlyStringWrapper job = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper key = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<Header> header = new ReadOnlyObjectWrapper<>(Header.NONE);
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ObservableList<Row> rowsView = FXCollections.unmodifiableObservableList(rows);
    private final ReadOnlyIntegerWrapper newestRun = new ReadOnlyIntegerWrapper(-1);
    private final ReadOnlyObjectWrapper<EventRow> expanded = new ReadOnlyObjectWrapper<>();
    private Runnable onChanged = () -> { };
    private io.keyline.ui.common.RetryShow retryShow = io.keyline.ui.common.RetryShow.NONE;

    public TimelineViewModel(ConsoleServices services, Threads threads) {
        super(threads);
        this.services = services;
    }

    /** Called on the UI thread after an action here changed the key (the main window refreshes). */
    public void setOnChanged(Runnable listener) {
        this.onChanged = listener == null ? () -> { } : listener;
    }

    /** Loads the key's record and events in the background. */
    public void load(String jobName, String keyName) {
        job.set(Objects.requireNonNull(jobName));
        key.set(Objects.requireNonNull(keyName));
        notice.set("");
        expanded.set(null);
        reload();
    }

    /** Loads the current key again (the evidence shown stays when it is still there). */
    public void reload() {
        if (job.get().isEmpty()) {
            return;
        }
        String j = job.get();
        String k = key.get();
        load(true, () -> read(j, k), v -> apply(v, false),
                e -> error.set(Text.t("ui.timeline.readFailed", e.getMessage())));
    }

    private Timeline.View read(String j, String k) {
        return services.operations().timeline(services.catalog().get().job(j), j, k);
    }

    /** Shows what a retry sends through an unsafe step before it sends (the main window's Retry dialog). */
    public void setRetryShow(io.keyline.ui.common.RetryShow show) {
        this.retryShow = show == null ? io.keyline.ui.common.RetryShow.NONE : show;
    }

    /**
     * Re-arms a FAILED key and runs it in the background; ignored unless the key is FAILED and nothing
     * else runs from here. When its next step is unsafe, what it sends is shown first ({@link #setRetryShow})
     * and sent only when the operator says so. A key that is in another state now than the page shows (another
     * console or process acted on it meanwhile) is left as it is, and the page says why. Afterwards the outcome is
     * said at the top and the evidence pane shows the new run's failure, or closes when it has none.
     *
     * @return whether the retry was started
     */
    public boolean retry(String note) {
        KeyRecord rec = header.get().record();
        if (busy.get() || rec == null || Action.of(rec) != Action.RETRY) {
            return false;
        }
        String j = job.get();
        String k = key.get();
        error.set("");
        io.keyline.ui.common.RetryFlow.start(services, threads, retryShow, j, java.util.List.of(k), note,
                () -> services.operations().keyActions().requireAsShown(j, k, rec.state(), rec.waitReason()),
                work -> retryNow(j, k, work), e -> retryFailed(j, k, e));
        return true;
    }

    /**
     * Says why a retry did nothing (the key is no longer as the page showed it, or the retry failed), and shows the
     * key as it is now, the words staying above it.
     */
    private void retryFailed(String j, String k, Throwable e) {
        if (!j.equals(job.get()) || !k.equals(key.get())) {
            return;
        }
        String said = Text.t("ui.timeline.retryFailed", io.keyline.ui.common.Format.problem(e));
        error.set(said);
        load(true, () -> read(j, k), v -> {
            apply(v, true);
            error.set(said);
        }, x -> error.set(Text.t("ui.timeline.readFailed", x.getMessage())));
        onChanged.run();
    }

    private void retryNow(String j, String k,
                          java.util.concurrent.Callable<java.util.List<io.keyline.core.operations.KeyActions.Outcome>> work) {
        notice.set(Text.t("ui.timeline.retrying", k));
        long gen = stale();
        act(() -> {
            work.call();
            return read(j, k);
        }, v -> {
            if (current(gen)) {
                apply(v, true);
            }
            KeyRecord now = v.record();
            notice.set(now == null ? "" : now.message() == null || now.state() == KeyState.DONE
                    ? Text.t("ui.timeline.retried", k, Words.stateLower(now.state()))
                    : Text.t("ui.timeline.retriedWhy", k, Words.stateLower(now.state()),
                    said(now)));
            onChanged.run();
        }, e -> {
            notice.set("");
            retryFailed(j, k, e);
        });
    }

    /**
     * What the key's header says of {@code rec}: a wait for a login names the header's own Renew login…, which the
     * timeline shows beside these words, not Attention's.
     */
    private static String said(KeyRecord rec) {
        Action a = Action.of(rec);
        return a == Action.RENEW_CREDENTIAL ? io.keyline.ui.common.Format.keyMessageBesideRenew(rec, a.label())
                : io.keyline.ui.common.Format.keyMessage(rec);
    }

    /** Shows (or hides, if shown) an event's evidence. Rows without evidence are ignored. */
    public void toggle(EventRow row) {
        if (row == null || !row.hasEvidence()) {
            return;
        }
        expanded.set(row.equals(expanded.get()) ? null : row);
    }

    public void collapse() {
        expanded.set(null);
    }

    /**
     * @param fresh after an action: show the newest run's failure (or nothing), not what was shown before
     */
    private void apply(Timeline.View v, boolean fresh) {
        KeyRecord rec = v.record();
        header.set(new Header(rec, rec == null ? Text.t("ui.timeline.neverRun", key.get(), job.get()) : said(rec),
                rec == null ? "" : Timeline.details(rec, services.clock().instant()), outcomeText(v.outcome()),
                Action.of(rec), v.events()));
        rows.setAll(v.rows());
        newestRun.set(v.newestRun());
        error.set("");
        EventRow keep = fresh ? null : expanded.get();
        EventRow show = null;
        if (keep != null) {
            show = v.rows().stream().filter(r -> r instanceof EventRow e && e.id() == keep.id())
                    .map(r -> (EventRow) r).findFirst().orElse(null);
        }
        expanded.set(show != null ? show : v.latestFailure());
    }

    /** "Done at 2026-12-01 09:00:04 · took 1.2 s · publish: HTTP 201, id=17", or empty. */
    static String outcomeText(Outcomes.KeyOutcome o) {
        if (o == null) {
            return "";
        }
        String took = o.tookText();
        String text = o.text();
        String at = io.keyline.core.operations.EvidenceText.time(o.finishedAt());
        return (took.isEmpty() ? Text.t("ui.timeline.doneAt", at) : Text.t("ui.timeline.doneAtTook", at, took))
                + (text.isEmpty() ? "" : " · " + text);
    }

    public ReadOnlyStringProperty jobProperty() {
        return job.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty keyProperty() {
        return key.getReadOnlyProperty();
    }

    /** What the header says about the key: its record, message, details, outcome, action and number of events. */
    public ReadOnlyObjectProperty<Header> headerProperty() {
        return header.getReadOnlyProperty();
    }

    /** Run headers and events, oldest first. */
    public ObservableList<Row> rows() {
        return rowsView;
    }

    /** The index of the newest run's header (the list scrolls there after a load), or -1. */
    public ReadOnlyIntegerProperty newestRunProperty() {
        return newestRun.getReadOnlyProperty();
    }

    /** The event whose evidence is shown (the newest run's failure after a load), or {@code null}. */
    public ReadOnlyObjectProperty<EventRow> expandedProperty() {
        return expanded.getReadOnlyProperty();
    }
}
