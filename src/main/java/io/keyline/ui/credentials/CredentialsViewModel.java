package io.keyline.ui.credentials;

import io.keyline.core.CredentialAlerts;
import io.keyline.core.CredentialInfo;
import io.keyline.core.CredentialTester;
import io.keyline.text.Text;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Threads;
import io.keyline.ui.common.ViewModel;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The Credentials page: every stored credential (never its value), the credentials that keys wait
 * for but that are not set, the alerts, and a read-only test per credential.
 */
public final class CredentialsViewModel extends ViewModel {

    /** How a row is flagged; {@code NONE} for a healthy credential. */
    public enum Warning { NONE, EXPIRES_SOON, EXPIRED, REJECTED, MISSING }

    /**
     * One row of the table: a stored credential, or a missing one that keys are parked on.
     *
     * @param info    the stored credential, or {@code null} when it is missing
     * @param name    its name
     * @param parked  keys parked on it
     * @param warning the most serious warning
     * @param alert   what its alerts say without its name (the row shows it), joined, or empty
     * @param test    the last test's outcome ("accepted by p/publish"), or empty
     * @param testing a test is running
     * @param tested  what the last test found, over its steps: rejected by one, else accepted by one, else no
     *                answer; {@code null} before a test (or when it could not run)
     * @param held    the keys the last test resumed wait for their job's review before they run
     */
    public record Row(CredentialInfo info, String name, int parked, Warning warning, String alert, String test,
                      boolean testing, CredentialTester.Verdict tested, boolean held) {

        /**
         * How the status reads: a problem (rejected, or a warning and no test), a wait (accepted, but the keys it
         * resumed wait for a person's review), a test it passed, or neither.
         */
        public Tone tone() {
            if (tested == CredentialTester.Verdict.REJECTED || tested == CredentialTester.Verdict.NOT_SENT
                    || warning != Warning.NONE && test.isEmpty()) {
                return Tone.PROBLEM;
            }
            if (tested == CredentialTester.Verdict.ACCEPTED) {
                return held ? Tone.WAITING : Tone.GOOD;
            }
            return Tone.QUIET;
        }

        public boolean missing() {
            return info == null;
        }

        public String type() {
            return info == null ? "" : info.type();
        }

        public String fingerprint() {
            return info == null ? "" : info.fingerprint();
        }

        public int cookies() {
            return info == null ? 0 : info.cookies();
        }

        public Instant earliestExpiry() {
            return info == null ? null : info.earliestExpiry();
        }

        public Instant lastUsedAt() {
            return info == null ? null : info.lastUsedAt();
        }

        public String lastResult() {
            return info == null ? "" : info.lastResult() == null ? "" : info.lastResult();
        }

        Row withTest(String text, boolean running, CredentialTester.Verdict verdict, boolean waits) {
            return new Row(info, name, parked, warning, alert, text, running, verdict, waits);
        }
    }

    /** How a row's status reads. */
    public enum Tone { PROBLEM, WAITING, GOOD, QUIET }

    private record Loaded(Instant at, List<CredentialInfo> infos, Map<String, Integer> missing,
                          List<CredentialAlerts.Alert> alerts) {
    }

    private final ConsoleServices services;
    private final ObservableList<CredentialInfo> credentials = FXCollections.observableArrayList();
    private final ObservableList<String> missing = FXCollections.observableArrayList();
    private final ObservableList<String> missingReadOnly = FXCollections.unmodifiableObservableList(missing);
    private final ObservableList<CredentialAlerts.Alert> alerts = FXCollections.observableArrayList();
    private final ObservableList<CredentialAlerts.Alert> alertsReadOnly = FXCollections.unmodifiableObservableList(alerts);
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ObservableList<Row> rowsReadOnly = FXCollections.unmodifiableObservableList(rows);
    private final Map<String, List<CredentialTester.Result>> tests = new HashMap<>();
    private final Map<String, String> testText = new HashMap<>();
    /** Credentials whose last test resumed keys that wait for their job's review. */
    private final java.util.Set<String> heldForReview = new java.util.HashSet<>();
    private final ReadOnlyObjectWrapper<Instant> lastRefresh = new ReadOnlyObjectWrapper<>(this, "lastRefresh");
    private Map<String, Integer> missingCounts = Map.of();

    public CredentialsViewModel(ConsoleServices services, Threads threads) {
        super(threads);
        this.services = services;
    }

    /** Loads (or reloads) the list in the background; the main window calls it when the page is shown. */
    public void load() {
        refresh();
    }

    /** Reloads the list in the background. */
    public void refresh() {
        refresh(() -> {
            Instant now = services.clock().instant();
            var store = services.credentials();
            return new Loaded(now, store.list(), store.parkedOnMissing(),
                    CredentialAlerts.of(store, now, services.credentialWarn()));
        }, l -> {
            error.set("");
            lastRefresh.set(l.at());
            credentials.setAll(l.infos());
            missingCounts = new LinkedHashMap<>(l.missing());
            missing.setAll(l.missing().keySet());
            alerts.setAll(l.alerts());
            rebuild();
        }, e -> {
            error.set(Text.t("ui.credentials.readFailed", e.getMessage() == null ? e.toString() : e.getMessage()));
        });
    }

