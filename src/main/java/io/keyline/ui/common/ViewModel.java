package io.keyline.ui.common;

import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What the console's view models share: work runs in the background ({@link Threads}) and its answer is
 * applied on the UI thread. Three ways to start it:
 * <ul>
 *   <li>{@link #load}: the newest load wins; an older one's answer arrives stale and is dropped;</li>
 *   <li>{@link #refresh}: at most one at a time; one asked for meanwhile runs right after it;</li>
 *   <li>{@link #act}: an operator's action, one at a time; {@code busy} while it runs ({@link #tell}: one
 *   whose answer is the line that tells what it did).</li>
 * </ul>
 * {@code loading} is true while a load or refresh runs, {@code error} says what failed last, {@code notice}
 * what the last action here did.
 */
public abstract class ViewModel {

    protected final Threads threads;
    protected final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper(this, "loading");
    protected final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy");
    protected final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");
    protected final ReadOnlyStringWrapper notice = new ReadOnlyStringWrapper(this, "notice", "");
    private long generation;
    private boolean refreshing;
    private Runnable again;

    protected ViewModel(Threads threads) {
        this.threads = threads;
    }

    /**
     * Loads in the background; a load started later makes this one's answer (and failure) stale: it is
     * dropped. {@code loading} is shown while it runs when {@code show} says so.
     */
    protected final <T> void load(boolean show, Callable<T> work, Consumer<T> apply, Consumer<Throwable> failed) {
        long gen = stale();
        loading.set(show);
        threads.submit(work, v -> {
            if (gen == generation) {
                loading.set(false);
                apply.accept(v);
            }
        }, e -> {
            if (gen == generation) {
                loading.set(false);
                failed.accept(e);
            }
        });
    }

    /**
     * Makes the answers of loads still running stale (they will be dropped, so {@code loading} ends here);
     * returns the new generation (see {@link #current}).
     */
    protected final long stale() {
        loading.set(false);
        return ++generation;
    }

    /** Whether nothing was loaded or made stale since {@code gen} was returned by {@link #stale}. */
    protected final boolean current(long gen) {
        return gen == generation;
    }

    /**
     * Reloads in the background unless a reload runs; then it runs once more right after that one (nothing
     * asked for is lost, and reloads do not pile up). {@code loading} while it runs. The queued reload runs
     * the same {@code work} again: it reads everything it needs (the time too) when it runs.
     */
    protected final <T> void refresh(Callable<T> work, Consumer<T> apply, Consumer<Throwable> failed) {
        if (refreshing) {
            again = () -> refresh(work, apply, failed);
            return;
        }
        refreshing = true;
        loading.set(true);
        threads.submit(work, v -> {
            refreshed();
            apply.accept(v);
            queued();
        }, e -> {
            refreshed();
            failed.accept(e);
            queued();
        });
    }

    private void refreshed() {
        refreshing = false;
        loading.set(false);
    }

    private void queued() {
        Runnable r = again;
        again = null;
        if (r != null) {
            r.run();
        }
    }

    /**
     * Runs an operator's action in the background, {@code busy} while it runs; refused (returns false) while
     * another action runs.
     */
    protected final <T> boolean act(Callable<T> work, Consumer<T> done, Consumer<Throwable> failed) {
        if (busy.get()) {
            return false;
        }
        busy.set(true);
        threads.submit(work, v -> {
            busy.set(false);
            done.accept(v);
        }, e -> {
            busy.set(false);
            failed.accept(e);
        });
        return true;
    }

    /**
     * Runs an operator's action whose answer is the line that tells what it did ({@code notice}); a failure
     * is told by {@code failed}; {@code after} runs either way (it reloads what the action changed).
     * Refused (returns false) while another action runs.
     */
    protected final boolean tell(Callable<String> work, Function<Throwable, String> failed, Runnable after) {
        return act(work, text -> {
            notice.set(text);
            after.run();
        }, e -> {
            notice.set(failed.apply(e));
            after.run();
        });
    }

    /** A failure's message, or its class name when it has none. */
    protected static String message(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** A load or refresh runs. */
    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    /** An action started here runs. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** What the last action here did, or empty. */
    public ReadOnlyStringProperty noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    /** What failed last, or empty. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /**
     * Sets {@code rows} to {@code read}, replacing only the rows that changed when there are as many: a table or list
     * set anew rebuilds every cell and drops its selection, and the reload every few seconds would take the keys the
     * operator highlighted, and the row or button under the pointer, away between press and release.
     */
    protected static <T> void replaceChanged(javafx.collections.ObservableList<T> rows, java.util.List<T> read) {
        if (read.size() != rows.size()) {
            rows.setAll(read);
            return;
        }
        for (int i = 0; i < read.size(); i++) {
            if (!read.get(i).equals(rows.get(i))) {
                rows.set(i, read.get(i));
            }
        }
    }
}
