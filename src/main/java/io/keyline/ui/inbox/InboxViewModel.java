package io.keyline.ui.inbox;

import io.keyline.core.RunReport;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Threads;
import io.keyline.ui.shell.ConsoleViewModel;
import io.keyline.ui.shell.Snapshot.AttentionItem;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.ObservableList;

import java.util.List;

/**
 * The attention inbox: every key in FAILED, NEEDS_CONFIRMATION or NEEDS_CREDENTIAL across jobs,
 * oldest first, and the actions that resolve them. Confirm and renew open dialogs (the view
 * asks the navigator); retry, skip and mark done happen here.
 */
public final class InboxViewModel {

    private final ConsoleViewModel console;
    private final ConsoleServices services;
    private final Threads threads;
    private final ObjectProperty<AttentionItem> selected = new SimpleObjectProperty<>();
    private final ReadOnlyStringWrapper notice = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();

    public InboxViewModel(ConsoleViewModel console) {
        this.console = console;
        this.services = console.services();
        this.threads = console.threads();
    }

    public ObservableList<AttentionItem> items() {
        return console.attention();
    }

    public ObjectProperty<AttentionItem> selectedProperty() {
        return selected;
    }

    public ReadOnlyStringProperty noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** Whether the empty console offers the demo workspace. */
    public ReadOnlyBooleanProperty demoOfferedProperty() {
        return console.demoOfferedProperty();
    }

    public ReadOnlyBooleanProperty demoRunningProperty() {
        return console.demoRunningProperty();
    }

    public ReadOnlyStringProperty demoMessageProperty() {
        return console.demoMessageProperty();
    }

    /** Creates the demo workspace (in the background) and refreshes. */
    public void createDemo() {
        console.createDemo();
    }

    /** Selects the next item (wrapping), for the keyboard routine. */
    public void selectNext() {
        move(1);
    }

    public void selectPrevious() {
        move(-1);
    }

    private void move(int delta) {
        List<AttentionItem> list = items();
        if (list.isEmpty()) {
            selected.set(null);
            return;
        }
        int i = list.indexOf(selected.get());
        int next = i < 0 ? (delta > 0 ? 0 : list.size() - 1) : Math.floorMod(i + delta, list.size());
        selected.set(list.get(next));
    }

    /** Re-arms a FAILED key and runs it now. */
    public void retry(AttentionItem item) {
        act(item, "retry", () -> {
            JobDefinition job = job(item.job());
            services.actions().retry(job, item.key(), "retried from the console");
            RunReport r = services.engine().run(job, List.of(item.key()));
            KeyRecord k = r.keys().isEmpty() ? null : r.keys().get(0);
            return item.job() + " " + item.key() + ": " + (k == null ? r.stopped() : Format.state(k.state())
                    + (k.message() == null ? "" : " - " + io.keyline.domain.Printable.line(k.message())));
        });
    }

    /** Runs an interrupted key now (it resumes at the step where it stopped). */
    public void runNow(AttentionItem item) {
        act(item, "run", () -> {
            RunReport r = services.engine().run(job(item.job()), List.of(item.key()));
            KeyRecord k = r.keys().isEmpty() ? null : r.keys().get(0);
            return item.job() + " " + item.key() + ": " + (k == null ? r.stopped() : Format.state(k.state())
                    + (k.message() == null ? "" : " - " + k.message()));
        });
    }

    public void skip(AttentionItem item, String note) {
        act(item, "skip", () -> {
            services.actions().skip(job(item.job()), item.key(), note);
            return item.job() + " " + item.key() + " skipped";
        });
    }

    public void markDone(AttentionItem item, String note) {
        act(item, "mark done", () -> {
            services.actions().markDone(job(item.job()), item.key(), note);
            return item.job() + " " + item.key() + " marked done";
        });
    }

    private JobDefinition job(String name) {
        return services.catalog().get().job(name).orElseThrow(() ->
                new IllegalStateException("job " + name + " is no longer in " + services.jobsDir()));
    }

    private void act(AttentionItem item, String what, java.util.concurrent.Callable<String> work) {
        if (busy.get()) {
            return;
        }
        busy.set(true);
        notice.set("Working on " + item.job() + " " + item.key() + "…");
        threads.submit(work, msg -> {
            busy.set(false);
            notice.set(msg);
            console.refresh();
        }, e -> {
            busy.set(false);
            notice.set("Could not " + what + " " + item.job() + " " + item.key() + ": " + e.getMessage());
            console.refresh();
        });
    }
}
