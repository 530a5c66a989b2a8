package io.keyline.core;

import io.keyline.credentials.CookieScope;
import io.keyline.credentials.ParsedCredential;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.StepDefinition;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the console's login window needs from the core (issue 16): which cookies of a login belong
 * to a credential, and whether the site accepts the captured ones before they are stored.
 */
public final class LoginCapture {

    private LoginCapture() {
    }

    /** The URLs (templates) that the steps and probes using {@code credential} send to, in job order. */
    public static List<String> stepUrls(String credential, List<JobDefinition> jobs) {
        List<String> out = new ArrayList<>();
        for (JobDefinition job : jobs) {
            for (StepDefinition step : job.steps()) {
                if (!credential.equals(step.credential())) {
                    continue;
                }
                if (step.request() != null && step.request().url() != null) {
                    out.add(step.request().url());
                }
                if (step.probe() != null && step.probe().url() != null) {
                    out.add(step.probe().url());
                }
            }
        }
        return out;
    }

    /** The credential's cookie scope: the login page's registrable domain and the hosts its steps send to. */
    public static CookieScope scope(String credential, String loginUrl, List<JobDefinition> jobs) {
        return CookieScope.of(loginUrl, stepUrls(credential, jobs));
    }

    /**
     * Asks, read-only, the probes of the steps that use {@code credential} whether the site accepts
     * {@code value}, which is not stored: nothing is recorded on the stored credential (its last result
     * stays the stored value's).
     */
    public static List<CredentialTester.Result> test(String credential, ParsedCredential value, List<JobDefinition> jobs,
                                                     Clock clock) throws InterruptedException {
        CredentialMaterial m = new Captured(credential, value);
        CredentialProvider only = name -> name.equals(credential) ? CredentialProvider.Lookup.found(m)
                : CredentialProvider.Lookup.missing("credential " + name + " is not the one being logged in");
        return new CredentialTester(only, clock).test(credential, jobs);
    }

    /** Captured cookies as steps see a credential; {@code toString} is masked. */
    private record Captured(String name, ParsedCredential value) implements CredentialMaterial {
        @Override
        public String fingerprint() {
            return value.fingerprint();
        }

        @Override
        public Map<String, String> httpHeaders(URI uri, Instant now) {
            return value.httpHeaders(uri, now);
        }

        @Override
        public Map<String, String> environment(Instant now) {
            return value.environment(now);
        }

        @Override
        public List<String> secretStrings() {
            return value.secretStrings();
        }

        @Override
        public String toString() {
            return "captured login for " + name + " (fingerprint " + value.fingerprint() + ")";
        }
    }
}
