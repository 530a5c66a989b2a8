package io.keyline.core.operations;

import io.keyline.core.CredentialTester;
import io.keyline.domain.KeyProbe;
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
     * "Rejected: 1 of 2 answers showed the site's login page or refused the login. Log in again.", "Not usable:
     * nothing was sent: credential … holds no cookie for …" (no site saw it), or "Inconclusive: …".
     */
    public static String summary(List<CredentialTester.Result> results) {
        long accepted = results.stream().filter(r -> r.verdict() == CredentialTester.Verdict.ACCEPTED).count();
        long rejected = results.stream().filter(r -> r.verdict() == CredentialTester.Verdict.REJECTED).count();
        long asked = CredentialTester.answered(results);
        return switch (CredentialTester.outcome(results)) {
            case ACCEPTED -> Text.t("core.loginCheck.accepted", accepted);
            case REJECTED -> CredentialTester.keptIn(results)
                    ? Text.t("core.loginCheck.notSent", CredentialTester.notSent(results))
                    : Text.t("core.loginCheck.rejected", rejected, asked);
            case INCONCLUSIVE -> Text.t(asked == 0 ? "core.loginCheck.inconclusiveNothing"
                    : "core.loginCheck.inconclusive");
        };
    }

    /**
     * One request of a test: "daily/publish probe: accepted (HTTP 200)", "daily's probe: …"; a probe that answered
     * says its answer in plain words, as the other screens say it ({@link Words#probe}): "daily/publish probe:
     * accepted — absent: the effect is not there yet (the probe checked /total = 0)".
     */
    public static String line(CredentialTester.Result r) {
        String who = r.asked() == CredentialTester.Asked.TOKEN ? Text.t("core.tester.TOKEN", r.job())
                : KeyProbe.is(r.step()) ? Text.t("core.tester.ownProbe", r.job())
                : Text.t("core.tester." + r.asked().name(), r.job() + "/" + r.step());
        String verdict = Text.t("core.tester.verdict." + r.verdict().name());
        String why = Words.words(r.message());
        if (why.isBlank()) {
            return Text.t("core.tester.line", who, verdict);
        }
        // a probe's answer in words has brackets of its own
        return Text.t(Words.isProbeAnswer(r.message()) ? "core.tester.lineAnswer" : "core.tester.lineWhy", who,
                verdict, why);
    }

    /**
     * Why a value whose test just found it not usable is not saved, and the way to save it all the same: the site
     * did not accept it, or (when no site answered rejected) nothing went out with it and why ("nothing was sent:
     * credential … holds no cookie for …").
     */
    public static String notSavedTested(List<CredentialTester.Result> results) {
        return CredentialTester.keptIn(results)
                ? Text.t("core.loginCheck.notSavedNotSent", CredentialTester.notSent(results))
                : Text.t("core.loginCheck.notSavedTested");
    }

    /** Why the value the site rejected before is not saved again, and the way to save it all the same. */
    public static String notSavedSameAsRejected(String rejectedAt) {
        return Text.t("core.loginCheck.notSavedSameAsRejected", rejectedAt);
    }
}
