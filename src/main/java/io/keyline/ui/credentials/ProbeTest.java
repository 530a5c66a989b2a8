package io.keyline.ui.credentials;

import io.keyline.core.CredentialTester;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.List;

/**
 * A read-only test of a login against the site's probes, as the renew dialog and the login window show it: one
 * line a probe, a summary, and the verdict kept for the value it tested, so that a value the site has just
 * rejected is not stored without the operator's second choice. The texts are the caller's.
 */
public final class ProbeTest {

    private final ObservableList<CredentialTester.Result> lines = FXCollections.observableArrayList();
    private final ObservableList<CredentialTester.Result> linesReadOnly = FXCollections.unmodifiableObservableList(lines);
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper(this, "summary", "");
    /** The fingerprint of the value the last test asked about, and what its probes found. */
    private String fingerprint;
    private List<CredentialTester.Result> tested;

    /** A test starts (or a new value makes the last one moot): no lines, and {@code summary} (may be empty). */
    public void start(String summary) {
        lines.clear();
        this.summary.set(summary);
    }

    /**
     * The probes answered: their lines, and {@code summary}; the verdict is kept for the value of
     * {@code fingerprint} ({@code null}: a stored value, whose verdict is not kept).
     */
    public void answered(String fingerprint, List<CredentialTester.Result> results, String summary) {
        lines.setAll(results);
        if (fingerprint != null) {
            this.fingerprint = fingerprint;
            tested = List.copyOf(results);
        }
        this.summary.set(summary);
    }

    /** The test could not ask: {@code summary} says so (or is empty when the error line does). */
    public void failed(String summary) {
        this.summary.set(summary);
    }

    /**
     * What the probes of the last test of the value of {@code fingerprint} found, or {@code null} when it was not
     * tested.
     */
    public List<CredentialTester.Result> testedFor(String fingerprint) {
        return fingerprint.equals(this.fingerprint) ? tested : null;
    }

    /** One line a probe of the last test. */
    public ObservableList<CredentialTester.Result> lines() {
        return linesReadOnly;
    }

    public ReadOnlyStringProperty summaryProperty() {
        return summary.getReadOnlyProperty();
    }
}
