package io.keyline.core;

import io.keyline.core.exec.CredentialMaterial;
import io.keyline.core.exec.ParsedMaterial;
import io.keyline.credentials.CookieScope;
import io.keyline.credentials.ParsedCredential;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.StepDefinition;
import io.keyline.text.Said;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * What the console's login window needs from the core: which cookies of a login belong
 * to a credential, and whether the site accepts the captured ones before they are stored.
 */
public final class LoginCapture {

    private LoginCapture() {
    }

    /**
     * Where a login window starts.
     *
     * @param loginUrl the credential's stored login page, or {@code null} when none (or a blank one) is stored
     * @param jobs     the jobs whose steps tell the credential's cookie scope
     */
    public record Start(String loginUrl, List<JobDefinition> jobs) {
        public Start {
            loginUrl = loginUrl == null || loginUrl.isBlank() ? null : loginUrl;
            jobs = List.copyOf(jobs);
        }
    }

    /** The URLs (templates) that the steps and probes using {@code credential} send to, in job order. */
    public static List<String> stepUrls(String credential, List<JobDefinition> jobs) {
        List<String> out = new ArrayList<>();
        for (JobDefinition job : jobs) {
            if (job.probe() != null && credential.equals(job.probe().credential()) && job.probe().spec().url() != null) {
                out.add(job.probe().spec().url());
            }
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
     * stays the stored value's). A redirect to {@code loginUrl} (where the operator logs in, or
     * {@code null}) is read as the login page, as a run reads it.
     */
    public static List<CredentialTester.Result> test(String credential, ParsedCredential value, List<JobDefinition> jobs,
                                                     Clock clock, String loginUrl) throws InterruptedException {
        CredentialMaterial m = new ParsedMaterial(credential, value, loginUrl == null || loginUrl.isBlank() ? null
                : loginUrl,
                "captured login for " + credential + " (fingerprint " + value.fingerprint() + ")");
        CredentialProvider only = name -> name.equals(credential) ? CredentialProvider.Lookup.found(m)
                : CredentialProvider.Lookup.missing(Said.of("core.credential.notLoggingIn", name));
        return new CredentialTester(only, clock).test(credential, jobs);
    }
}