    private void rebuild() {
        Map<String, List<CredentialAlerts.Alert>> byName = alerts.stream()
                .collect(Collectors.groupingBy(CredentialAlerts.Alert::name, LinkedHashMap::new, Collectors.toList()));
        List<Row> out = new ArrayList<>();
        for (String name : missing) {
            out.add(new Row(null, name, missingCounts.getOrDefault(name, 0), Warning.MISSING,
                    join(byName.get(name)), testText.getOrDefault(name, ""), false, verdict(name),
                    heldForReview.contains(name)));
        }
        for (CredentialInfo i : credentials) {
            List<CredentialAlerts.Alert> a = byName.getOrDefault(i.name(), List.of());
            out.add(new Row(i, i.name(), i.parkedKeys(), warningOf(i, a), join(a), testText.getOrDefault(i.name(), ""),
                    false, verdict(i.name()), heldForReview.contains(i.name())));
        }
        replaceChanged(rows, out);
    }

    static Warning warningOf(CredentialInfo i, List<CredentialAlerts.Alert> alerts) {
        Warning w = Warning.NONE;
        for (CredentialAlerts.Alert a : alerts) {
            Warning x = switch (a.kind()) {
                case EXPIRED -> Warning.EXPIRED;
                case EXPIRES_SOON -> Warning.EXPIRES_SOON;
                case REJECTED -> Warning.REJECTED;
                case MISSING -> Warning.MISSING;
            };
            if (x.ordinal() > w.ordinal()) {
                w = x;
            }
        }
        if (w == Warning.NONE && i != null && i.rejected()) {
            w = Warning.REJECTED;
        }
        return w;
    }

    private static String join(List<CredentialAlerts.Alert> a) {
        return a == null ? "" : a.stream().map(CredentialAlerts.Alert::status).collect(Collectors.joining("; "));
    }

    /** Runs the read-only probes of the steps that use {@code name}; the row shows per step accepted/rejected. */
    public void test(String name) {
        replaceRow(name, r -> r.withTest(Text.t("ui.credentials.testing"), true, null, false));
        threads.submit(() -> services.operations().renewAndResume().test(name, services.catalog().get().jobs(), services.clock()),
                t -> {
            // a request kept from the site for want of a cookie for its host: the row's Renew… gets one
            List<CredentialTester.Result> results = LoginParts.onCredentialsPage(t.results());
            tests.put(name, List.copyOf(results));
            // accepted again: the breaker closed and the parked keys resumed, as keyline credentials test does
            testText.put(name, testLine(results) + (t.resumed().isEmpty() ? "" : " · " + t.resumedText()));
            if (!t.resumed().isEmpty() && !t.reviewFirst().isEmpty()) {
                heldForReview.add(name);
            } else {
                heldForReview.remove(name);
            }
            replaceRow(name, r -> r.withTest(testText.get(name), false, verdict(name), heldForReview.contains(name)));
            refresh(); // last used / result changed
        }, e -> {
            tests.remove(name);
            heldForReview.remove(name);
            testText.put(name, Text.t("ui.credentials.cannotTest", e.getMessage() == null ? e.toString() : e.getMessage()));
            replaceRow(name, r -> r.withTest(testText.get(name), false, null, false));
        });
    }

    /**
     * What the last test of {@code name} found over its steps: rejected by one, else not sent with one, else accepted
     * by one, else none.
     */
    private CredentialTester.Verdict verdict(String name) {
        List<CredentialTester.Result> results = tests.getOrDefault(name, List.of());
        for (CredentialTester.Verdict v : List.of(CredentialTester.Verdict.REJECTED, CredentialTester.Verdict.NOT_SENT,
                CredentialTester.Verdict.ACCEPTED)) {
            if (results.stream().anyMatch(r -> r.verdict() == v)) {
                return v;
            }
        }
        return results.isEmpty() ? null : results.get(0).verdict();
    }

    /**
     * "p/publish accepted · q/upload rejected"; requests the login could not go out with say why once, as the results
     * word it: "p/publish not sent · nothing was sent: credential … holds no cookie for …".
     */
    static String testLine(List<CredentialTester.Result> results) {
        if (results.isEmpty()) {
            return Text.t("ui.credentials.unused");
        }
        String steps = results.stream().map(r -> Text.t("ui.credentials.stepVerdict", r.job() + "/" + r.step(),
                        Text.t("ui.credentials.verdict." + r.verdict().name())))
                .collect(Collectors.joining(" · "));
        String notSent = CredentialTester.notSent(results);
        return notSent.isEmpty() ? steps : steps + " · " + notSent;
    }

    private void replaceRow(String name, java.util.function.UnaryOperator<Row> f) {
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).name().equals(name)) {
                rows.set(i, f.apply(rows.get(i)));
            }
        }
    }

    /** The per-step results of the last test of {@code name}, or empty. */
    public List<CredentialTester.Result> testResults(String name) {
        return tests.getOrDefault(name, List.of());
    }

    /** Names of credentials that keys are parked on but that are not stored. */
    public ObservableList<String> missing() {
        return missingReadOnly;
    }

    public ObservableList<CredentialAlerts.Alert> alerts() {
        return alertsReadOnly;
    }

    /** Missing credentials first, then the stored ones by name. */
    public ObservableList<Row> rows() {
        return rowsReadOnly;
    }

    public ReadOnlyObjectProperty<Instant> lastRefreshProperty() {
        return lastRefresh.getReadOnlyProperty();
    }

    public ConsoleServices services() {
        return services;
    }

    public Threads threads() {
        return threads;
    }
}
