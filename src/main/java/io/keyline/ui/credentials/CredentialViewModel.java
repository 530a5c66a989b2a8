package io.keyline.ui.credentials;

import io.keyline.text.Text;
import io.keyline.core.CredentialTester;
import io.keyline.core.operations.RenewAndResume;
import io.keyline.credentials.ParsedCredential;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Threads;
import io.keyline.ui.common.ViewModel;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.List;
import java.util.Objects;

/**
 * The Renew dialog: what is stored now, where to log in again and which keys will
 * resume; the pasted or dropped login ({@link CredentialInput}: parsed, masked); "Save and resume"
 * through the core's {@link RenewAndResume} ("3 parked keys resumed, 3 of 3 completed"); and a
 * read-only test of the stored credential. Storing, resuming, running and testing run in the background
 * ({@link Threads}); no exposed string holds a secret except the input's text.
 */
public final class CredentialViewModel extends ViewModel {

    private final ConsoleServices services;
    private final CredentialInput input;
    private final StringProperty name = new SimpleStringProperty(this, "name", "");
    private final BooleanProperty runResumed = new SimpleBooleanProperty(this, "runResumed", true);
    private final ReadOnlyBooleanWrapper nameEditable = new ReadOnlyBooleanWrapper(this, "nameEditable", true);
    /** What is wrong with the name ("enter a name for the credential"), or empty when it is fine. */
    private String nameError = "";
    private final ReadOnlyStringWrapper shownNameError = new ReadOnlyStringWrapper(this, "shownNameError", "");
    /** The name was edited, or something that needs it was tried: its error, if any, is shown from now on. */
    private boolean nameTouched;
    private final ReadOnlyBooleanWrapper canSave = new ReadOnlyBooleanWrapper(this, "canSave");
    private final ReadOnlyStringWrapper current = new ReadOnlyStringWrapper(this, "current", "");
    private final ReadOnlyStringWrapper loginUrl = new ReadOnlyStringWrapper(this, "loginUrl", "");
    private final ReadOnlyStringWrapper waitingKeys = new ReadOnlyStringWrapper(this, "waitingKeys", "");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper(this, "message", "");
    private final ReadOnlyBooleanWrapper messageWaits = new ReadOnlyBooleanWrapper(this, "messageWaits");
    private final ReadOnlyIntegerWrapper completedCount = new ReadOnlyIntegerWrapper(this, "completedCount", -1);
    private final ReadOnlyBooleanWrapper saved = new ReadOnlyBooleanWrapper(this, "saved");
    private final ObservableList<String> review = FXCollections.observableArrayList();
    private final ObservableList<String> reviewReadOnly = FXCollections.unmodifiableObservableList(review);
    private final ProbeTest probes = new ProbeTest();
    private final ReadOnlyBooleanWrapper saveAnyway = new ReadOnlyBooleanWrapper(this, "saveAnyway");
    /** A value the site just rejected, kept (never shown) until the operator saves it anyway or drops it. */
    private ParsedCredential refused;
    private String refusedLoginUrl;

    public CredentialViewModel(ConsoleServices services, Threads threads) {
        super(threads);
        this.services = services;
        this.input = new CredentialInput(threads);
        input.readingProperty().addListener((o, a, b) -> updateCanSave());
        // another value: the offer to save the refused one anyway ends
        input.textProperty().addListener((o, a, b) -> dropRefused());
        name.addListener((o, a, b) -> {
            nameTouched = true;
            checkName();
            updateCanSave();
        });
        busy.addListener((o, a, b) -> updateCanSave());
        checkName();
    }

    /** The pasted or dropped login, parsed and masked. */
    public CredentialInput input() {
        return input;
    }

    /**
     * Renews the stored credential {@code existing} (its name is then fixed and its type preset), or
     * starts a new one when {@code null}. Reads what is stored (never the value), its login URL and the
     * keys parked on it, in the background.
     */
    public void open(String existing) {
        if (existing == null) {
            nameEditable.set(true);
            return;
        }
        name.set(existing);
        nameEditable.set(false);
        load(true, () -> services.operations().renewAndResume().waiting(existing, services.catalog().get().jobs()),
                this::showWaiting,
                e -> error.set(Text.t("ui.credential.readFailed", existing, Format.error(e))));
    }

    /** Reads again what is stored and which keys wait (after a save or a test changed it); a failure changes nothing. */
    private void readAgain(String n) {
        load(false, () -> services.operations().renewAndResume().waiting(n, services.catalog().get().jobs()),
                this::showWaiting, e -> { });
    }

    private void showWaiting(RenewAndResume.Waiting w) {
        w.storedType().ifPresent(input.typeProperty()::set); // else keep the default
        current.set(w.storedText());
        loginUrl.set(w.loginUrl() == null ? "" : w.loginUrl());
        // after a save whose keys wait for their job's review, "no key waits for it" would read as nothing to do
        waitingKeys.set(w.parked().isEmpty() && !review.isEmpty() ? "" : w.resumeText());
    }

