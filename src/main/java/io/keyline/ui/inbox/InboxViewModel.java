package io.keyline.ui.inbox;

import io.keyline.core.operations.Attention;
import io.keyline.core.operations.KeyActions;
import io.keyline.domain.JobDefinition;
import io.keyline.text.Text;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Threads;
import io.keyline.ui.common.ViewModel;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.collections.WeakListChangeListener;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The attention inbox: what waits for a person, grouped by cause (core {@link Attention}), and the
 * actions that resolve an item. Confirm, renew and plan open dialogs (the view asks the navigator);
 * retry, run now, skip and mark done happen here through the core's operations.
 *
 * <p>The selection is kept by the item's identity across the periodic reloads: a refresh never moves
 * or clears it, and an item that went away leaves nothing selected (so no action can hit it).
 *
 * <p>Arriving at the list highlights its first item ({@link #arrive}) for a look at it, not for an action: until
 * the operator picks an item (moves, clicks, {@link #take}), {@link #arrivalProperty} says so and the view acts
 * on nothing.
 */
public final class InboxViewModel extends ViewModel {

    /** What the inbox reads from the main window (which owns the periodic reload). */
    public interface Source {
        ObservableList<Attention.Item> attention();

        ConsoleServices services();

        Threads threads();

        /** Reloads the state (after an action). */
        void refresh();

        /** Whether the empty console offers the demo workspace (no job files at all). */
        ReadOnlyBooleanProperty demoOfferedProperty();

        ReadOnlyBooleanProperty demoRunningProperty();

        ReadOnlyStringProperty demoMessageProperty();

        void createDemo();
    }

    private final Source source;
    private final ConsoleServices services;
    private final ObjectProperty<Attention.Item> selected = new SimpleObjectProperty<>();
    private final javafx.beans.property.ReadOnlyBooleanWrapper arrival = new javafx.beans.property.ReadOnlyBooleanWrapper();
    private io.keyline.ui.common.RetryShow retryShow = io.keyline.ui.common.RetryShow.NONE;
    private final ListChangeListener<Attention.Item> keepSelection = c -> keepSelection();

    public InboxViewModel(Source source) {
        super(source.threads());
        this.source = source;
        this.services = source.services();
        // the console's model outlives this one (a language switch builds a new inbox): it holds this weakly
        source.attention().addListener(new WeakListChangeListener<>(keepSelection));
        // another item (or none) is selected: the highlight is the operator's now; a reload's fresh copy of the
        // same item keeps it as it was
        selected.addListener((o, a, b) -> {
            if (b == null || a == null || !a.id().equals(b.id())) {
                arrival.set(false);
            }
        });
    }

    /**
     * On arrival at the list: when nothing is selected, highlights the first item, to look at (its timeline)
     * and not to act on, until the operator {@link #take}s it or moves.
     */
    public void arrive() {
        if (selected.get() == null && !items().isEmpty()) {
            selected.set(items().get(0));
            arrival.set(true);
        }
    }

    /**
     * On arrival at one item (the one a note was about): highlights it, to look at as on {@link #arrive}; the first
     * item when it is gone.
     */
    public void arriveAt(String id) {
        Attention.Item item = items().stream().filter(i -> i.id().equals(id)).findFirst().orElse(null);
        if (item == null) {
            arrive();
            return;
        }
        selected.set(item);
        arrival.set(true);
    }

    /** Whether the selection is the highlight made on arrival, not picked by the operator: no action runs on it. */
    public ReadOnlyBooleanProperty arrivalProperty() {
        return arrival.getReadOnlyProperty();
    }

    /** The operator picks the highlighted item (a click on it, J): actions run on it from now on. */
    public void take() {
        arrival.set(false);
    }

    /** After a reload: the same item (by identity) stays selected, now its fresh copy; a gone one is dropped. */
    private void keepSelection() {
        Attention.Item s = selected.get();
        if (s == null) {
            return;
        }
        selected.set(items().stream().filter(i -> i.id().equals(s.id())).findFirst().orElse(null));
    }

    public ObservableList<Attention.Item> items() {
        return source.attention();
    }

    public ObjectProperty<Attention.Item> selectedProperty() {
        return selected;
    }

    public ReadOnlyBooleanProperty demoOfferedProperty() {
        return source.demoOfferedProperty();
    }

    public ReadOnlyBooleanProperty demoRunningProperty() {
        return source.demoRunningProperty();
    }

    public ReadOnlyStringProperty demoMessageProperty() {
        return source.demoMessageProperty();
    }

    /** Creates the demo workspace (in the background) and refreshes. */
    public void createDemo() {
        source.createDemo();
    }

    /**
     * Selects the next item (wrapping), for the keyboard routine. The item highlighted on arrival is the next:
     * the first J picks it, as it picked the first item when nothing was highlighted.
     */
    public void selectNext() {
        if (arrival.get() && selected.get() != null) {
            take();
        } else {
            move(1);
        }
    }

    public void selectPrevious() {
        move(-1);
    }

    private void move(int delta) {
        List<Attention.Item> list = items();
        if (list.isEmpty()) {
            selected.set(null);
            return;
        }
        int i = list.indexOf(selected.get());
        int next = i < 0 ? (delta > 0 ? 0 : list.size() - 1) : Math.floorMod(i + delta, list.size());
        selected.set(list.get(next));
        arrival.set(false); // a list of one: J lands on the same item, now picked
    }

    /** Shows what a retry sends through an unsafe step before it sends (the main window's Retry dialog). */
    public void setRetryShow(io.keyline.ui.common.RetryShow show) {
        this.retryShow = show == null ? io.keyline.ui.common.RetryShow.NONE : show;
    }

    /**
     * Re-arms the failed keys of an item and runs them now; when their next step is unsafe, what it sends is
     * shown first ({@link #setRetryShow}) and sent only when the operator says so.
     */
    public void retry(Attention.Item item) {
        if (busy.get()) {
            return;
        }
        io.keyline.ui.common.RetryFlow.start(services, threads, retryShow, item.job(), item.keys(),
                Text.t("ui.retry.note"), () -> asShown(item), work -> act(item, (t, p) -> Text.t("ui.inbox.couldNotRetry", t, p), () -> {
                    JobDefinition job = services.job(item.job());
                    return retried(job, work.call());
                }), e -> notice.set(Text.t("ui.inbox.couldNotRetry", item.title().replace("  ·  ", " "),
                        io.keyline.ui.common.Format.problem(e))));
    }

    private static String retried(JobDefinition job, List<KeyActions.Outcome> out) {
        return out.size() == 1 ? Text.t("ui.inbox.retriedOne", io.keyline.ui.common.Format.outcome(out.get(0)))
                : Text.t("ui.inbox.retried", out.size(), job.name(),
                io.keyline.core.operations.Words.counts(io.keyline.core.operations.Words.countsOf(
                out.stream().filter(o -> o.after() != null).map(KeyActions.Outcome::after).toList())));
    }

    /** Runs an interrupted key now (it resumes at the step where it stopped). */
    public void runNow(Attention.Item item) {
        act(item, (t, p) -> Text.t("ui.inbox.couldNotRun", t, p), () -> Text.t("ui.inbox.ran", io.keyline.ui.common.Format.outcome(
                services.operations().keyActions().run(services.job(item.job()), item.key(), services.engine()))));
    }

    /** Skips every key of the item (audited with the note). */
    public void skip(Attention.Item item, String note) {
        each(item, "ui.inbox.skip", note, (job, key) -> services.operations().actions().skip(job, key, note));
    }

    /** Marks every key of the item done (audited with the note): the effect happened, checked by hand. */
    public void markDone(Attention.Item item, String note) {
        each(item, "ui.inbox.markDone", note, (job, key) -> services.operations().actions().markDone(job, key, note));
    }

    /**
     * Does {@code action} to every key of the item; {@code what} names the bundle's words for it: {@code what
     * + ".noNote"}, {@code ".done"} and {@code ".failed"}.
     */
    private void each(Attention.Item item, String what, String note, java.util.function.BiConsumer<JobDefinition,
            String> action) {
        if (note == null || note.isBlank()) {
            notice.set(Text.t(what + ".noNote"));
            return;
        }
        act(item, (t, p) -> Text.t(what + ".failed", t, p), () -> {
            asShown(item);
            List<String> acted = new ArrayList<>();
            for (int i = 0; i < item.keys().size(); i++) {
                action.accept(services.job(item.jobKeys().get(i)), item.keys().get(i));
                acted.add(item.keys().get(i));
            }
            return acted.size() == 1 ? Text.t(what + ".doneOne", item.firstJob(), acted.get(0))
                    : Text.t(what + ".done", acted.size());
        });
    }

    /**
     * Refuses (in the background) a move on an item whose keys are no longer in the state the card showed: a card
     * left on screen, or its More left open, across a reload that changed them.
     */
    private void asShown(Attention.Item item) {
        io.keyline.domain.WaitReason why = item.kind() == Attention.Kind.REVIEW ? io.keyline.domain.WaitReason.REVIEW
                : null;
        for (int i = 0; i < item.keys().size(); i++) {
            services.operations().keyActions().requireAsShown(item.jobKeys().get(i), item.keys().get(i), item.state(),
                    why);
        }
    }

    /** Runs {@code work}; a failure is told by {@code failed} from the item's title and the problem. */
    private void act(Attention.Item item, java.util.function.BinaryOperator<String> failed, Callable<String> work) {
        if (busy.get()) {
            return;
        }
        notice.set(Text.t("ui.inbox.working", item.title().replace("  ·  ", " ")));
        tell(work, e -> failed.apply(item.title().replace("  ·  ", " "), io.keyline.ui.common.Format.problem(e)),
                source::refresh);
    }
}
