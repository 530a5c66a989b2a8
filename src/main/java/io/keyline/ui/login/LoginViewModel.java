package io.keyline.ui.login;

import io.keyline.core.CredentialInfo;
import io.keyline.core.LoginCapture;
import io.keyline.core.operations.CapturedCookies;
import io.keyline.core.operations.LoginUrl;
import io.keyline.credentials.Cookie;
import io.keyline.credentials.CookieScope;
import io.keyline.credentials.ParsedCredential;
import io.keyline.domain.JobDefinition;
import io.keyline.text.Text;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Threads;
import io.keyline.ui.common.ViewModel;
import io.keyline.ui.credentials.CredentialInput;
import io.keyline.ui.credentials.CredentialViewModel;
import io.keyline.ui.credentials.ProbeTest;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.net.URI;
import java.util.List;

/**
 * The login window: the operator logs in on the site's own page, and the cookies of the
 * credential's domains are captured, shown masked, optionally tested, and used through the same
 * path as a pasted file ({@link CredentialViewModel#useCaptured}).
 *
 * <p>No control here; the window's browser reports where it is ({@link #navigated}) and what its
 * private jar holds ({@link #cookiesChanged}). No exposed string ever holds a cookie value: the
 * captured cookies stay in a private field until they are used or the window closes.
 */
public final class LoginViewModel extends ViewModel {

    private final ConsoleServices services;
    private final CredentialViewModel credential;
    private final String name;

