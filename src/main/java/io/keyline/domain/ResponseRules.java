package io.keyline.domain;

/**
 * What an http step's or probe's answer means beyond its status, checked in
 * the order auth, retry, success. Each is optional ({@code null}).
 *
 * @param successWhen a 2xx that does not meet it is {@link FailureClass#FATAL} (a probe: inconclusive)
 * @param authWhen    an answer that meets it is {@link FailureClass#AUTH}
 * @param retryWhen   an answer that meets it is {@link FailureClass#RETRYABLE} (a probe: inconclusive)
 */
public record ResponseRules(Condition successWhen, Condition authWhen, Condition retryWhen) {

    /** No rules: the status alone decides. */
    public static final ResponseRules NONE = new ResponseRules(null, null, null);
}
