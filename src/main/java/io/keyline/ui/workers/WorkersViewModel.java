package io.keyline.ui.workers;

import io.keyline.core.WorkerRegistry;
import io.keyline.domain.Printable;
import io.keyline.text.Text;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Threads;
import io.keyline.ui.common.ViewModel;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.time.Instant;
import java.util.List;

/**
 * The Workers page: every process registered on the state (workers, consoles, runs), where
 * it runs, since when, its last heartbeat, whether it is alive, and the keys it holds. Read in the
 * background; the rows are plain text, ready to show.
 */
public final class WorkersViewModel extends ViewModel {

    /**
     * One process.
     *
     * @param id        lease-owner id ({@code host/pid/nonce})
     * @param host      host name
     * @param what      kind and pid, e.g. {@code worker · pid 4242}, and its build where the processes run more than one
     * @param since     when it registered (local time)
     * @param heartbeat its last heartbeat, relative ({@code 3 s ago})
     * @param status    {@code alive}, {@code gone} or {@code stopped}
     * @param keys      the keys it holds, {@code job key, …}, or empty
     * @param alive     alive now
     */
    public record Row(String id, String host, String what, String since, String heartbeat, String status, String keys,
                      boolean alive) {
    }

    private final ConsoleServices services;
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ObservableList<Row> rowsReadOnly = FXCollections.unmodifiableObservableList(rows);
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper("");

    public WorkersViewModel(ConsoleServices services, Threads threads) {
        super(threads);
        this.services = services;
    }

    /** Reloads in the background; a refresh asked for while one runs is done right after it. */
    public void refresh() {
        refresh(() -> {
            Instant now = services.clock().instant();
            return new Read(now, services.operations().workers(now));
        }, r -> apply(r.workers(), r.at()),
                e -> error.set(Text.t("ui.workers.readFailed", Printable.line(String.valueOf(e.getMessage())))));
    }

    private record Read(Instant at, List<WorkerRegistry.Worker> workers) {
    }

    void apply(List<WorkerRegistry.Worker> list, Instant now) {
        // the build each process runs matters where they differ (a machine not yet upgraded): then each row says its
        // own, else the summary says the one they all run, and the rows keep their room for what differs
        List<String> versions = list.stream().map(WorkerRegistry.Worker::version).filter(java.util.Objects::nonNull)
                .distinct().toList();
        rows.setAll(list.stream().map(w -> row(w, now, versions.size() > 1)).toList());
        long alive = list.stream().filter(WorkerRegistry.Worker::alive).count();
        long keys = list.stream().filter(WorkerRegistry.Worker::alive).mapToLong(w -> w.keys().size()).sum();
        summary.set(Text.t("ui.workers.summary", alive, keys)
                + (list.size() > alive ? " · " + Text.t("ui.workers.summaryGone", list.size() - alive) : "")
                + (versions.size() == 1 ? " · " + Text.t("ui.workers.version", Printable.line(versions.get(0))) : ""));
        error.set("");
    }

    /** @param version whether the row names the build the process runs (when the processes run more than one) */
    static Row row(WorkerRegistry.Worker w, Instant now, boolean version) {
        String status = w.alive() ? Text.t("ui.workers.alive") : w.stopped() != null
                ? Text.t("ui.workers.stopped", Format.relative(w.stopped(), now)) : Text.t("ui.workers.gone");
        String keys = w.keys().isEmpty() ? "" : String.join(Text.t("common.listSeparator"),
                w.keys().subList(0, Math.min(5, w.keys().size())))
                + (w.keys().size() > 5 ? " " + Text.t("common.andMore", w.keys().size() - 5) : "");
        return new Row(w.id(), Printable.line(w.host()), Text.t("ui.workers.process", kind(w.kind()), String.valueOf(w.pid()))
                + (!version || w.version() == null ? "" : " · " + Printable.line(w.version())), Format.shortTime(w.since()),
                ago(w.heartbeat(), now), status, Printable.line(keys), w.alive());
    }

    /** A heartbeat's age: seconds while it is fresh (beats come every few seconds), then as elsewhere. */
    static String ago(Instant t, Instant now) {
        long s = java.time.Duration.between(t, now).toSeconds();
        if (s < 120) {
            return Text.t("ui.workers.secondsAgo", Math.max(0, s));
        }
        return Format.relative(t, now);
    }

    /** A process's kind ("worker", "console", "run") in the operator's words. */
    static String kind(String kind) {
        return Text.has("ui.workers.kind." + kind) ? Text.t("ui.workers.kind." + kind) : kind;
    }

    public ObservableList<Row> rows() {
        return rowsReadOnly;
    }

    public ReadOnlyStringProperty summaryProperty() {
        return summary.getReadOnlyProperty();
    }
}