    private void checkName() {
        String n = name.get() == null ? "" : name.get().strip();
        nameError = Objects.requireNonNullElse(RenewAndResume.nameProblem(n), "");
        shownNameError.set(nameTouched ? nameError : "");
    }

    /**
     * Save is offered for a valid input while nothing runs, unless the name's error is already shown: a name not
     * touched yet lets the operator press Save, which then shows what the name lacks.
     */
    private void updateCanSave() {
        canSave.set(input.readingProperty().get().valid() && shownNameError.get().isEmpty() && !busy.get());
    }

    /**
     * Something that needs the name is tried (save, test, log in): whether the name is fine; when it is not, its
     * error shows from now on.
     */
    public boolean nameReady() {
        if (!nameTouched) {
            nameTouched = true;
            checkName();
            updateCanSave();
        }
        return nameError.isEmpty();
    }

    /**
     * Stores the credential, resumes every key parked on it and then, when {@link #runResumedProperty()}
     * is on, runs those keys at once (per job) and reports how many completed.
     */
    public void save() {
        ParsedCredential value = input.parsed();
        if (!canSave.get() || value == null || !nameReady()) {
            return;
        }
        store(value, null, probes.testedFor(value.fingerprint()), false);
    }

    /**
     * The second, explicit choice after a save was refused because the site just rejected the value: stores it
     * all the same (and resumes the parked keys).
     */
    public void saveAnyway() {
        if (refused == null || busy.get()) {
            return;
        }
        store(refused, refusedLoginUrl, null, true);
    }

    /**
     * A login window opens on this dialog to get a new value: what the dialog said about the value it refused
     * (or could not save) belongs to that value, not to the login about to happen, so it is cleared and the offer
     * to save the refused value anyway ends.
     */
    public void loginOpened() {
        if (busy.get()) {
            return;
        }
        error.set("");
        message.set("");
        messageWaits.set(false);
        dropRefused();
    }

    private void dropRefused() {
        refused = null;
        refusedLoginUrl = null;
        saveAnyway.set(false);
    }

    /**
     * The cookies a login window captured take the same path as a pasted file: stored,
     * the parked keys resumed and (when {@link #runResumedProperty()} is on) run.
     *
     * @param value    the captured cookies
     * @param loginUrl a login URL to remember with them, or {@code null} to keep the stored one
     * @param tested   what the login window's test of these very cookies found, or {@code null}: a value the
     *                 site just rejected is not stored without {@link #saveAnyway}
     */
    public void useCaptured(ParsedCredential value, String loginUrl, List<CredentialTester.Result> tested) {
        if (busy.get() || !nameReady()) {
            return;
        }
        store(value, loginUrl, tested, false);
    }

    /**
     * Stores the value unless the site just rejected it ({@code tested}, or the stored value it rejected), then
     * resumes the parked keys and runs them; a refused value waits for {@link #saveAnyway}. {@code anyway}: the
     * operator chose to store it all the same.
     */
    private void store(ParsedCredential value, String loginUrl, List<CredentialTester.Result> tested,
                       boolean anyway) {
        String n = name.get().strip();
        boolean run = runResumed.get();
        busy.set(true);
        error.set("");
        message.set(Text.t("ui.credential.saving"));
        messageWaits.set(false);
        review.clear();
        probes.start("");
        saveAnyway.set(false);
        RenewAndResume op = services.operations().renewAndResume();
        List<io.keyline.domain.JobDefinition> jobs = services.catalog().get().jobs();
        threads.submit(() -> anyway ? new RenewAndResume.Saving(op.renew(n, value, loginUrl, services.user(), jobs),
                null) : op.renewUnlessRejected(n, value, loginUrl, services.user(), jobs, tested), saving -> {
            if (saving.refused()) {
                busy.set(false);
                message.set("");
                messageWaits.set(false);
                error.set(saving.refusal());
                refused = value;
                refusedLoginUrl = loginUrl;
                saveAnyway.set(true);
                return;
            }
            RenewAndResume.Renewed r = saving.renewed();
            refused = null;
            refusedLoginUrl = null;
            saved.set(true);
            nameEditable.set(false);
            name.set(n);
            current.set(RenewAndResume.stored(r.info()));
            input.clear();
            if (!run || r.resumed().isEmpty()) {
                busy.set(false);
                say(RenewAndResume.saved(r, null));
                return;
            }
            message.set(RenewAndResume.running(r));
            messageWaits.set(false);
            threads.submit(() -> op.run(r.resumed(), j -> services.catalog().get().job(j), services.engine()), ran -> {
                busy.set(false);
                completedCount.set((int) ran.done());
                RenewAndResume.Saved out = RenewAndResume.saved(r, ran); // not a success: in the error line only
                say(out);
                if (!out.error().isEmpty()) {
                    error.set(out.error());
                }
                readAgain(n);
            }, e -> {
                busy.set(false);
                say(RenewAndResume.saved(r, null));
                error.set(RenewAndResume.runFailed(e));
            });
        }, e -> {
            busy.set(false);
            message.set("");
            messageWaits.set(false);
            error.set(RenewAndResume.notSaved(n, e));
        });
    }

