package io.keyline.domain;

/**
 * What an http step's or probe's answer means beyond its status, checked in
 * the order auth, retry, refused, success. Each is optional ({@code null}).
 *
 * @param successWhen a 2xx that does not meet it is {@link FailureClass#FATAL} (a probe: inconclusive)
 * @param authWhen    an answer that meets it is {@link FailureClass#AUTH}
 * @param retryWhen   an answer that meets it is {@link FailureClass#RETRYABLE} (a probe: inconclusive)
 * @param refusedWhen an answer that meets it is {@link FailureClass#FATAL}, and says the site refused the request:
 *                    nothing was done (a 2xx error answer is otherwise read as a request the site may have taken);
 *                    a probe's question refused as it is asked
 */
public record ResponseRules(Condition successWhen, Condition authWhen, Condition retryWhen, Condition refusedWhen) {

    /** No rules: the status alone decides. */
    public static final ResponseRules NONE = new ResponseRules(null, null, null, null);

    /** Rules without {@code refusedWhen}. */
    public ResponseRules(Condition successWhen, Condition authWhen, Condition retryWhen) {
        this(successWhen, authWhen, retryWhen, null);
    }
}
