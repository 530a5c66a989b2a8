package io.keyline.ui.confirm;

import io.keyline.core.OperatorException;
import io.keyline.core.operations.ConfirmAndRun;
import io.keyline.core.operations.Words;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Threads;
import io.keyline.ui.common.ViewModel;
import io.keyline.domain.OperatorMoves;
import io.keyline.domain.Trigger;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The confirm dialog's state: why a key waits, exactly what its unsafe step will send (secrets
 * masked) and the payload hash the confirmation is bound to, all read by the core's
 * {@link ConfirmAndRun}. {@link #confirmAndRun} confirms that payload and runs the key once; it never
 * executes twice.
 */
public final class ConfirmViewModel extends ViewModel {

    private final ConsoleServices services;
    private final ReadOnlyStringWrapper job = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper key = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<ConfirmAndRun.Preview> info = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper reasonHeadline = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper reason = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper evidenceText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper probeAnswer = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper payloadText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper payloadHash = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper finished = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper canConfirm = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper canMarkDone = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper progress = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<KeyRecord> outcome = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper outcomeText = new ReadOnlyStringWrapper("");
    private Runnable onChanged = () -> { };

    public ConfirmViewModel(ConsoleServices services, Threads threads) {
        super(threads);
        this.services = services;
        loading.addListener((o, a, b) -> update());
        busy.addListener((o, a, b) -> update());
    }

    /** Called on the UI thread after this dialog changed the key (confirmed and ran it, or marked it done). */
    public void setOnChanged(Runnable listener) {
        this.onChanged = listener == null ? () -> { } : listener;
    }

    /** Loads why the key waits and what its step will send, in the background. */
    public void load(String jobName, String keyName) {
        job.set(Objects.requireNonNull(jobName, "job"));
        key.set(Objects.requireNonNull(keyName, "key"));
        title.set(jobName + " · " + keyName);
        finished.set(false);
        outcome.set(null);
        outcomeText.set("");
        problem.set("");
        progress.set("");
        reload();
    }

    private void reload() {
        String j = job.get();
        String k = key.get();
        load(true, () -> services.operations().confirmAndRun().preview(jobDefinition(j), k), this::apply, e -> {
            info.set(null);
            problem.set(message(e));
            update();
        });
    }

    /**
     * Confirms exactly the payload that was shown and runs the key once in the background.
     * Ignored while loading or busy, after success, or when the key cannot be confirmed.
     *
     * @return whether the confirmation was started
     */
    public boolean confirmAndRun(String note) {
        ConfirmAndRun.Preview p = info.get();
        if (!canConfirm.get() || p == null) {
            return false;
        }
        String j = job.get();
        String k = key.get();
        String hash = p.payload().hash();
        String step = p.step().id();
        problem.set("");
        progress.set("Confirming " + step + "…");
        AtomicBoolean confirmed = new AtomicBoolean();
        return act(() -> services.operations().confirmAndRun().confirmAndRun(jobDefinition(j), k, note, hash,
                services.engine(), c -> {
                    confirmed.set(true);
                    threads.ui(() -> progress.set("Running " + step + "…"));
                }).after(), this::finished, e -> {
                    progress.set("");
                    if (confirmed.get()) {
                        finished.set(true);
                        problem.set("Confirmed, but the run did not complete: " + message(e));
                        update();
                        onChanged.run();
                    } else {
                        problem.set("Not confirmed: " + message(e));
                        update();
                        reload();
                    }
                });
    }

    /**
     * Records that the effect already happened (the key becomes DONE without running the step).
     * Refused with a validation message when the note is blank.
     *
     * @return whether the action was started
     */
    public boolean markDone(String note) {
        if (!canMarkDone.get()) {
            return false;
        }
        if (note == null || note.isBlank()) {
            problem.set("Mark done needs a note: say what you checked (for example \"the article is live\").");
            return false;
        }
        String j = job.get();
        String k = key.get();
        problem.set("");
        progress.set("Marking " + k + " done…");
        return act(() -> services.operations().actions().markDone(jobDefinition(j), k, note.strip()), this::finished,
                e -> {
                    progress.set("");
                    problem.set("Not marked done: " + message(e));
                    update();
                    reload();
                });
    }

    private void finished(KeyRecord rec) {
        progress.set("");
        finished.set(true);
        outcome.set(rec);
        outcomeText.set(outcomeText(rec));
        update();
        onChanged.run();
    }

    /** "Done", or the state in plain words and the key's message. */
    static String outcomeText(KeyRecord rec) {
        if (rec.state() == KeyState.DONE) {
            return Words.state(KeyState.DONE);
        }
        return Words.state(rec.state()) + (rec.message() == null || rec.message().isBlank() ? ""
                : ": " + io.keyline.domain.Printable.line(rec.message()));
    }

    private void apply(ConfirmAndRun.Preview p) {
        info.set(p);
        String step = p.step() == null ? "" : p.step().id();
        title.set(job.get() + " · " + key.get() + (step.isEmpty() ? "" : " · " + step));
        reasonHeadline.set(p.headline());
        reason.set(p.message());
        evidenceText.set(p.evidenceText());
        probeAnswer.set(p.probeAnswer());
        payloadText.set(p.payload() == null ? "" : p.payload().text());
        payloadHash.set(p.payload() == null || p.payload().hash() == null ? "" : p.payload().hash());
        update();
    }

    private void update() {
        ConfirmAndRun.Preview p = info.get();
        boolean idle = !loading.get() && !busy.get() && !finished.get() && p != null;
        // with a rejected login the breaker sends nothing: confirming would only park the key again
        canConfirm.set(idle && p.confirmable() && p.rejectedCredential() == null);
        canMarkDone.set(idle && OperatorMoves.of(p.record().state()).allows(Trigger.MARK_DONE));
    }

    private JobDefinition jobDefinition(String name) {
        return services.catalog().get().job(name).orElseThrow(() -> new OperatorException(
                "job " + name + " is not loaded (its file is missing or invalid)"));
    }

    public ReadOnlyStringProperty jobProperty() {
        return job.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty keyProperty() {
        return key.getReadOnlyProperty();
    }

    /** Everything read about the key, or {@code null} before a load or when it failed. */
    public ReadOnlyObjectProperty<ConfirmAndRun.Preview> infoProperty() {
        return info.getReadOnlyProperty();
    }

    /** "daily-article · 2026-11-29 · publish". */
    public ReadOnlyStringProperty titleProperty() {
        return title.getReadOnlyProperty();
    }

    /** One sentence: confirm: always, or the unknown outcome. */
    public ReadOnlyStringProperty reasonHeadlineProperty() {
        return reasonHeadline.getReadOnlyProperty();
    }

    /** The key's message. */
    public ReadOnlyStringProperty reasonProperty() {
        return reason.getReadOnlyProperty();
    }

    /** The unknown outcome's evidence (and the probe's), monospace; empty without. */
    public ReadOnlyStringProperty evidenceTextProperty() {
        return evidenceText.getReadOnlyProperty();
    }

    /** The probe's latest answer in plain words, or a sentence about the missing probe. */
    public ReadOnlyStringProperty probeAnswerProperty() {
        return probeAnswer.getReadOnlyProperty();
    }

    /** What will be sent, monospace, secrets masked. */
    public ReadOnlyStringProperty payloadTextProperty() {
        return payloadText.getReadOnlyProperty();
    }

    /** The payload hash a confirmation binds, or empty when nothing can be confirmed. */
    public ReadOnlyStringProperty payloadHashProperty() {
        return payloadHash.getReadOnlyProperty();
    }

    /** The dialog did its work (confirmed and ran, or marked done); nothing more can be executed from it. */
    public ReadOnlyBooleanProperty finishedProperty() {
        return finished.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty canConfirmProperty() {
        return canConfirm.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty canMarkDoneProperty() {
        return canMarkDone.getReadOnlyProperty();
    }

    /** Validation message or refusal ("the payload … changed since it was shown"), or empty. */
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    /** "Running publish…" while busy, else empty. */
    public ReadOnlyStringProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    /** The key's record after the action, or {@code null}. */
    public ReadOnlyObjectProperty<KeyRecord> outcomeProperty() {
        return outcome.getReadOnlyProperty();
    }

    /** "Done", or the new state and its message ("Needs confirmation: …"). */
    public ReadOnlyStringProperty outcomeTextProperty() {
        return outcomeText.getReadOnlyProperty();
    }
}
