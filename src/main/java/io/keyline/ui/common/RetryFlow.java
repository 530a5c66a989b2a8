package io.keyline.ui.common;

import io.keyline.core.operations.KeyActions;
import io.keyline.ui.ConsoleServices;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Retry from any page: what the retry would send is read first (in the background); when it sends an unsafe
 * step, {@link RetryShow} shows exactly that, and the retry runs only after the operator chose to send, bound
 * to what was shown (the core refuses if it changed meanwhile). A retry that sends nothing unsafe runs at once.
 */
public final class RetryFlow {

    private RetryFlow() {
    }

    /**
     * Asks {@code stillAsShown} (in the background) before it reads what the retry would send and again before the
     * retry: a refusal there (the keys are no longer in the state the page showed) ends the flow, in {@code failed}
     * or as the retry's failure, with nothing sent.
     *
     * @param retry  runs the retry the flow hands it (the caller's own action: busy flag, notices), on the UI thread
     * @param failed gets a failure to read what the retry would send, or the refusal of {@code stillAsShown}
     */
    public static void start(ConsoleServices services, Threads threads, RetryShow show, String job, List<String> keys,
                             String note, Runnable stillAsShown, Consumer<Callable<List<KeyActions.Outcome>>> retry,
                             Consumer<Throwable> failed) {
        Function<Map<String, String>, Callable<List<KeyActions.Outcome>>> run = shown -> () -> {
            stillAsShown.run();
            return services.operations().retryAndSend().retryAndRun(services.job(job), keys, note, shown,
                    services.engine());
        };
        threads.submit(() -> {
            stillAsShown.run();
            return services.operations().retryAndSend().preview(services.job(job), keys);
        }, sends -> {
            if (sends.isEmpty()) {
                retry.accept(run.apply(Map.of()));
            } else {
                show.show(job, sends, shown -> retry.accept(run.apply(shown)));
            }
        }, failed);
    }
}
