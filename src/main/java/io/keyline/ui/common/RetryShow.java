package io.keyline.ui.common;

import io.keyline.core.operations.RetryAndSend;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Shows what a retry would send through an unsafe step (method, URL, masked headers, body, hash) and lets
 * the operator send it, or not. The main window opens the Retry dialog; where nothing shows it, nothing is
 * sent.
 */
@FunctionalInterface
public interface RetryShow {

    /**
     * @param job   the job
     * @param sends what the retry sends, per key (never empty)
     * @param send  retries and runs the keys, bound to the payload hashes shown (key → hash); called at most once,
     *              on the UI thread, only when the operator chose to send
     */
    void show(String job, List<RetryAndSend.Send> sends, Consumer<Map<String, String>> send);

    /** Shows nothing, so the retry sends nothing. */
    RetryShow NONE = (job, sends, send) -> { };
}
