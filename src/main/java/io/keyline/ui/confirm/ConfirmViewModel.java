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

    static final String WHY_IT_WAITS = "Why it waits";
    static final String WHAT_HAPPENED = "What happened";

    private final ConsoleServices services;
    private final ReadOnlyStringWrapper job = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper key = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<ConfirmAndRun.Preview> info = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper whyTitle = new ReadOnlyStringWrapper(WHY_IT_WAITS);
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
        whyTitle.set(WHY_IT_WAITS);
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
                }), this::ran, e -> {
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
        return act(() -> services.operations().actions().markDone(jobDefinition(j), k, note.strip()), this::markedDone,
                e -> {
                    progress.set("");
                    problem.set("Not marked done: " + message(e));
                    update();
                    reload();
                });
    }

    /** After confirm and run: what happened replaces why it waited (the probe asked, the answer, the new state). */
    private void ran(ConfirmAndRun.Outcome o) {
        ConfirmAndRun.StepResult r = o.result();
        KeyRecord after = o.after();
        whyTitle.set(WHAT_HAPPENED);
        reasonHeadline.set(afterHeadline(after, r));
        reason.set(after.state() == KeyState.DONE ? "" : Words.message(after.message()));
        evidenceText.set(r == null ? "" : evidence(r));
        ConfirmAndRun.Preview shown = info.get();
        boolean hasProbe = shown != null && shown.step() != null && shown.step().probe() != null;
        probeAnswer.set(probeText(r, hasProbe));
        finished(after, resultText(after, r));
    }

    /** After mark done: nothing was sent; what was shown about the wait no longer applies. */
    private void markedDone(KeyRecord rec) {
        whyTitle.set(WHAT_HAPPENED);
        reasonHeadline.set(rec.state() == KeyState.DONE ? "Marked done: the key is done, and nothing was sent."
                : "Marked done, but the key is now " + Words.stateLower(rec.state()) + ".");
        reason.set("");
        evidenceText.set("");
        probeAnswer.set("");
        finished(rec, "You marked it done; nothing was sent.");
    }

    private void finished(KeyRecord rec, String text) {
        progress.set("");
        finished.set(true);
        outcome.set(rec);
        outcomeText.set(text);
        update();
        onChanged.run();
    }

    /** What the key came to after confirm and run, as one sentence. */
    static String afterHeadline(KeyRecord after, ConfirmAndRun.StepResult r) {
        boolean sent = r != null && r.sent();
        return switch (after.state()) {
            case DONE -> sent ? "Sent once: the step succeeded and the key is done."
                    : "Nothing was sent: the probe found the effect already there, so the step is recorded done.";
            case NEEDS_CONFIRMATION -> sent
                    ? "It was sent, but its outcome is unknown again: check the site, then confirm or mark done."
                    : "Nothing was sent: the key waits for a confirmation again.";
            case NEEDS_CREDENTIAL -> sent ? "The site rejected the login: the key waits for a new login."
                    : "Nothing was sent: the key waits for a new login.";
            case FAILED -> sent ? "The site refused it: the key failed." : "Nothing was sent: the key failed.";
            case RETRY_WAIT -> sent ? "It did not get through: a retry is scheduled."
                    : "Nothing was sent yet: a retry is scheduled.";
            default -> "The key is now " + Words.stateLower(after.state()) + ".";
        };
    }

    /** The probe asked before the step in that run, with its time; empty when the step has no probe. */
    static String probeText(ConfirmAndRun.StepResult r, boolean hasProbe) {
        if (r == null || r.probe() == null) {
            return hasProbe ? "The probe was not asked in this run." : "";
        }
        String at = io.keyline.core.operations.EvidenceText.time(r.probeAt());
        String checked = r.probeChecked();
        return switch (r.probe()) {
            case ABSENT -> checked.isEmpty()
                    ? String.format("The probe answered at %s, just before sending: the effect was not there yet.", at)
                    : String.format("The probe answered at %s, just before sending: the effect was not there yet "
                    + "(it checked %s).", at, checked);
            case PRESENT -> checked.isEmpty()
                    ? String.format("The probe answered at %s: the effect was already there.", at)
                    : String.format("The probe answered at %s: the effect was already there (it checked %s).", at,
                    checked);
            case INCONCLUSIVE -> String.format("The probe gave no clear answer at %s: the step was not sent.", at);
            case AUTH -> String.format("The probe was answered at %s with a rejected login: the step was not sent.",
                    at);
            case NOT_ASKED -> "The probe was not asked in this run.";
        };
    }

    /** The step's answer: its HTTP status and what it created, or the site's answer; the key's message else. */
    static String resultText(KeyRecord after, ConfirmAndRun.StepResult r) {
        if (r == null || !r.sent()) {
            return after.state() == KeyState.DONE ? "Nothing was sent." : Words.message(after.message());
        }
        if (after.state() == KeyState.DONE) {
            String values = values(r.outputs());
            if (r.status() != null) {
                return values.isEmpty() ? String.format("The site answered HTTP %d.", r.status())
                        : String.format("The site answered HTTP %d: %s", r.status(), values);
            }
            if (r.exitCode() != null) {
                return values.isEmpty() ? String.format("The command ended with exit code %d.", r.exitCode())
                        : String.format("The command ended with exit code %d: %s", r.exitCode(), values);
            }
            return values.isEmpty() ? "The step succeeded." : String.format("The step succeeded: %s", values);
        }
        if (r.status() != null) {
            String answer = r.siteAnswer();
            return answer.isEmpty() ? String.format("The site answered HTTP %d.", r.status())
                    : String.format("The site answered HTTP %d: %s", r.status(), answer);
        }
        return Words.message(after.message());
    }

    /** "id = 17, location = /api/articles/17" (values cut). */
    private static String values(java.util.Map<String, String> outputs) {
        java.util.List<String> parts = new java.util.ArrayList<>();
        outputs.forEach((k, v) -> {
            if (parts.size() < 6) {
                parts.add(k + " = " + io.keyline.core.operations.EvidenceText.oneLine(v, 80));
            }
        });
        return String.join(", ", parts);
    }

    /** The step's evidence, then the probe's. */
    private static String evidence(ConfirmAndRun.StepResult r) {
        StringBuilder ev = new StringBuilder(io.keyline.core.operations.EvidenceText.format(r.evidence()));
        if (r.probeEvidence() != null) {
            ev.append(ev.isEmpty() ? "" : "\n\n").append("probe\n")
                    .append(io.keyline.core.operations.EvidenceText.format(r.probeEvidence()));
        }
        return ev.toString();
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

    /** "Why it waits", and "What happened" once the dialog did its work. */
    public ReadOnlyStringProperty whyTitleProperty() {
        return whyTitle.getReadOnlyProperty();
    }

    /** One sentence: confirm: always, or the unknown outcome; after the action, what it came to. */
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

    /**
     * What the action came to, beside the new state's chip: the site's answer and what it created ("The site
     * answered HTTP 201: id = 17, …"), the site's refusal, or the key's message.
     */
    public ReadOnlyStringProperty outcomeTextProperty() {
        return outcomeText.getReadOnlyProperty();
    }
}
