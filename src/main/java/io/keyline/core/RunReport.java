package io.keyline.core;

import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;

import java.util.List;

/**
 * What a run (or apply) did to the keys it targeted, and its exit code (SPEC §6).
 *
 * @param runId   the run
 * @param job     the job
 * @param keys    final record of every targeted key, in target order
 * @param stopped non-null when the run could not start or stopped early (paused job, stale plan): the reason
 */
public record RunReport(String runId, String job, List<KeyRecord> keys, String stopped) {

    public static final int OK = 0;
    public static final int EXECUTION_FAILURE = 1;
    public static final int BUSINESS_FAILURE = 2;
    public static final int PARTIAL_SUCCESS = 3;
    public static final int WAITING_FOR_OPERATOR = 4;
    public static final int RETRY_PENDING = 5;
    public static final int USAGE = 64;

    public long count(KeyState s) {
        return keys.stream().filter(k -> k.state() == s).count();
    }

    /** What an exit code of run/apply means (SPEC §6), for people. */
    public static String meaning(int exit) {
        return switch (exit) {
            case OK -> "every targeted key is done or skipped";
            case EXECUTION_FAILURE -> "nothing ran";
            case BUSINESS_FAILURE -> "failed";
            case PARTIAL_SUCCESS -> "partly failed";
            case WAITING_FOR_OPERATOR -> "waiting for an operator";
            case RETRY_PENDING -> "retry pending";
            default -> "usage error";
        };
    }

    /** Exit code over the targeted keys; first match wins. */
    public int exitCode() {
        return exitCode(keys, stopped != null);
    }

    /** Exit code over final key records (a key already done counts as done). */
    public static int exitCode(List<KeyRecord> keys, boolean stopped) {
        if (stopped) {
            return EXECUTION_FAILURE;
        }
        long failed = keys.stream().filter(k -> k.state() == KeyState.FAILED).count();
        long done = keys.stream().filter(k -> k.state() == KeyState.DONE).count();
        if (failed > 0 && done == 0) {
            return BUSINESS_FAILURE;
        }
        if (failed > 0) {
            return PARTIAL_SUCCESS;
        }
        if (keys.stream().anyMatch(k -> k.state() == KeyState.NEEDS_CONFIRMATION || k.state() == KeyState.NEEDS_CREDENTIAL)) {
            return WAITING_FOR_OPERATOR;
        }
        if (keys.stream().anyMatch(k -> !k.state().finished())) {
            // RETRY_WAIT, or PENDING/RUNNING held by another process: something is still to happen.
            return RETRY_PENDING;
        }
        return OK;
    }
}
