package io.keyline.ui.shell;

import io.keyline.core.CredentialAlerts;
import io.keyline.core.jobfile.JobFileError;
import io.keyline.text.Text;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Threads;
import io.keyline.ui.common.ViewModel;
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

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The main window's state: jobs, the attention inbox, running keys and credential alerts, loaded
 * together in the background. Keys that newly need attention are reported for notifications.
 */
public final class ConsoleViewModel extends ViewModel implements io.keyline.ui.inbox.InboxViewModel.Source {

    private final ConsoleServices services;
    private final ObservableList<Snapshot.JobSummary> jobs = FXCollections.observableArrayList();
    private final ObservableList<Snapshot.JobSummary> jobsReadOnly = FXCollections.unmodifiableObservableList(jobs);
    private final ObservableList<io.keyline.core.operations.Attention.Item> attention = FXCollections.observableArrayList();
    private final ObservableList<io.keyline.core.operations.Attention.Item> attentionReadOnly = FXCollections.unmodifiableObservableList(attention);
    private final ObservableList<Snapshot.RunningKey> running = FXCollections.observableArrayList();
    private final ObservableList<Snapshot.RunningKey> runningReadOnly = FXCollections.unmodifiableObservableList(running);
    private final ObservableList<CredentialAlerts.Alert> alerts = FXCollections.observableArrayList();
    private final ObservableList<CredentialAlerts.Alert> alertsReadOnly = FXCollections.unmodifiableObservableList(alerts);
    private final ObservableList<JobFileError> invalid = FXCollections.observableArrayList();
    private final ObservableList<JobFileError> invalidReadOnly = FXCollections.unmodifiableObservableList(invalid);
    private final ReadOnlyIntegerWrapper attentionCount = new ReadOnlyIntegerWrapper();
    private final ReadOnlyObjectWrapper<Instant> lastRefresh = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper demoOffered = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper demoMessage = new ReadOnlyStringWrapper("");
    private Set<String> known;
    private Consumer<List<io.keyline.core.operations.Attention.Item>> onNewAttention = items -> { };

    public ConsoleViewModel(ConsoleServices services, Threads threads) {
        super(threads);
        this.services = services;
    }

    /** Called (on the UI thread) with keys that entered an attention state since the last refresh. */
    public void onNewAttention(Consumer<List<io.keyline.core.operations.Attention.Item>> listener) {
        this.onNewAttention = listener;
    }

    /** Reloads everything in the background; a refresh asked for while one runs is done right after it. */
    @Override
    public void refresh() {
        refresh(() -> SnapshotLoader.load(services), this::apply,
                e -> error.set(Text.t("ui.console.readFailed", e.getMessage())));
    }

    void apply(Snapshot s) {
        jobs.setAll(s.jobs());
        attention.setAll(s.attention());
        running.setAll(s.running());
        alerts.setAll(s.alerts());
        invalid.setAll(s.invalid());
        attentionCount.set(s.waitingKeys());
        lastRefresh.set(s.at());
        error.set("");
        // only where there is nothing of the operator's own: no job file at all (valid or not) and no keys
        demoOffered.set(services.demo() != null && s.jobs().isEmpty() && s.invalid().isEmpty() && s.keys() == 0);
        Set<String> now = new HashSet<>();
        s.attention().stream().filter(i -> i.waitingKeys() > 0)
                .forEach(i -> i.keys().forEach(k -> now.add(i.id() + "|" + k + "|" + i.state())));
        if (known != null) {
            List<io.keyline.core.operations.Attention.Item> fresh = s.attention().stream()
                    .filter(i -> i.waitingKeys() > 0)
                    .filter(i -> i.keys().stream().anyMatch(k -> !known.contains(i.id() + "|" + k + "|" + i.state())))
                    .toList();
            if (!fresh.isEmpty()) {
                onNewAttention.accept(fresh);
            }
        }
        known = now;
    }

    /**
     * Creates the demo workspace in the background (real runs against the sandbox site, several
     * seconds), then refreshes. Only while it is offered: no job files and no keys yet.
     */
    @Override
    public void createDemo() {
        if (!demoOffered.get() || busy.get()) {
            return;
        }
        demoMessage.set(Text.t("ui.console.creatingDemo"));
        act(() -> services.demo().get(), summary -> {
            demoOffered.set(false);
            demoMessage.set(summary);
            refresh();
        }, e -> {
            demoMessage.set(Text.t("ui.console.demoFailed", e.getMessage()));
            refresh();
        });
    }

    /** Whether the empty console offers the demo workspace. */
    @Override
    public ReadOnlyBooleanProperty demoOfferedProperty() {
        return demoOffered.getReadOnlyProperty();
    }

    @Override
    public ReadOnlyBooleanProperty demoRunningProperty() {
        return busyProperty(); // creating the demo is the one action started here
    }

    /** What the demo did (or why it could not), empty before. */
    @Override
    public ReadOnlyStringProperty demoMessageProperty() {
        return demoMessage.getReadOnlyProperty();
    }

    public ObservableList<Snapshot.JobSummary> jobs() {
        return jobsReadOnly;
    }

    @Override
    public ObservableList<io.keyline.core.operations.Attention.Item> attention() {
        return attentionReadOnly;
    }

    public ObservableList<Snapshot.RunningKey> running() {
        return runningReadOnly;
    }

    public ObservableList<CredentialAlerts.Alert> alerts() {
        return alertsReadOnly;
    }

    public ObservableList<JobFileError> invalidJobFiles() {
        return invalidReadOnly;
    }

    public ReadOnlyIntegerProperty attentionCountProperty() {
        return attentionCount.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Instant> lastRefreshProperty() {
        return lastRefresh.getReadOnlyProperty();
    }

    @Override
    public ConsoleServices services() {
        return services;
    }

    @Override
    public Threads threads() {
        return threads;
    }
}
