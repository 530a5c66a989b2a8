package io.keyline.core.exec;

import io.keyline.domain.Evidence;
import io.keyline.domain.FailureClass;
import io.keyline.domain.FailureOrigin;
import io.keyline.text.Said;

import java.time.Duration;
import java.util.Map;

/**
 * The result of one step attempt.
 *
 * @param failure    {@code null} on success, else the class of the failure
 * @param words      a summary in words (redacted): {@link #message} is its English
 * @param outputs    outputs for later steps (success only)
 * @param evidence   what was sent and received (redacted)
 * @param retryAfter a server's {@code Retry-After}, or {@code null}
 * @param origin     whose doing a failure was ({@code null} on success)
 * @param refreshed  the credential's new fingerprint when the site refreshed its cookies on the answer (kept,
 *                   encrypted), else {@code null}
 * @param refused    the site's answer says it refused the request (the step's {@code refusedWhen}): nothing was
 *                   done, though it came with a 2xx
 */
public record StepOutcome(FailureClass failure, Said words, Map<String, String> outputs, Evidence evidence,
                          Duration retryAfter, FailureOrigin origin, String refreshed, boolean refused) {

    public StepOutcome(FailureClass failure, Said words, Map<String, String> outputs, Evidence evidence,
                       Duration retryAfter, FailureOrigin origin, String refreshed) {
        this(failure, words, outputs, evidence, retryAfter, origin, refreshed, false);
    }

    public StepOutcome {
        if (failure == null) {
            origin = null;
        } else if (origin == null) {
            origin = FailureOrigin.ANSWER;
        }
    }

    /** A failure that the site's or program's answer is (or a success). */
    public StepOutcome(FailureClass failure, Said words, Map<String, String> outputs, Evidence evidence,
                       Duration retryAfter) {
        this(failure, words, outputs, evidence, retryAfter, null, null);
    }

    /** The same outcome, with the credential's new fingerprint after the site refreshed it. */
    public StepOutcome refreshed(String fingerprint) {
        return new StepOutcome(failure, words, outputs, evidence, retryAfter, origin, fingerprint, refused);
    }

    /** The same outcome, said with other words. */
    public StepOutcome withWords(Said other) {
        return new StepOutcome(failure, other, outputs, evidence, retryAfter, origin, refreshed, refused);
    }

    /** The summary in English, as the run log and machine output keep it. */
    public String message() {
        return words.english();
    }

    /** A success; its summary is the program's or the site's own words. */
    public static StepOutcome success(String message, Map<String, String> outputs, Evidence evidence) {
        return new StepOutcome(null, Said.plain(message), outputs, evidence, null);
    }

    /** A failure that the site's or program's answer is. */
    public static StepOutcome failure(FailureClass cls, Said words, Evidence evidence) {
        return new StepOutcome(cls, words, Map.of(), evidence, null);
    }

    /** A failure the answer says in its own words. */
    public static StepOutcome failure(FailureClass cls, String message, Evidence evidence) {
        return failure(cls, Said.plain(message), evidence);
    }

    /** A failure of the given origin. */
    public static StepOutcome failure(FailureClass cls, FailureOrigin origin, Said words, Evidence evidence) {
        return new StepOutcome(cls, words, Map.of(), evidence, null, origin, null);
    }

    public boolean succeeded() {
        return failure == null;
    }
}