    /** The saved line, and whether it tells of keys that still wait for a person. */
    private void say(RenewAndResume.Saved saved) {
        message.set(saved.message());
        messageWaits.set(saved.waits());
        review.setAll(saved.review());
    }

    /**
     * Asks, read-only, the probes of the steps that use the credential whether the site accepts it: the
     * pasted value when there is one (nothing is stored or resumed), else the stored credential.
     */
    public void test() {
        String n = name.get() == null ? "" : name.get().strip();
        if (busy.get() || !nameReady()) {
            return;
        }
        error.set("");
        ParsedCredential pasted = input.parsed();
        if (pasted != null) {
            probes.start(Text.t("ui.credential.testingPasted"));
            String login = loginUrl.get().isEmpty() ? null : loginUrl.get();
            act(() -> io.keyline.core.LoginCapture.test(n, pasted, services.catalog().get().jobs(),
                    services.clock(), login), tested -> {
                List<CredentialTester.Result> results = LoginParts.inDialog(tested);
                probes.answered(pasted.fingerprint(), results, Text.t("ui.credential.pastedResult",
                        io.keyline.core.operations.LoginCheck.summary(results)));
            }, e -> {
                probes.failed("");
                error.set(Text.t("ui.credential.testFailed", Format.error(e)));
            });
            return;
        }
        probes.start(Text.t("ui.credential.testingStored", n));
        RenewAndResume op = services.operations().renewAndResume();
        act(() -> op.test(n, services.catalog().get().jobs(), services.clock()), t -> {
            if (!t.resumed().isEmpty()) { // accepted again: the breaker closed, as keyline credentials test closes it
                readAgain(n);
            }
            RenewAndResume.Tested said = new RenewAndResume.Tested(LoginParts.inDialog(t.results()), t.resumed(),
                    t.reviewFirst());
            probes.answered(null, said.results(), said.plainSummary());
        }, e -> {
            probes.failed("");
            error.set(RenewAndResume.testFailed(n, e));
        });
    }

    /** Reads a dropped or opened file into the input. */
    public void loadFile(java.nio.file.Path file) {
        error.set("");
        input.loadFile(file, error::set);
    }

    /** The credential's name (editable for a new one). */
    public StringProperty nameProperty() {
        return name;
    }

    /** Run the resumed keys right after saving (default on). */
    public BooleanProperty runResumedProperty() {
        return runResumed;
    }

    public ReadOnlyBooleanProperty nameEditableProperty() {
        return nameEditable.getReadOnlyProperty();
    }

    /**
     * The name's error as the dialog shows it: only once the name was edited or something that needs it was tried
     * ({@link #nameReady()}), never when the dialog has just opened.
     */
    public ReadOnlyStringProperty shownNameErrorProperty() {
        return shownNameError.getReadOnlyProperty();
    }

    /** Valid input, a valid name, nothing running: the Save button's enablement. */
    public ReadOnlyBooleanProperty canSaveProperty() {
        return canSave.getReadOnlyProperty();
    }

    /** What is stored now (type, fingerprint, expiry, last result), or empty. */
    public ReadOnlyStringProperty currentProperty() {
        return current.getReadOnlyProperty();
    }

    /** Where to log in again ({@code --login-url}), or empty. */
    public ReadOnlyStringProperty loginUrlProperty() {
        return loginUrl.getReadOnlyProperty();
    }

    /** "3 keys will resume: daily-article 2026-11-29, …", or that none waits. */
    public ReadOnlyStringProperty waitingKeysProperty() {
        return waitingKeys.getReadOnlyProperty();
    }

    /** The outcome line: "Saved. 3 parked keys resumed, 3 of 3 completed." */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /**
     * The outcome line tells of resumed keys that still wait for a person (their job's review) before they run:
     * it is shown as a wait, not as a success.
     */
    public ReadOnlyBooleanProperty messageWaitsProperty() {
        return messageWaits.getReadOnlyProperty();
    }

    /** Resumed keys that ran to DONE after the last save, or -1. */
    public ReadOnlyIntegerProperty completedCountProperty() {
        return completedCount.getReadOnlyProperty();
    }

    /** The jobs whose resumed keys wait for their review after the last save: each has its plan to look at. */
    public ObservableList<String> review() {
        return reviewReadOnly;
    }

    public ReadOnlyBooleanProperty savedProperty() {
        return saved.getReadOnlyProperty();
    }

    /** The last test of the pasted or the stored value. */
    public ProbeTest probes() {
        return probes;
    }

    /** A save was refused because the site just rejected the value: "Save anyway" is offered. */
    public ReadOnlyBooleanProperty saveAnywayProperty() {
        return saveAnyway.getReadOnlyProperty();
    }
}