    private final ReadOnlyStringWrapper loginUrl = new ReadOnlyStringWrapper(this, "loginUrl", "");
    private final ReadOnlyBooleanWrapper needsUrl = new ReadOnlyBooleanWrapper(this, "needsUrl");
    private final StringProperty urlInput = new SimpleStringProperty(this, "urlInput", "");
    private final ReadOnlyStringWrapper urlError = new ReadOnlyStringWrapper(this, "urlError", "");
    private final BooleanProperty rememberUrl = new SimpleBooleanProperty(this, "rememberUrl", true);
    private final ObservableList<String> domains = FXCollections.observableArrayList();
    private final ObservableList<String> domainsReadOnly = FXCollections.unmodifiableObservableList(domains);
    private final ReadOnlyObjectWrapper<LoginUrl.Origin> address =
            new ReadOnlyObjectWrapper<>(this, "address", LoginUrl.origin(null));
    private final ObservableList<CredentialInput.CookieRow> preview = FXCollections.observableArrayList();
    private final ObservableList<CredentialInput.CookieRow> previewReadOnly =
            FXCollections.unmodifiableObservableList(preview);
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "");
    private final ReadOnlyStringWrapper discarded = new ReadOnlyStringWrapper(this, "discarded", "");
    private final ReadOnlyBooleanWrapper canUse = new ReadOnlyBooleanWrapper(this, "canUse");
    private final ProbeTest probes = new ProbeTest();

    private List<JobDefinition> jobs = List.of();
    private CookieScope scope = CookieScope.of(null, List.of());
    private boolean urlEntered;
    /** The captured cookies were handed to the save path. */
    private boolean used;
    /** The captured cookies of the credential's domains (secret: never exposed as text). */
    private List<Cookie> taken = List.of();
    private String takenFingerprint = "";

    /**
     * @param credential the renew dialog's view model (or a new one on {@code name}): its save path is the one
     *                   used, and its outcome line says what happened
     */
    public LoginViewModel(ConsoleServices services, Threads threads, CredentialViewModel credential, String name) {
        super(threads);
        this.services = services;
        this.credential = credential;
        this.name = name;
        credential.busyProperty().addListener((o, a, b) -> updateCanUse());
        // the save refused the cookies (the site had just rejected them): the window captures a new login
        // again, or the operator saves the refused ones anyway
        credential.saveAnywayProperty().addListener((o, a, b) -> {
            if (b && used) {
                used = false;
                updateCanUse();
            }
        });
        credential.loginOpened(); // the Renew dialog's words about an earlier value are not about this login
        busy.addListener((o, a, b) -> updateCanUse()); // a test of the captured cookies runs
        urlInput.addListener((o, a, b) -> urlError.set(""));
        status.set(Text.t("ui.login.reading", name));
    }

    /** Reads the stored login URL and the jobs (in the background); then the window loads the page, or asks for it. */
    public void open() {
        load(true, () -> new LoginCapture.Start(services.credentials().info(name).map(CredentialInfo::loginUrl)
                .orElse(null), services.catalog().get().jobs()), o -> {
            jobs = o.jobs();
            start(o.loginUrl());
        }, e -> {
            error.set(Text.t("ui.login.readFailed", name, Format.error(e)));
            status.set("");
        });
    }

    /** Takes the address the operator typed (when none is stored): checked, then opened. */
    public void submitUrl() {
        String problem = LoginUrl.problem(urlInput.get() == null ? null : urlInput.get().strip());
        if (problem != null) {
            urlError.set(problem);
            return;
        }
        urlEntered = true;
        start(URI.create(urlInput.get().strip()).toString());
    }

    /** Opens the login page {@code url}, or asks for it when it is {@code null} (none is stored). */
    private void start(String url) {
        needsUrl.set(url == null);
        scope = LoginCapture.scope(name, url, jobs);
        domains.setAll(scope.domains());
        loginUrl.set(url == null ? "" : url);
        status.set(CapturedCookies.loginText(name, scope, url != null));
    }

    /** The browser is at {@code url} now: the address bar shows its origin and whether the connection is encrypted. */
    public void navigated(String url) {
        address.set(LoginUrl.origin(url));
    }

    /**
     * The window's jar holds {@code all} now (on the UI thread). The cookies of the credential's domains
     * are captured; the preview changes when they appeared or changed.
     */
    public void cookiesChanged(List<Cookie> all) {
        if (used) {
            return;
        }
        CapturedCookies c = CapturedCookies.of(scope, all);
        discarded.set(c.notTaken());
        if (c.fingerprint().equals(takenFingerprint)) {
            return;
        }
        taken = c.taken();
        takenFingerprint = c.fingerprint();
        preview.setAll(taken.stream().map(CredentialInput::row).toList());
        probes.start("");
        status.set(c.status());
        updateCanUse();
    }

    private void updateCanUse() {
        canUse.set(!taken.isEmpty() && !used && !credential.busyProperty().get() && !busy.get());
    }

    /** Stores the captured cookies, resumes the keys parked on the credential and runs them (the paste path). */
    public void use() {
        if (!canUse.get()) {
            return;
        }
        used = true;
        updateCanUse();
        status.set(CapturedCookies.usingText(name, takenFingerprint));
        String remember = urlEntered && rememberUrl.get() ? loginUrl.get() : null;
        credential.useCaptured(ParsedCredential.ofCookies(taken), remember,
                probes.testedFor(takenFingerprint));
        taken = List.of(); // the credential view model has them now; this window forgets them
    }

    /**
     * The operator's second, explicit choice after "Use these cookies" was refused because the site had just
     * rejected them: stores them all the same.
     */
    public void saveAnyway() {
        if (!credential.saveAnywayProperty().get()) {
            return;
        }
        used = true;
        updateCanUse();
        credential.saveAnyway();
    }

    /** Asks, read-only, the credential's probes whether the site accepts the captured cookies (nothing is stored). */
    public void test() {
        if (taken.isEmpty() || busy.get()) {
            return;
        }
        ParsedCredential value = ParsedCredential.ofCookies(taken);
        probes.start(Text.t("ui.login.testing", name));
        List<JobDefinition> js = jobs;
        String fingerprint = takenFingerprint;
        String login = loginUrl.get().isEmpty() ? null : loginUrl.get();
        act(() -> LoginCapture.test(name, value, js, services.clock(), login),
                tested -> {
                    // a request kept from the site for want of a cookie for its host: log in on it here, Test again
                    List<io.keyline.core.CredentialTester.Result> results =
                            io.keyline.ui.credentials.LoginParts.inLoginWindow(tested);
                    probes.answered(fingerprint, results, CapturedCookies.testSummary(results));
                },
                e -> probes.failed(Text.t("ui.login.testFailed", Format.error(e))));
    }

    /** The window closes: forget the captured cookies (unused ones change nothing). */
    public void closed() {
        taken = List.of();
        takenFingerprint = "";
        preview.clear();
        updateCanUse();
    }

    // ---------------------------------------------------------------- properties

    public String credentialName() {
        return name;
    }

    public CredentialViewModel credential() {
        return credential;
    }

    /** The page to open (stored, or entered), or empty until it is known. */
    public ReadOnlyStringProperty loginUrlProperty() {
        return loginUrl.getReadOnlyProperty();
    }

    /** No login page is stored: the window asks for one. */
    public ReadOnlyBooleanProperty needsUrlProperty() {
        return needsUrl.getReadOnlyProperty();
    }

    public StringProperty urlInputProperty() {
        return urlInput;
    }

    public ReadOnlyStringProperty urlErrorProperty() {
        return urlError.getReadOnlyProperty();
    }

    /** Store an entered login page with the cookies (default on). */
    public BooleanProperty rememberUrlProperty() {
        return rememberUrl;
    }

    /** The domains (and hosts) whose cookies are taken. */
    public ObservableList<String> domains() {
        return domainsReadOnly;
    }

    /**
     * The page shown now: its origin ({@code https://example.org}, the read-only address bar), whether the connection
     * is encrypted, and "Encrypted connection (https)" or the warning for http; an empty origin before any page.
     */
    public ReadOnlyObjectProperty<LoginUrl.Origin> addressProperty() {
        return address.getReadOnlyProperty();
    }

    /** The captured cookies, values masked. */
    public ObservableList<CredentialInput.CookieRow> preview() {
        return previewReadOnly;
    }

    /** What the window waits for, or what it captured. */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** Cookies of other domains the login set (and that are not taken), or empty. */
    public ReadOnlyStringProperty discardedProperty() {
        return discarded.getReadOnlyProperty();
    }

    /** Cookies captured, not used yet, nothing running: the "Use these cookies" button. */
    public ReadOnlyBooleanProperty canUseProperty() {
        return canUse.getReadOnlyProperty();
    }

    /** The last test of the captured cookies. */
    public ProbeTest probes() {
        return probes;
    }
}
