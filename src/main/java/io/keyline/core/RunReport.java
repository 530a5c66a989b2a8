package io.keyline.core;

import io.keyline.domain.FailureOrigin;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.text.Text;

import java.util.List;

/**
 * What a run (or apply) did to the keys it targeted, and its exit code.
 *
 * @param runId    the run
 * @param job      the job
 * @param keys     final record of every targeted key, in target order (keys not yet due excluded)
 * @param stopped  non-null when the run could not start or stopped early (paused job, stale plan): the reason
 * @param ran      how many keys this run took (claimed) before it ended or stopped
 * @param departed keys an applied plan stopped because reality departed from what it showed
 * @param notYetDue keys later than the current one that were passed by (no {@code --ahead})
 * @param notStarted keys the run never took because it was told to stop (Ctrl+C, SIGTERM) or its budget was spent:
 *                   not in {@code keys}; after a signal they count for nothing in the exit code, which is the code
 *                   of what finished
 * @param overBudget the run's time budget ({@code --max-time}, the job's {@code runBudget}) was spent: no key started
 *                   after it, keys in flight stopped after their step; the rest waits for the next run (exit 4 unless
 *                   a key failed)
 */
public record RunReport(String runId, String job, List<KeyRecord> keys, String stopped, int ran,
                        List<String> departed, List<String> notYetDue, List<String> notStarted, boolean overBudget) {

    public RunReport {
        departed = departed == null ? List.of() : List.copyOf(departed);
        notYetDue = notYetDue == null ? List.of() : List.copyOf(notYetDue);
        notStarted = notStarted == null ? List.of() : List.copyOf(notStarted);
    }

    public RunReport(String runId, String job, List<KeyRecord> keys, String stopped, int ran,
                     List<String> departed, List<String> notYetDue, List<String> notStarted) {
        this(runId, job, keys, stopped, ran, departed, notYetDue, notStarted, false);
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

    /** What an exit code of run/apply means, for people. */
    public static String meaning(int exit) {
        return exit >= OK && exit <= RETRY_PENDING ? Text.t("core.exit." + exit) : Text.t("core.exit.usage");
    }

    /** Exit code over the targeted keys; first match wins. */
    public int exitCode() {
        if (overBudget) {
            // the budget stopped the run: what is left waits for the next run, and a person should know
            return exitCode(keys, true);
        }
        if (!notStarted.isEmpty()) {
            // told to stop: the code of the keys that finished (or were done before); none → nothing ran
            return keys.isEmpty() ? EXECUTION_FAILURE : exitCode(keys, !departed.isEmpty());
        }
        if (stopped != null && ran == 0) {
            return EXECUTION_FAILURE;
        }
        return exitCode(keys, stopped != null || !departed.isEmpty());
    }

    /**
     * Exit code over final key records (a key already done counts as done). Keys that failed only because
     * the environment failed (nothing answered: {@link FailureOrigin#ENVIRONMENT}) with none done are an
     * execution failure (1); a failure the site or program answered makes it a business failure (2).
     *
     * @param waits the run was stopped by the kill switch or its budget after some keys ran, or an applied plan
     *              stopped keys that departed from it: all wait for a person (4)
     */
    public static int exitCode(List<KeyRecord> keys, boolean waits) {
        long failed = keys.stream().filter(k -> k.state() == KeyState.FAILED).count();
        long done = keys.stream().filter(k -> k.state() == KeyState.DONE).count();
        if (failed > 0 && done == 0) {
            boolean environmentOnly = keys.stream().filter(k -> k.state() == KeyState.FAILED)
                    .allMatch(k -> k.failureOrigin() == FailureOrigin.ENVIRONMENT);
            return environmentOnly ? EXECUTION_FAILURE : BUSINESS_FAILURE;
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
