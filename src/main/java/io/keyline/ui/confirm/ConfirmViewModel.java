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
import io.keyline.text.Text;
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
    private final ReadOnlyStringWrapper whyTitle = new ReadOnlyStringWrapper(Text.t("ui.confirm.whyItWaits"));
    private final ReadOnlyStringWrapper sentTitle = new ReadOnlyStringWrapper(Text.t("ui.confirm.whatWillBeSent"));
    private final ReadOnlyStringWrapper reasonHeadline = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper reason = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper evidenceText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper probeAnswer = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper payloadText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper payloadHash = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper finished = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper canConfirm = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper heldForReview = new ReadOnlyBooleanWrapper();
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
        job.set(Objects.requireNonNull(jobName));
        key.set(Objects.requireNonNull(keyName));
        title.set(jobName + " · " + keyName);
        whyTitle.set(Text.t("ui.confirm.whyItWaits"));
        sentTitle.set(Text.t("ui.confirm.whatWillBeSent"));
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
        progress.set(Text.t("ui.confirm.confirming", step));
        AtomicBoolean confirmed = new AtomicBoolean();
        return act(() -> services.operations().confirmAndRun().confirmAndRun(jobDefinition(j), k, note, hash,
                services.engine(), c -> {
                    confirmed.set(true);
                    threads.ui(() -> progress.set(Text.t("ui.confirm.running", step)));
                }), this::ran, e -> {
                    progress.set("");
                    if (confirmed.get()) {
                        finished.set(true);
                        problem.set(Text.t("ui.confirm.runIncomplete", message(e)));
                        update();
                        onChanged.run();
                    } else {
                        problem.set(Text.t("ui.confirm.notConfirmed", message(e)));
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
            problem.set(Text.t("ui.confirm.markDoneNeedsNote"));
            return false;
        }
        String j = job.get();
        String k = key.get();
        problem.set("");
        progress.set(Text.t("ui.confirm.marking", k));
        return act(() -> services.operations().actions().markDone(jobDefinition(j), k, note.strip()), this::markedDone,
                e -> {
                    progress.set("");
                    problem.set(Text.t("ui.confirm.notMarked", message(e)));
                    update();
                    reload();
                });
    }

    /** After confirm and run: what happened replaces why it waited (the probe asked, the answer, the new state). */
    private void ran(ConfirmAndRun.Outcome o) {
        ConfirmAndRun.StepResult r = o.result();
        KeyRecord after = o.after();
        whyTitle.set(Text.t("ui.confirm.whatHappened"));
        sentTitle.set(Text.t(r != null && r.sent() ? "ui.confirm.whatWasSent" : "ui.confirm.whatWasNotSent"));
        reasonHeadline.set(afterHeadline(after, r));
        reason.set(after.state() == KeyState.DONE ? "" : Words.keyMessage(after));
        evidenceText.set(r == null ? "" : evidence(r));
        ConfirmAndRun.Preview shown = info.get();
        boolean hasProbe = shown != null && shown.step() != null && shown.step().probe() != null;
        probeAnswer.set(probeText(r, hasProbe));
        finished(after, resultText(after, r));
    }

    /** After mark done: nothing was sent; what was shown about the wait no longer applies. */
    private void markedDone(KeyRecord rec) {
        whyTitle.set(Text.t("ui.confirm.whatHappened"));
        sentTitle.set(Text.t("ui.confirm.whatWasNotSent"));
        reasonHeadline.set(rec.state() == KeyState.DONE ? Text.t("ui.confirm.markedDone")
                : Text.t("ui.confirm.markedDoneNow", Words.stateLower(rec.state())));
        reason.set("");
        evidenceText.set("");
        probeAnswer.set("");
        finished(rec, Text.t("ui.confirm.youMarkedDone"));
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
            case DONE -> Text.t(sent ? "ui.confirm.after.doneSent" : "ui.confirm.after.doneNotSent");
            case NEEDS_CONFIRMATION -> Text.t(sent ? "ui.confirm.after.confirmSent" : "ui.confirm.after.confirmNotSent");
            case NEEDS_CREDENTIAL -> Text.t(sent ? "ui.confirm.after.loginSent" : "ui.confirm.after.loginNotSent");
            case FAILED -> Text.t(sent ? "ui.confirm.after.failedSent" : "ui.confirm.after.failedNotSent");
            case RETRY_WAIT -> Text.t(sent ? "ui.confirm.after.retrySent" : "ui.confirm.after.retryNotSent");
            default -> Text.t("ui.confirm.after.other", Words.stateLower(after.state()));
        };
    }

    /** The probe asked before the step in that run, with its time; empty when the step has no probe. */
    static String probeText(ConfirmAndRun.StepResult r, boolean hasProbe) {
        if (r == null || r.probe() == null) {
            return hasProbe ? Text.t("ui.confirm.probe.notAsked") : "";
        }
        String at = io.keyline.core.operations.EvidenceText.time(r.probeAt());
        String checked = r.probeChecked();
        return switch (r.probe()) {
            case ABSENT -> checked.isEmpty() ? Text.t("ui.confirm.probe.absent", at)
                    : Text.t("ui.confirm.probe.absentChecked", at, checked);
            case PRESENT -> checked.isEmpty() ? Text.t("ui.confirm.probe.present", at)
                    : Text.t("ui.confirm.probe.presentChecked", at, checked);
            case INCONCLUSIVE, REFUSED -> Text.t("ui.confirm.probe.unclear", at);
            case AUTH -> Text.t("ui.confirm.probe.rejected", at);
            case NOT_ASKED -> Text.t("ui.confirm.probe.notAsked");
        };
    }

    /** The step's answer: its HTTP status and what it created, or the site's answer; the key's message else. */
    static String resultText(KeyRecord after, ConfirmAndRun.StepResult r) {
        if (r == null || !r.sent()) {
            return after.state() == KeyState.DONE ? Text.t("ui.confirm.nothingSent") : Words.keyMessage(after);
        }
        if (after.state() == KeyState.DONE) {
            String values = values(r.outputs());
            if (r.status() != null) {
                return values.isEmpty() ? Text.t("ui.confirm.http", String.valueOf(r.status()))
                        : Text.t("ui.confirm.httpAnswer", String.valueOf(r.status()), values);
            }
            if (r.exitCode() != null) {
                return values.isEmpty() ? Text.t("ui.confirm.exit", String.valueOf(r.exitCode()))
                        : Text.t("ui.confirm.exitValues", String.valueOf(r.exitCode()), values);
            }
            return values.isEmpty() ? Text.t("ui.confirm.succeeded") : Text.t("ui.confirm.succeededValues", values);
        }
        if (r.status() != null) {
            String answer = r.siteAnswer();
            return answer.isEmpty() ? Text.t("ui.confirm.http", String.valueOf(r.status()))
                    : Text.t("ui.confirm.httpAnswer", String.valueOf(r.status()), answer);
        }
        return Words.keyMessage(after);
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
        return io.keyline.core.operations.EvidenceText.withProbe(r.evidence(), null, r.probeEvidence());
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
        canMarkDone.set(idle && OperatorMoves.of(p.record()).allows(Trigger.MARK_DONE));
        heldForReview.set(p != null && !finished.get() && OperatorMoves.of(p.record()).heldForReview());
    }

    private JobDefinition jobDefinition(String name) {
        return services.catalog().get().job(name).orElseThrow(() -> new OperatorException(
                Text.t("ui.confirm.jobNotLoaded", name)));
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

    /** "What will be sent"; once the dialog acted, "What was sent", or "What was not sent" when nothing was. */
    public ReadOnlyStringProperty sentTitleProperty() {
        return sentTitle.getReadOnlyProperty();
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

    /**
     * Whether the key waits for its job's review, not for a confirmation: a plan of the job lets it go on (Plan…),
     * confirming it is refused.
     */
    public ReadOnlyBooleanProperty heldForReviewProperty() {
        return heldForReview.getReadOnlyProperty();
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
