package io.keyline.reliability;

import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyState;
import io.keyline.domain.KeyStateMachine;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks that a key's event history is a legal path through the transition table: a key starts
 * PENDING (it is stored without an event), and each event's {@code state} must follow from the
 * previous one by some trigger of {@link KeyStateMachine}.
 */
final class HistoryChecker {
    private HistoryChecker() {
    }

    /** The illegal steps of a history, empty when it is a legal path. */
    static List<String> problems(List<KeyEvent> events) {
        List<String> out = new ArrayList<>();
        KeyState at = KeyState.PENDING;
        for (KeyEvent e : events) {
            KeyState from = at;
            boolean legal = KeyStateMachine.rows().stream()
                    .anyMatch(r -> r.from() == from && r.to() == e.state());
            if (!legal) {
                out.add("event " + e.id() + " " + e.type() + ": " + from + " -> " + e.state()
                        + " is not in the transition table");
            }
            at = e.state();
        }
        return out;
    }

    /** Whether a history ending in {@code current} agrees with the stored state. */
    static boolean endsIn(List<KeyEvent> events, KeyState current) {
        KeyState last = events.isEmpty() ? KeyState.PENDING : events.get(events.size() - 1).state();
        return last == current;
    }
}
