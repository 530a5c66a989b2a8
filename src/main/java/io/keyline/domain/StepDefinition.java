package io.keyline.domain;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One step of a job, as declared in the job file (with defaults applied).
 *
 * @param id         unique within the job
 * @param kind       command or http
 * @param effect     what the step does to the outside world
 * @param confirm    whether each execution needs an operator's confirmation
 * @param credential name of the credential the step uses, or {@code null}
 * @param command    argument templates (command steps)
 * @param env        extra environment templates (command steps; never secrets)
 * @param workdir    working directory relative to the job folder, or {@code null} for the job folder
 * @param request    request template (http steps)
 * @param probe      optional probe (unsafe steps only)
 * @param timeout    step timeout
 * @param retry      effective retry policy (the step's own, else the job's)
 * @param expiry     how long a wait for a confirmation of this step may last, or {@code null}: for ever
 * @param retryFrom  the earlier step a retry of this step runs again from (its outputs and those of the steps
 *                   after it are fetched anew: a token the site no longer takes), or {@code null}: the retry
 *                   sends this step again with the outputs it has
 */
public record StepDefinition(String id, StepKind kind, Effect effect, ConfirmPolicy confirm, String credential,
                             List<String> command, Map<String, String> env, String workdir,
                             HttpRequestSpec request, ProbeSpec probe, Duration timeout, RetryPolicy retry,
                             ConfirmExpiry expiry, String retryFrom) {
    public StepDefinition {
        command = command == null ? List.of() : List.copyOf(command);
        env = env == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(env));
    }

    /** A step whose waits for a confirmation never expire. */
    public StepDefinition(String id, StepKind kind, Effect effect, ConfirmPolicy confirm, String credential,
                          List<String> command, Map<String, String> env, String workdir, HttpRequestSpec request,
                          ProbeSpec probe, Duration timeout, RetryPolicy retry) {
        this(id, kind, effect, confirm, credential, command, env, workdir, request, probe, timeout, retry, null);
    }

    /** A step whose retries send it again with the outputs it has. */
    public StepDefinition(String id, StepKind kind, Effect effect, ConfirmPolicy confirm, String credential,
                          List<String> command, Map<String, String> env, String workdir, HttpRequestSpec request,
                          ProbeSpec probe, Duration timeout, RetryPolicy retry, ConfirmExpiry expiry) {
        this(id, kind, effect, confirm, credential, command, env, workdir, request, probe, timeout, retry, expiry,
                null);
    }
}
