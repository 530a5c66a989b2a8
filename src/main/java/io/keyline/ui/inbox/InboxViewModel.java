package io.keyline.ui.inbox;

import io.keyline.core.operations.Attention;
import io.keyline.core.operations.KeyActions;
import io.keyline.domain.JobDefinition;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Threads;
import io.keyline.ui.common.ViewModel;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;

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
    private final ReadOnlyStringWrapper notice = new ReadOnlyStringWrapper("");
    private io.keyline.ui.common.RetryShow retryShow = io.keyline.ui.common.RetryShow.NONE;

    public InboxViewModel(Source source) {
        super(source.threads());
        this.source = source;
        this.services = source.services();
        source.attention().addListener((ListChangeListener<Attention.Item>) c -> keepSelection());
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

    public ReadOnlyStringProperty noticeProperty() {
        return notice.getReadOnlyProperty();
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

    /** Selects the next item (wrapping), for the keyboard routine. */
    public void selectNext() {
        move(1);
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
                "retried from the console", work -> act(item, "retry", () -> {
                    JobDefinition job = services.job(item.job());
                    return retried(job, work.call());
                }), e -> notice.set("Could not retry " + item.title().replace("  ·  ", " ") + ": "
                        + io.keyline.ui.common.Format.problem(e)));
    }

    private static String retried(JobDefinition job, List<KeyActions.Outcome> out) {
        return out.size() == 1 ? "Retried " + io.keyline.ui.common.Format.outcome(out.get(0))
                : "Retried " + out.size() + " keys of " + job.name() + ": "
                + io.keyline.core.operations.Words.counts(io.keyline.core.operations.Words.countsOf(
                out.stream().filter(o -> o.after() != null).map(KeyActions.Outcome::after).toList()));
    }

    /** Runs an interrupted key now (it resumes at the step where it stopped). */
    public void runNow(Attention.Item item) {
        act(item, "run", () -> "Ran " + io.keyline.ui.common.Format.outcome(services.operations().keyActions().run(
                services.job(item.job()), item.key(), services.engine())));
    }

    /** Skips every key of the item (audited with the note). */
    public void skip(Attention.Item item, String note) {
        each(item, "skip", note, (job, key) -> services.operations().actions().skip(job, key, note), "skipped");
    }

    /** Marks every key of the item done (audited with the note): the effect happened, checked by hand. */
    public void markDone(Attention.Item item, String note) {
        each(item, "mark done", note, (job, key) -> services.operations().actions().markDone(job, key, note), "marked done");
    }

    private void each(Attention.Item item, String what, String note, java.util.function.BiConsumer<JobDefinition,
            String> action, String done) {
        if (note == null || note.isBlank()) {
            notice.set(capital(what) + " needs a note saying why.");
            return;
        }
        act(item, what, () -> {
            List<String> acted = new ArrayList<>();
            for (int i = 0; i < item.keys().size(); i++) {
                action.accept(services.job(item.jobKeys().get(i)), item.keys().get(i));
                acted.add(item.keys().get(i));
            }
            return (acted.size() == 1 ? item.firstJob() + " " + acted.get(0) : acted.size() + " keys") + " " + done;
        });
    }

    private void act(Attention.Item item, String what, Callable<String> work) {
        if (busy.get()) {
            return;
        }
        notice.set("Working on " + item.title().replace("  ·  ", " ") + "…");
        act(work, msg -> {
            notice.set(msg);
            source.refresh();
        }, e -> {
            notice.set("Could not " + what + " " + item.title().replace("  ·  ", " ") + ": "
                    + io.keyline.ui.common.Format.problem(e));
            source.refresh();
        });
    }

    private static String capital(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
