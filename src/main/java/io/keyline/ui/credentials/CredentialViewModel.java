package io.keyline.ui.credentials;

import io.keyline.core.CredentialInfo;
import io.keyline.core.CredentialTester;
import io.keyline.core.OperatorException;
import io.keyline.core.RunReport;
import io.keyline.credentials.Cookie;
import io.keyline.credentials.CredentialFormatException;
import io.keyline.credentials.CredentialParser;
import io.keyline.credentials.CredentialType;
import io.keyline.credentials.MasterKeyException;
import io.keyline.credentials.ParsedCredential;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Threads;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The credential dialog (issue view 7): paste or drop a login, see it parsed (values masked) or the
 * parser's inline error, save it, resume the keys parked on it and run them, and test the stored one.
 *
 * <p>Parsing is pure and fast, so it runs on the UI thread as the text changes; storing, resuming,
 * running and testing go through {@link Threads#submit}. No exposed string ever holds a secret value
 * except {@link #inputProperty()}, which is what the operator typed.
 */
public final class CredentialViewModel {

    /** Same rule as {@code keyline credentials set NAME}. */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    /** Files bigger than this are not a cookie export. */
    static final long MAX_FILE_BYTES = 1 << 20;
    static final String MASK = "***";

    /**
     * One parsed cookie (or the token or header of a bearer/header credential) as the preview shows it.
     *
     * @param name     cookie or header name
     * @param value    always {@value #MASK}
     * @param domain   domain ({@code .example.com} includes subdomains), or "any host"
     * @param path     path
     * @param secure   https only
     * @param httpOnly hidden from scripts
     * @param expires  expiry, or {@code null} for a session cookie (or a token)
     */
    public record CookieRow(String name, String value, String domain, String path, boolean secure, boolean httpOnly,
                            Instant expires) {
    }

    /** What a read-only probe said about the stored credential for one step. */
    public record TestLine(String job, String step, CredentialTester.Verdict verdict, String message) {
        public String text() {
            return job + "/" + step + ": " + verdictText(verdict) + (message == null || message.isBlank() ? ""
                    : " (" + message + ")");
        }
    }

    private final ConsoleServices services;
    private final Threads threads;

    private final StringProperty name = new SimpleStringProperty(this, "name", "");
    private final ObjectProperty<CredentialType> type = new SimpleObjectProperty<>(this, "type", CredentialType.COOKIE);
    private final StringProperty domain = new SimpleStringProperty(this, "domain", "");
    private final StringProperty input = new SimpleStringProperty(this, "input", "");
    private final BooleanProperty runResumed = new SimpleBooleanProperty(this, "runResumed", true);

    private final ReadOnlyBooleanWrapper nameEditable = new ReadOnlyBooleanWrapper(this, "nameEditable", true);
    private final ReadOnlyStringWrapper nameError = new ReadOnlyStringWrapper(this, "nameError", "");
    private final ObservableList<CookieRow> preview = FXCollections.observableArrayList();
    private final ObservableList<CookieRow> previewReadOnly = FXCollections.unmodifiableObservableList(preview);
    private final ReadOnlyObjectWrapper<Instant> earliestExpiry = new ReadOnlyObjectWrapper<>(this, "earliestExpiry");
    private final ReadOnlyStringWrapper fingerprint = new ReadOnlyStringWrapper(this, "fingerprint", "");
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper(this, "summary", "");
    private final ReadOnlyStringWrapper parseError = new ReadOnlyStringWrapper(this, "parseError", "");
    private final ReadOnlyBooleanWrapper valid = new ReadOnlyBooleanWrapper(this, "valid");
    private final ReadOnlyBooleanWrapper canSave = new ReadOnlyBooleanWrapper(this, "canSave");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(this, "busy");
    private final ReadOnlyStringWrapper loadedFile = new ReadOnlyStringWrapper(this, "loadedFile", "");
    private final ReadOnlyStringWrapper current = new ReadOnlyStringWrapper(this, "current", "");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper(this, "message", "");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper(this, "error", "");
    private final ReadOnlyIntegerWrapper resumedCount = new ReadOnlyIntegerWrapper(this, "resumedCount", -1);
    private final ReadOnlyIntegerWrapper completedCount = new ReadOnlyIntegerWrapper(this, "completedCount", -1);
    private final ReadOnlyBooleanWrapper saved = new ReadOnlyBooleanWrapper(this, "saved");
    private final ObservableList<TestLine> testResults = FXCollections.observableArrayList();
    private final ObservableList<TestLine> testResultsReadOnly = FXCollections.unmodifiableObservableList(testResults);
    private final ReadOnlyStringWrapper testSummary = new ReadOnlyStringWrapper(this, "testSummary", "");

    private ParsedCredential parsed;
    /** Set while {@link #loadFile} replaces the input, so the "loaded from" note survives that change. */
    private boolean loadingFile;

    public CredentialViewModel(ConsoleServices services, Threads threads) {
        this.services = services;
        this.threads = threads;
        input.addListener((o, a, b) -> {
            if (!loadingFile) {
                loadedFile.set("");
            }
            reparse();
        });
        type.addListener((o, a, b) -> reparse());
        domain.addListener((o, a, b) -> reparse());
        name.addListener((o, a, b) -> {
            checkName();
            updateCanSave();
        });
        busy.addListener((o, a, b) -> updateCanSave());
        checkName();
    }

    /**
     * Renews the stored credential {@code existing} (its name is then fixed and its type preset), or
     * starts a new one when {@code null}. Reads the stored description (never the value) in the background.
     */
    public void open(String existing) {
        if (existing == null) {
            nameEditable.set(true);
            return;
        }
        name.set(existing);
        nameEditable.set(false);
        threads.submit(() -> services.credentials().info(existing), info -> {
            if (info.isPresent()) {
                CredentialInfo i = info.get();
                try {
                    type.set(CredentialType.fromJsonName(i.type()));
                } catch (IllegalArgumentException e) {
                    // keep the default
                }
                current.set(describe(i));
            } else {
                current.set("Not set yet" + " — keys that use " + existing + " wait for it.");
            }
        }, e -> error.set("Could not read credential " + existing + ": " + text(e)));
    }

    static String describe(CredentialInfo i) {
        StringBuilder sb = new StringBuilder("Stored now: ").append(i.type()).append(", fingerprint ").append(i.fingerprint());
        if (i.cookies() > 0) {
            sb.append(", ").append(i.cookies()).append(i.cookies() == 1 ? " cookie" : " cookies");
        }
        if (i.earliestExpiry() != null) {
            sb.append(", expires ").append(Format.time(i.earliestExpiry()));
        }
        if (i.lastResult() != null) {
            sb.append(", last ").append(i.lastResult());
            if (i.lastUsedAt() != null) {
                sb.append(' ').append(Format.time(i.lastUsedAt()));
            }
        }
        if (i.parkedKeys() > 0) {
            sb.append(" — ").append(i.parkedKeys()).append(i.parkedKeys() == 1 ? " key waits" : " keys wait")
                    .append(" for it");
        }
        return sb.toString();
    }

    // ---------------------------------------------------------------- parsing

    private void reparse() {
        String text = input.get();
        preview.clear();
        parsed = null;
        earliestExpiry.set(null);
        fingerprint.set("");
        summary.set("");
        if (text == null || text.isBlank()) {
            parseError.set("");
            valid.set(false);
            updateCanSave();
            return;
        }
        String d = domain.get() == null || domain.get().isBlank() ? null : domain.get().strip();
        try {
            ParsedCredential p = CredentialParser.parse(type.get(), text, d);
            parsed = p;
            preview.setAll(rows(p));
            earliestExpiry.set(p.earliestExpiry().orElse(null));
            fingerprint.set(p.fingerprint());
            summary.set(summaryOf(p));
            parseError.set("");
            valid.set(true);
        } catch (CredentialFormatException e) {
            parseError.set(e.getMessage());
            valid.set(false);
        }
        updateCanSave();
    }

    static List<CookieRow> rows(ParsedCredential p) {
        return switch (p.type()) {
            case COOKIE -> p.cookies().stream().map(CredentialViewModel::row).toList();
            case BEARER -> List.of(new CookieRow("Authorization", "Bearer " + MASK, "hosts of the steps", "/", false,
                    false, null));
            case HEADER -> List.of(new CookieRow(p.headerName(), MASK, "hosts of the steps", "/", false, false, null));
        };
    }

    private static CookieRow row(Cookie c) {
        String d = c.domain() == null ? "any host" : (c.includeSubdomains() ? "." : "") + c.domain();
        return new CookieRow(c.name(), MASK, d, c.path(), c.secure(), c.httpOnly(), c.expires());
    }

    static String summaryOf(ParsedCredential p) {
        StringBuilder sb = new StringBuilder();
        switch (p.type()) {
            case COOKIE -> sb.append(p.cookies().size()).append(p.cookies().size() == 1 ? " cookie" : " cookies");
            case BEARER -> sb.append("bearer token");
            case HEADER -> sb.append("header ").append(p.headerName());
        }
        sb.append(" · fingerprint ").append(p.fingerprint());
        p.earliestExpiry().ifPresentOrElse(t -> sb.append(" · earliest expiry ").append(Format.time(t)),
                () -> sb.append(p.type() == CredentialType.COOKIE ? " · session cookies (no expiry)" : ""));
        return sb.toString();
    }

    private void checkName() {
        String n = name.get() == null ? "" : name.get().strip();
        if (n.isEmpty()) {
            nameError.set("enter a name for the credential");
        } else if (!NAME.matcher(n).matches()) {
            nameError.set("the name must match [A-Za-z0-9][A-Za-z0-9._-]{0,63}");
        } else {
            nameError.set("");
        }
    }

    private void updateCanSave() {
        canSave.set(valid.get() && nameError.get().isEmpty() && !busy.get());
    }

    /** Reads a dropped or opened {@code cookies.txt} or JSON export into the input (in the background). */
    public void loadFile(Path file) {
        error.set("");
        threads.submit(() -> {
            long size = Files.size(file);
            if (size > MAX_FILE_BYTES) {
                throw new IOException("the file is " + size / 1024 + " KB: too big for a cookie export");
            }
            // a bounded read: a device or a pipe says size 0 and never ends
            try (java.io.InputStream in = Files.newInputStream(file)) {
                return io.keyline.credentials.CredentialParser.readInput(in, file.getFileName().toString());
            }
        }, text -> {
            loadingFile = true;
            try {
                loadedFile.set(file.getFileName().toString());
                input.set(text);
            } finally {
                loadingFile = false;
            }
        }, e -> error.set("Could not read " + file.getFileName() + ": " + text(e)));
    }

    /** Forgets the input (after saving, or when the operator clears it). */
    public void clearInput() {
        input.set("");
        loadedFile.set("");
    }

    // ---------------------------------------------------------------- save, resume, run

    /**
     * Stores the credential, resumes every key parked on it and then, when {@link #runResumedProperty()}
     * is on, runs those keys at once (per job) and reports how many completed.
     */
    public void save() {
        if (!canSave.get() || parsed == null) {
            return;
        }
        store(parsed, null);
    }

    /**
     * Issue 16: the cookies a login window captured take the same path as a pasted file: stored,
     * the parked keys resumed and (when {@link #runResumedProperty()} is on) run.
     *
     * @param value    the captured cookies
     * @param loginUrl a login URL to remember with them, or {@code null} to keep the stored one
     */
    public void useCaptured(ParsedCredential value, String loginUrl) {
        if (busy.get() || !nameError.get().isEmpty()) {
            return;
        }
        store(value, loginUrl);
    }

    private void store(ParsedCredential value, String loginUrl) {
        String n = name.get().strip();
        boolean run = runResumed.get();
        busy.set(true);
        error.set("");
        message.set("Saving…");
        testResults.clear();
        testSummary.set("");
        threads.submit(() -> {
            CredentialInfo info = services.credentials().set(n, value, loginUrl, services.user());
            List<KeyRecord> resumed = services.actions().credentialUpdated(n, info.fingerprint());
            return new Saved(services.credentials().info(n).orElse(info), resumed);
        }, s -> {
            saved.set(true);
            nameEditable.set(false);
            name.set(n);
            current.set(describe(s.info()));
            resumedCount.set(s.resumed().size());
            clearInput();
            String text = "Saved. " + s.resumed().size() + (s.resumed().size() == 1 ? " parked key" : " parked keys")
                    + " resumed.";
            if (!run || s.resumed().isEmpty()) {
                busy.set(false);
                message.set(text + (s.resumed().isEmpty() || run ? "" : " They run on the next run."));
                return;
            }
            message.set(text + " Running " + (s.resumed().size() == 1 ? "it" : "them") + "…");
            runResumed(n, text, s.resumed());
        }, e -> {
            busy.set(false);
            message.set("");
            error.set(e instanceof MasterKeyException ? text(e)
                    : "Not saved (the stored credential " + n + " is unchanged): " + text(e));
        });
    }

    private record Saved(CredentialInfo info, List<KeyRecord> resumed) {
    }

    private void reloadCurrent(String credential) {
        threads.submit(() -> services.credentials().info(credential), i -> i.ifPresent(x -> current.set(describe(x))),
                e -> { /* the outcome line already says what happened */ });
    }

    private void runResumed(String credential, String savedText, List<KeyRecord> resumed) {
        Map<String, List<String>> byJob = new LinkedHashMap<>();
        for (KeyRecord k : resumed) {
            byJob.computeIfAbsent(k.job(), j -> new ArrayList<>()).add(k.key());
        }
        threads.submit(() -> {
            var catalog = services.catalog().get();
            List<KeyRecord> finals = new ArrayList<>();
            List<String> missing = new ArrayList<>();
            for (Map.Entry<String, List<String>> e : byJob.entrySet()) {
                JobDefinition job = catalog.job(e.getKey()).orElse(null);
                if (job == null) {
                    missing.add(e.getKey());
                    continue;
                }
                RunReport r = services.engine().run(job, e.getValue());
                finals.addAll(r.keys());
            }
            return new Ran(finals, missing);
        }, r -> {
            busy.set(false);
            reloadCurrent(credential);
            long done = r.finals().stream().filter(k -> k.state() == KeyState.DONE).count();
            completedCount.set((int) done);
            message.set(savedText + " " + done + " of " + resumed.size() + " completed" + rest(r.finals())
                    + (r.missingJobs().isEmpty() ? "" : "; job files not found: " + String.join(", ", r.missingJobs()))
                    + ".");
        }, e -> {
            busy.set(false);
            message.set(savedText);
            error.set("Running the resumed keys failed: " + text(e) + " (they stay pending for the next run)");
        });
    }

    private record Ran(List<KeyRecord> finals, List<String> missingJobs) {
    }

    /** ", 1 needs credential" for keys that did not complete. */
    private static String rest(List<KeyRecord> finals) {
        Map<KeyState, Integer> other = new LinkedHashMap<>();
        for (KeyRecord k : finals) {
            if (k.state() != KeyState.DONE) {
                other.merge(k.state(), 1, Integer::sum);
            }
        }
        StringBuilder sb = new StringBuilder();
        other.forEach((s, n) -> sb.append(", ").append(n).append(' ').append(Format.state(s).toLowerCase(Locale.ROOT)));
        return sb.toString();
    }

    // ---------------------------------------------------------------- test

    /** Asks, read-only, the probes of the steps that use the stored credential whether the site accepts it. */
    public void test() {
        String n = name.get() == null ? "" : name.get().strip();
        if (n.isEmpty() || busy.get()) {
            return;
        }
        busy.set(true);
        error.set("");
        testResults.clear();
        testSummary.set("Testing the stored credential " + n + "…");
        threads.submit(() -> new CredentialTester(services.credentials(), services.clock())
                .test(n, services.catalog().get().jobs()), results -> {
            busy.set(false);
            List<TestLine> lines = results.stream()
                    .map(r -> new TestLine(r.job(), r.step(), r.verdict(), r.message())).toList();
            testResults.setAll(lines);
            testSummary.set(testSummary(n, results));
        }, e -> {
            busy.set(false);
            testSummary.set("");
            error.set(e instanceof OperatorException ? "Cannot test " + n + ": " + text(e) : "Test failed: " + text(e));
        });
    }

    static String testSummary(String name, List<CredentialTester.Result> results) {
        long accepted = results.stream().filter(r -> r.verdict() == CredentialTester.Verdict.ACCEPTED).count();
        long rejected = results.stream().filter(r -> r.verdict() == CredentialTester.Verdict.REJECTED).count();
        long tested = results.stream().filter(r -> r.verdict() != CredentialTester.Verdict.NOT_TESTED).count();
        if (tested == 0) {
            return "No step that uses " + name + " has an http probe to test with.";
        }
        if (rejected > 0) {
            return "Rejected by " + rejected + " of " + tested + " probe" + (tested == 1 ? "" : "s") + ": renew it.";
        }
        if (accepted == tested) {
            return "Accepted by " + (tested == 1 ? "the probe" : "all " + tested + " probes") + ".";
        }
        return "Accepted by " + accepted + " of " + tested + "; the others gave no answer.";
    }

    static String verdictText(CredentialTester.Verdict v) {
        return switch (v) {
            case ACCEPTED -> "accepted";
            case REJECTED -> "rejected";
            case NO_ANSWER -> "no answer";
            case NOT_TESTED -> "not tested";
        };
    }

    private static String text(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    // ---------------------------------------------------------------- properties

    /** The credential's name (editable for a new one). */
    public StringProperty nameProperty() {
        return name;
    }

    public ObjectProperty<CredentialType> typeProperty() {
        return type;
    }

    /** Host a {@code Cookie:} header line belongs to; empty = any host the steps send to. */
    public StringProperty domainProperty() {
        return domain;
    }

    /** What the operator pasted (the only property that holds the secret). */
    public StringProperty inputProperty() {
        return input;
    }

    /** Run the resumed keys right after saving (default on). */
    public BooleanProperty runResumedProperty() {
        return runResumed;
    }

    public ReadOnlyBooleanProperty nameEditableProperty() {
        return nameEditable.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty nameErrorProperty() {
        return nameError.getReadOnlyProperty();
    }

    /** The parsed cookies (or token/header), values masked. */
    public ObservableList<CookieRow> preview() {
        return previewReadOnly;
    }

    public ReadOnlyObjectProperty<Instant> earliestExpiryProperty() {
        return earliestExpiry.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty fingerprintProperty() {
        return fingerprint.getReadOnlyProperty();
    }

    /** "2 cookies · fingerprint 1a2b3c4d · earliest expiry …". */
    public ReadOnlyStringProperty summaryProperty() {
        return summary.getReadOnlyProperty();
    }

    /** The parser's message (line or index, field, problem), or empty. */
    public ReadOnlyStringProperty parseErrorProperty() {
        return parseError.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty validProperty() {
        return valid.getReadOnlyProperty();
    }

    /** Valid input, a valid name, nothing running: the Save button's enablement. */
    public ReadOnlyBooleanProperty canSaveProperty() {
        return canSave.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** Name of the file the input was loaded from, or empty when it was typed or pasted. */
    public ReadOnlyStringProperty loadedFileProperty() {
        return loadedFile.getReadOnlyProperty();
    }

    /** What is stored now (type, fingerprint, expiry, parked keys), or empty. */
    public ReadOnlyStringProperty currentProperty() {
        return current.getReadOnlyProperty();
    }

    /** The outcome line: "Saved. N parked keys resumed. M of N completed." */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** Keys resumed by the last save, or -1. */
    public ReadOnlyIntegerProperty resumedCountProperty() {
        return resumedCount.getReadOnlyProperty();
    }

    /** Resumed keys that ran to DONE after the last save, or -1. */
    public ReadOnlyIntegerProperty completedCountProperty() {
        return completedCount.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty savedProperty() {
        return saved.getReadOnlyProperty();
    }

    public ObservableList<TestLine> testResults() {
        return testResultsReadOnly;
    }

    public ReadOnlyStringProperty testSummaryProperty() {
        return testSummary.getReadOnlyProperty();
    }
}
