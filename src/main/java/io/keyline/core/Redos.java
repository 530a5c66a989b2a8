package io.keyline.core;

import io.keyline.domain.EventType;
import io.keyline.domain.KeyEvent;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * How often each step of a key was done and then sent back by a person: the redo its next run is, which its
 * {@code Idempotency-Key} names ({@link io.keyline.core.exec.Rendering#idempotencyKey}). Read from the key's history,
 * so it holds across restarts and is the same for the engine, the plan, the confirmation and the console. A step is
 * done when it succeeded, was found done by its probe, or a person marked it done; a person sends it back with a
 * rearm or a retry ({@code RETRIED}, also from an earlier step), and its next run is then a new request. Within one
 * life every send finds the same count: its attempts, a resend after a crash, a confirmed resend, and a run again
 * that the job's own {@code retryFrom} asks for, which is the path an applied plan showed. The events counted are
 * never pruned ({@code StateMaintenance}).
 */
public final class Redos {

    /** The events that record a step done. */
    static final List<EventType> DONE = List.of(EventType.STEP_SUCCEEDED, EventType.STEP_RECONCILED,
            EventType.MARKED_DONE);

    private Redos() {
    }

    /** The events by which a person sends a key back: what was done before them is redone after. */
    static final List<EventType> SENT_BACK = List.of(EventType.REARMED, EventType.RETRIED);

    /**
     * By step id: how often the step was done and then sent back in {@code history} (oldest first); absent for none.
     */
    public static Map<String, Integer> of(List<KeyEvent> history) {
        Map<String, Integer> lives = new HashMap<>();
        Set<String> doneThisLife = new HashSet<>();
        for (KeyEvent e : history) {
            if (e.step() != null && DONE.contains(e.type())) {
                doneThisLife.add(e.step());
            } else if (SENT_BACK.contains(e.type())) {
                for (String step : doneThisLife) {
                    lives.merge(step, 1, Integer::sum);
                }
                doneThisLife.clear();
            }
        }
        return lives;
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
