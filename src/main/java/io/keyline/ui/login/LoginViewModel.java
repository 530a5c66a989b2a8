package io.keyline.ui.login;

import io.keyline.core.CredentialInfo;
import io.keyline.core.CredentialTester;
import io.keyline.core.LoginCapture;
import io.keyline.credentials.Cookie;
import io.keyline.credentials.CookieScope;
import io.keyline.credentials.ParsedCredential;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.Printable;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Threads;
import io.keyline.ui.credentials.CredentialViewModel;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The login window (issue 16): the operator logs in on the site's own page, and the cookies of the
 * credential's domains are captured, shown masked, optionally tested, and used through the same
 * path as a pasted file ({@link CredentialViewModel#useCaptured}).
 *
 * <p>No control here; the window's browser reports where it is ({@link #navigated}) and what its
 * private jar holds ({@link #cookiesChanged}). No exposed string ever holds a cookie value: the
 * captured cookies stay in a private field until they are used or the window closes.
 */
public final class LoginViewModel {

    private final ConsoleServices services;
    private final Threads threads;
    private final CredentialViewModel credential;
    private final String name;

    private final ReadOnlyStringWrapper loginUrl = new ReadOnlyStringWrapper(this, "loginUrl", "");
    private final ReadOnlyBooleanWrapper needsUrl = new ReadOnlyBooleanWrapper(this, "needsUrl");
    private final StringProperty urlInput = new SimpleStringProperty(this, "urlInput", "");
    private final ReadOnlyStringWrapper urlError = new ReadOnlyStringWrapper(this, "urlError", "");
    private final BooleanProperty rememberUrl = new SimpleBooleanProperty(this, "rememberUrl", true);
    private final ObservableList<String> domains = FXCollections.observableArrayList();
    private final ObservableList<String> domainsReadOnly = FXCollections.unmodifiableObservableList(domains);
    private final ReadOnlyStringWrapper origin = new ReadOnlyStringWrapper(this, "origin", "");
    private final ReadOnlyBooleanWrapper secure = new ReadOnlyBooleanWrapper(this, "secure");
    private final ReadOnlyStringWrapper security = new ReadOnlyStringWrapper(this, "security", "");
    private final ObservableList<CredentialViewModel.CookieRow> preview = FXCollections.observableArrayList();
    private final ObservableList<CredentialViewModel.CookieRow> previewReadOnly =
            FXCollections.unmodifiableObservableList(preview);
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "");
    private final ReadOnlyStringWrapper discarded = new ReadOnlyStringWrapper(this, "discarded", "");
    private final ReadOnlyBooleanWrapper captured = new ReadOnlyBooleanWrapper(this, "captured");
    private final ReadOnlyBooleanWrapper canUse = new ReadOnlyBooleanWrapper(this, "canUse");
    private final ReadOnlyBooleanWrapper testing = new ReadOnlyBooleanWrapper(this, "testing");
    private final ReadOnlyBooleanWrapper used = new ReadOnlyBooleanWrapper(this, "used");
    private final ReadOnlyStringWrapper testSummary = new ReadOnlyStringWrapper(this, "testSummary", "");
    private final ObservableList<CredentialViewModel.TestLine> testLines = FXCollections.observableArrayList();
    private final ObservableList<CredentialViewModel.TestLine> testLinesReadOnly =
            FXCollections.unmodifiableObservableList(testLines);
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");

    private List<JobDefinition> jobs = List.of();
    private CookieScope scope = CookieScope.of(null, List.of());
    private boolean urlEntered;
    /** The captured cookies of the credential's domains (secret: never exposed as text). */
    private List<Cookie> taken = List.of();
    private String takenFingerprint = "";

    /**
     * @param credential the renew dialog's view model (or a new one on {@code name}): its save path is the one
     *                   used, and its outcome line says what happened
     */
    public LoginViewModel(ConsoleServices services, Threads threads, CredentialViewModel credential, String name) {
        this.services = services;
        this.threads = threads;
        this.credential = credential;
        this.name = name;
        credential.busyProperty().addListener((o, a, b) -> updateCanUse());
        urlInput.addListener((o, a, b) -> urlError.set(""));
        status.set("Reading the credential " + name + "…");
    }

    /** Reads the stored login URL and the jobs (in the background); then the window loads the page, or asks for it. */
    public void open() {
        threads.submit(() -> new Opened(services.credentials().info(name), services.catalog().get().jobs()), o -> {
            jobs = o.jobs();
            String url = o.info().map(CredentialInfo::loginUrl).orElse(null);
            if (url == null || url.isBlank()) {
                scope = LoginCapture.scope(name, null, jobs);
                domains.setAll(scope.domains());
                needsUrl.set(true);
                status.set("No login page is stored for " + name + ": enter the address where you log in.");
                return;
            }
            start(url);
        }, e -> {
            error.set("Could not read credential " + name + ": " + text(e));
            status.set("");
        });
    }

    private record Opened(java.util.Optional<CredentialInfo> info, List<JobDefinition> jobs) {
    }

    /** Takes the address the operator typed (when none is stored): checked, then opened. */
    public void submitUrl() {
        String problem = checkUrl(urlInput.get());
        if (problem != null) {
            urlError.set(problem);
            return;
        }
        urlEntered = true;
        needsUrl.set(false);
        start(URI.create(urlInput.get().strip()).toString());
    }

    private void start(String url) {
        scope = LoginCapture.scope(name, url, jobs);
        domains.setAll(scope.domains());
        loginUrl.set(url);
        status.set("Log in on the site's page below. Cookies of " + String.join(", ", scope.domains())
                + " will be taken; others are used during the login only.");
    }

    /** An absolute http(s) URL with a host, without spaces, control characters or a user name in it; else why not. */
    static String checkUrl(String text) {
        String u = text == null ? "" : text.strip();
        String hint = "enter an absolute http(s) address, like https://example.org/login";
        if (u.isEmpty()) {
            return hint;
        }
        if (u.chars().anyMatch(c -> c < 0x20 || c == 0x7f || c == ' ')) {
            return "the address has spaces or control characters: " + hint;
        }
        try {
            URI uri = new URI(u);
            String s = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(s.equals("http") || s.equals("https")) || uri.getHost() == null) {
                return hint;
            }
            if (uri.getRawUserInfo() != null) {
                return "the address must not carry a user name or password: " + hint;
            }
            return null;
        } catch (URISyntaxException e) {
            return hint;
        }
    }

    /** The browser is at {@code url} now: the address bar shows its origin and whether the connection is encrypted. */
    public void navigated(String url) {
        if (url == null || url.isBlank() || url.equals("about:blank")) {
            origin.set("");
            security.set("");
            secure.set(false);
            return;
        }
        try {
            URI u = new URI(url);
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            String host = u.getHost() == null ? "" : u.getHost();
            origin.set(Printable.line(scheme + "://" + host + (u.getPort() < 0 ? "" : ":" + u.getPort())));
            secure.set(scheme.equals("https"));
            security.set(scheme.equals("https") ? "Encrypted connection (https)"
                    : scheme.equals("http") ? "Not encrypted (http): only for a site on this machine or a test site"
                    : "Not a web address");
        } catch (URISyntaxException e) {
            origin.set(Printable.line(url.length() > 80 ? url.substring(0, 80) + "…" : url));
            secure.set(false);
            security.set("Unreadable address");
        }
    }

    /**
     * The window's jar holds {@code all} now (on the UI thread). The cookies of the credential's domains
     * are captured; the preview changes when they appeared or changed.
     */
    public void cookiesChanged(List<Cookie> all) {
        if (used.get()) {
            return;
        }
        List<Cookie> mine = new ArrayList<>();
        Map<String, Integer> others = new TreeMap<>();
        for (Cookie c : all) {
            if (scope.takes(c)) {
                mine.add(c);
            } else {
                others.merge(c.domain() == null ? "?" : c.domain(), 1, Integer::sum);
            }
        }
        mine.sort(Comparator.comparing(Cookie::domain, Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparing(Cookie::name));
        discarded.set(others.isEmpty() ? "" : "Not taken (used during the login only): " + others.entrySet().stream()
                .map(e -> e.getValue() + (e.getValue() == 1 ? " cookie of " : " cookies of ") + e.getKey())
                .reduce((a, b) -> a + ", " + b).orElse("") + ".");
        String fp = mine.isEmpty() ? "" : ParsedCredential.ofCookies(mine).fingerprint();
        if (fp.equals(takenFingerprint)) {
            return;
        }
        taken = List.copyOf(mine);
        takenFingerprint = fp;
        preview.setAll(mine.stream().map(LoginViewModel::row).toList());
        captured.set(!mine.isEmpty());
        testLines.clear();
        testSummary.set("");
        if (mine.isEmpty()) {
            status.set("No cookie of " + String.join(", ", scope.domains()) + " yet: log in on the page below.");
        } else {
            ParsedCredential p = ParsedCredential.ofCookies(mine);
            status.set("Captured " + mine.size() + (mine.size() == 1 ? " cookie" : " cookies") + " of "
                    + String.join(", ", scope.domains()) + " · fingerprint " + p.fingerprint()
                    + p.earliestExpiry().map(t -> " · earliest expiry " + Format.time(t)).orElse(" · session cookies")
                    + ". Use them, or go on logging in.");
        }
        updateCanUse();
    }

    private static CredentialViewModel.CookieRow row(Cookie c) {
        String d = c.domain() == null ? "any host" : (c.includeSubdomains() ? "." : "") + c.domain();
        return new CredentialViewModel.CookieRow(c.name(), "***", d, c.path(), c.secure(), c.httpOnly(), c.expires());
    }

    private void updateCanUse() {
        canUse.set(!taken.isEmpty() && !used.get() && !credential.busyProperty().get() && !testing.get());
    }

    /** Stores the captured cookies, resumes the keys parked on the credential and runs them (the paste path). */
    public void use() {
        if (!canUse.get()) {
            return;
        }
        used.set(true);
        updateCanUse();
        status.set("Using the captured cookies for " + name + " (fingerprint " + takenFingerprint
                + "): the outcome shows below. You can close this window.");
        String remember = urlEntered && rememberUrl.get() ? loginUrl.get() : null;
        credential.useCaptured(ParsedCredential.ofCookies(taken), remember);
        taken = List.of(); // the credential view model has them now; this window forgets them
    }

    /** Asks, read-only, the credential's probes whether the site accepts the captured cookies (nothing is stored). */
    public void test() {
        if (taken.isEmpty() || testing.get()) {
            return;
        }
        ParsedCredential value = ParsedCredential.ofCookies(taken);
        testing.set(true);
        updateCanUse();
        testLines.clear();
        testSummary.set("Testing the captured cookies with the probes of " + name + "…");
        List<JobDefinition> js = jobs;
        threads.submit(() -> LoginCapture.test(name, value, js, services.clock()), results -> {
            testing.set(false);
            updateCanUse();
            testLines.setAll(results.stream()
                    .map(r -> new CredentialViewModel.TestLine(r.job(), r.step(), r.verdict(), r.message())).toList());
            testSummary.set(summary(results));
        }, e -> {
            testing.set(false);
            updateCanUse();
            testSummary.set("Test failed: " + text(e));
        });
    }

    static String summary(List<CredentialTester.Result> results) {
        long accepted = results.stream().filter(r -> r.verdict() == CredentialTester.Verdict.ACCEPTED).count();
        long rejected = results.stream().filter(r -> r.verdict() == CredentialTester.Verdict.REJECTED).count();
        long tested = results.stream().filter(r -> r.verdict() != CredentialTester.Verdict.NOT_TESTED).count();
        if (tested == 0) {
            return "No step that uses these cookies has an http probe to test them with.";
        }
        if (rejected > 0) {
            return "The site rejected the captured cookies on " + rejected + " of " + tested
                    + " probes: finish logging in, then test again.";
        }
        return accepted == tested ? "The site accepts the captured cookies (" + tested
                + (tested == 1 ? " probe)." : " probes).")
                : "Accepted by " + accepted + " of " + tested + " probes; the others gave no answer.";
    }

    /** The window closes: forget the captured cookies (unused ones change nothing). */
    public void closed() {
        taken = List.of();
        takenFingerprint = "";
        preview.clear();
        captured.set(false);
        updateCanUse();
    }

    private static String text(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
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

    /** {@code https://example.org} of the page shown now (read-only address bar). */
    public ReadOnlyStringProperty originProperty() {
        return origin.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty secureProperty() {
        return secure.getReadOnlyProperty();
    }

    /** "Encrypted connection (https)" or the warning for http. */
    public ReadOnlyStringProperty securityProperty() {
        return security.getReadOnlyProperty();
    }

    /** The captured cookies, values masked. */
    public ObservableList<CredentialViewModel.CookieRow> preview() {
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

    public ReadOnlyBooleanProperty capturedProperty() {
        return captured.getReadOnlyProperty();
    }

    /** Cookies captured, not used yet, nothing running: the "Use these cookies" button. */
    public ReadOnlyBooleanProperty canUseProperty() {
        return canUse.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty testingProperty() {
        return testing.getReadOnlyProperty();
    }

    /** The captured cookies were handed to the save path. */
    public ReadOnlyBooleanProperty usedProperty() {
        return used.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty testSummaryProperty() {
        return testSummary.getReadOnlyProperty();
    }

    public ObservableList<CredentialViewModel.TestLine> testLines() {
        return testLinesReadOnly;
    }

    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }
}
