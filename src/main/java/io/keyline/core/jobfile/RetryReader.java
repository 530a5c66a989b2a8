package io.keyline.core.jobfile;

import io.keyline.domain.RetryPolicy;
import io.keyline.text.Said;

import java.time.Duration;
import java.util.List;

/** Reads a {@code retry} object (job or step level) on top of the policy it inherits. */
final class RetryReader {

    static final List<String> FIELDS = List.of("maxAttempts", "initialDelay", "multiplier", "maxDelay", "jitter", "maxElapsed");

    private RetryReader() {
    }

    /**
     * The effective policy of the object's {@code retry} field: its own fields, the inherited
     * policy's for the others.
     *
     * @return the policy ({@code inherited} when there is no {@code retry} field), or {@code null} if invalid
     */
    static RetryPolicy read(ObjectView owner, RetryPolicy inherited) {
        if (!owner.has("retry")) {
            return inherited;
        }
        int before = owner.problems().count();
        ObjectView retry = owner.objectField("retry", FIELDS);
        if (retry == null) {
            return null;
        }
        Integer maxAttempts = retry.integer("maxAttempts", 1, 100);
        Duration initialDelay = retry.duration("initialDelay");
        Double multiplier = retry.number("multiplier", "1.0", "10");
        Duration maxDelay = retry.duration("maxDelay");
        Double jitter = retry.number("jitter", "0", "1");
        Duration maxElapsed = retry.duration("maxElapsed");
        if (owner.problems().count() > before) {
            return null;
        }
        RetryPolicy policy = new RetryPolicy(
                maxAttempts != null ? maxAttempts : inherited.maxAttempts(),
                initialDelay != null ? initialDelay : inherited.initialDelay(),
                multiplier != null ? multiplier : inherited.multiplier(),
                maxDelay != null ? maxDelay : inherited.maxDelay(),
                jitter != null ? jitter : inherited.jitter(),
                maxElapsed != null ? maxElapsed : inherited.maxElapsed());
        if (policy.maxDelay().compareTo(policy.initialDelay()) < 0) {
            if (maxDelay != null) {
                retry.problems().at(retry.field("maxDelay").value(), Said.of("core.jobfile.maxDelayShorter",
                        retry.pathOf("maxDelay"), String.valueOf(policy.maxDelay()), "initialDelay",
                        String.valueOf(policy.initialDelay())));
            } else {
                retry.problems().at(retry.field("initialDelay").value(), Said.of("core.jobfile.initialDelayLonger",
                        retry.pathOf("initialDelay"), String.valueOf(policy.initialDelay()), "maxDelay",
                        String.valueOf(policy.maxDelay())));
            }
            return null;
        }
        return policy;
    }
}
