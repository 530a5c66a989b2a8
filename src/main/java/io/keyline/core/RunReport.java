package io.keyline.core;

import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;

import java.util.List;

/**
 * What a run (or apply) did to the keys it targeted, and its exit code (SPEC §6).
 *
 * @param runId    the run
 * @param job      the job
 * @param keys     final record of every targeted key, in target order (keys not yet due excluded)
 * @param stopped  non-null when the run could not start or stopped early (paused job, stale plan): the reason
 * @param ran      how many keys this run took (claimed) before it ended or stopped
 * @param departed keys an applied plan stopped because reality departed from what it showed
 * @param notYetDue keys later than the current one that were passed by (no {@code --ahead})
 * @param notStarted keys the run never took because it was told to stop (Ctrl+C, SIGTERM): not in {@code keys},
 *                   they count for nothing in the exit code, which is the code of what finished
 */
public record RunReport(String runId, String job, List<KeyRecord> keys, String stopped, int ran,
                        List<String> departed, List<String> notYetDue, List<String> notStarted) {

    public RunReport {
        departed = departed == null ? List.of() : List.copyOf(departed);
        notYetDue = notYetDue == null ? List.of() : List.copyOf(notYetDue);
        notStarted = notStarted == null ? List.of() : List.copyOf(notStarted);
    }

    public RunReport(String runId, String job, List<KeyRecord> keys, String stopped, int ran,
                     List<String> departed, List<String> notYetDue) {
        this(runId, job, keys, stopped, ran, departed, notYetDue, List.of());
    }

    public RunReport(String runId, String job, List<KeyRecord> keys, String stopped) {
        this(runId, job, keys, stopped, 0, List.of(), List.of());
    }

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
        if (!notStarted.isEmpty()) {
            // [issue 14] told to stop: the code of the keys that finished (or were done before); none → nothing ran
            return keys.isEmpty() ? EXECUTION_FAILURE : exitCode(keys, false, !departed.isEmpty());
        }
        if (stopped != null && ran == 0) {
            return EXECUTION_FAILURE;
        }
        return exitCode(keys, false, stopped != null || !departed.isEmpty());
    }

    /** Exit code over final key records (a key already done counts as done). */
    public static int exitCode(List<KeyRecord> keys, boolean stopped) {
        return stopped ? EXECUTION_FAILURE : exitCode(keys, false, false);
    }

    /**
     * Exit code over final key records (a key already done counts as done).
     *
     * @param waits the run was stopped by the kill switch after some keys ran, or an applied plan stopped keys
     *              that departed from it: both wait for a person (4)
     */
    public static int exitCode(List<KeyRecord> keys, boolean stoppedBeforeAnything, boolean waits) {
        if (stoppedBeforeAnything) {
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
        if (waits || keys.stream().anyMatch(k -> k.state() == KeyState.NEEDS_CONFIRMATION
                || k.state() == KeyState.NEEDS_CREDENTIAL)) {
            return WAITING_FOR_OPERATOR;
        }
        if (keys.stream().anyMatch(k -> !k.state().finished())) {
            // RETRY_WAIT, or PENDING/RUNNING held by another process: something is still to happen.
            return RETRY_PENDING;
        }
        return OK;
    }
}
