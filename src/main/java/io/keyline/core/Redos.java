package io.keyline.core;

import io.keyline.domain.EventType;
import io.keyline.domain.KeyEvent;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * How often each step of a key was done before: the redo its next run is, which its {@code Idempotency-Key} names
 * ({@link io.keyline.core.exec.Rendering#idempotencyKey}). Read from the key's history, so it holds across restarts and
 * is the same for the engine, the plan, the confirmation and the console. A step is done when it succeeded, was found
 * done by its probe, or a person marked it done; once done, it runs again only because someone sent the key back
 * (a rearm, a retry from an earlier step, a renewed login that discards what a step fetched), and that run is a new
 * request. Every send within one life (its attempts, a resend after a crash, a confirmed resend) finds the same count.
 * The events counted are never pruned ({@code StateMaintenance}).
 */
public final class Redos {

    /** The events that record a step done. */
    static final List<EventType> DONE = List.of(EventType.STEP_SUCCEEDED, EventType.STEP_RECONCILED,
            EventType.MARKED_DONE);

    private Redos() {
    }

    /** By step id: how often the step was done in {@code history} (oldest first); absent for none. */
    public static Map<String, Integer> of(List<KeyEvent> history) {
        Map<String, Integer> done = new HashMap<>();
        for (KeyEvent e : history) {
            if (e.step() != null && DONE.contains(e.type())) {
                done.merge(e.step(), 1, Integer::sum);
            }
        }
        return done;
    }

    /** {@link #of(List)} as a lookup by step id, reading the history once, when first asked. */
    public static ToIntFunction<String> once(Supplier<List<KeyEvent>> history) {
        return new ToIntFunction<>() {
            private Map<String, Integer> redos;

            @Override
            public synchronized int applyAsInt(String step) {
                if (redos == null) {
                    redos = of(history.get());
                }
                return redos.getOrDefault(step, 0);
            }
        };
    }
}
