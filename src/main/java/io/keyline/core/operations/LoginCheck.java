package io.keyline.core.operations;

import io.keyline.core.CredentialTester;
import io.keyline.text.Text;

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
            case ACCEPTED -> Text.t("core.loginCheck.accepted", accepted);
            case REJECTED -> Text.t("core.loginCheck.rejected", rejected, asked);
            case INCONCLUSIVE -> Text.t(asked == 0 ? "core.loginCheck.inconclusiveNothing"
                    : "core.loginCheck.inconclusive");
        };
    }

    /** Why a value the site rejected when it was just tested is not saved, and the way to save it all the same. */
    public static String notSavedTested() {
        return Text.t("core.loginCheck.notSavedTested");
    }

    /** Why the value the site rejected before is not saved again, and the way to save it all the same. */
    public static String notSavedSameAsRejected(String rejectedAt) {
        return Text.t("core.loginCheck.notSavedSameAsRejected", rejectedAt);
    }
}
