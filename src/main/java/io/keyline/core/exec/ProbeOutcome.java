package io.keyline.core.exec;

import io.keyline.domain.Evidence;
import io.keyline.domain.FailureOrigin;
import io.keyline.text.Said;

/**
 * What a probe found.
 *
 * @param answer   present, absent, inconclusive or rejected credential
 * @param words    a summary in words (redacted): {@link #message} is its English; an answer the probe gave
 *                 ({@code probe: /total = 0 (absent)}) is a text shown as it is
 * @param evidence what was sent and received (redacted)
 * @param values   what the probe's {@code extract} found in an answer that said present, by name: the outputs of the
 *                 step it reconciles
 * @param origin   for an inconclusive answer, whose doing it was when known (nothing answered:
 *                 {@link FailureOrigin#ENVIRONMENT}), else {@code null}
 * @param refreshed the credential's new fingerprint when the site refreshed its cookies on the answer (kept,
 *                  encrypted), else {@code null}
 * @param refused  for an inconclusive answer: the site refused the question as it is asked (a 4xx that is not a
 *                 login's, not 404/410 and not "try later": 400, 405, 414, 422, …), so asking again gets the same
 * @param askAgainAfter for an inconclusive answer: how long the site asked to be left alone before it is asked
 *                      again (its {@code Retry-After}, a spent rate limit's reset, the pause of its host), else
 *                      {@code null}
 */
public record ProbeOutcome(Answer answer, Said words, Evidence evidence, java.util.Map<String, String> values,
                           FailureOrigin origin, String refreshed, boolean refused, java.time.Duration askAgainAfter) {

    public ProbeOutcome {
        values = values == null ? java.util.Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(values));
    }

    public ProbeOutcome(Answer answer, Said words, Evidence evidence, java.util.Map<String, String> values,
                        FailureOrigin origin, String refreshed, boolean refused) {
        this(answer, words, evidence, values, origin, refreshed, refused, null);
    }

    public ProbeOutcome(Answer answer, Said words, Evidence evidence, java.util.Map<String, String> values,
                        FailureOrigin origin, String refreshed) {
        this(answer, words, evidence, values, origin, refreshed, false);
    }

    public ProbeOutcome(Answer answer, Said words, Evidence evidence) {
        this(answer, words, evidence, java.util.Map.of(), null, null);
    }

    /** The summary in English, as the run log and machine output keep it ({@code null} when there is none). */
    public String message() {
        return words == null ? null : words.english();
    }

    /** The same answer, with the credential's new fingerprint after the site refreshed it. */
    public ProbeOutcome refreshed(String fingerprint) {
        return new ProbeOutcome(answer, words, evidence, values, origin, fingerprint, refused, askAgainAfter);
    }

    /** The answer as the decision reads it, for the run and the plan alike (a refused question is its own). */
    public io.keyline.domain.ProbeAnswer decided() {
        return switch (answer) {
            case PRESENT -> io.keyline.domain.ProbeAnswer.PRESENT;
            case ABSENT -> io.keyline.domain.ProbeAnswer.ABSENT;
            case INCONCLUSIVE -> refused ? io.keyline.domain.ProbeAnswer.REFUSED
                    : io.keyline.domain.ProbeAnswer.INCONCLUSIVE;
            case AUTH -> io.keyline.domain.ProbeAnswer.AUTH;
        };
    }

    /** The same answer with other evidence. */
    public ProbeOutcome withEvidence(Evidence other) {
        return new ProbeOutcome(answer, words, other, values, origin, refreshed, refused, askAgainAfter);
    }

    /** The same answer, asked again no sooner than {@code d} from now (as the site asked), or as the retry says. */
    public ProbeOutcome waiting(java.time.Duration d) {
        return new ProbeOutcome(answer, words, evidence, values, origin, refreshed, refused, d);
    }

    /** A probe that could not be asked because nothing answered (the host, the network, the program). */
    public static ProbeOutcome unreachable(Said words, Evidence evidence) {
        return new ProbeOutcome(Answer.INCONCLUSIVE, words, evidence, java.util.Map.of(), FailureOrigin.ENVIRONMENT,
                null);
    }

    public enum Answer { PRESENT, ABSENT, INCONCLUSIVE, AUTH }
}
