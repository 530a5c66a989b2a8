package io.keyline.core.operations;

import io.keyline.core.CredentialTester;

import java.util.List;

/**
 * A test of a login, in plain words for the console (the Renew dialog, the login window): the strict verdict
 * of {@link CredentialTester} — <em>accepted</em> only when at least one answer said the login works and none
 * showed the login page, <em>rejected</em> on any answer that did, else <em>inconclusive</em> — said without
 * field names or flags.
 */
public final class LoginCheck {

    private LoginCheck() {
    }

    /**
     * "Accepted: the site answered 2 requests as for someone logged in, and none showed its login page.",
     * "Rejected: 1 of 2 answers showed the site's login page or refused the login. Log in again.", or
     * "Inconclusive: …".
     */
    public static String summary(List<CredentialTester.Result> results) {
        long accepted = results.stream().filter(r -> r.verdict() == CredentialTester.Verdict.ACCEPTED).count();
        long rejected = results.stream().filter(r -> r.verdict() == CredentialTester.Verdict.REJECTED).count();
        long asked = results.stream().filter(r -> r.verdict() != CredentialTester.Verdict.NOT_TESTED).count();
        return switch (CredentialTester.outcome(results)) {
            case ACCEPTED -> "Accepted: the site answered " + (accepted == 1 ? "1 request" : accepted + " requests")
                    + " as for someone logged in, and none showed its login page.";
            case REJECTED -> "Rejected: " + rejected + " of " + asked + (asked == 1 ? " answer" : " answers")
                    + " showed the site's login page or refused the login. Log in again.";
            case INCONCLUSIVE -> asked == 0
                    ? "Inconclusive: no job that uses this login has a request that can tell whether the site "
                    + "accepts it."
                    : "Inconclusive: the site's answers did not tell whether it accepts this login.";
        };
    }

    /** Why a value the site rejected when it was just tested is not saved, and the way to save it all the same. */
    public static String notSavedTested() {
        return "Not saved: the site did not accept this value when it was just tested. Log in again and use the "
                + "new value, or choose Save anyway to store it all the same.";
    }

    /** Why the value the site rejected before is not saved again, and the way to save it all the same. */
    public static String notSavedSameAsRejected(String rejectedAt) {
        return "Not saved: this is the value the site rejected at " + rejectedAt + ". Log in again and use the new "
                + "value, or choose Save anyway to store it all the same.";
    }
}
