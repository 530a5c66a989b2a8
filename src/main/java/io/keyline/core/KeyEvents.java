package io.keyline.core;

import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyState;

import java.util.List;
import java.util.Set;

/** The keys' append-only histories, read (events are written with the change they record: {@link KeyChanges}). */
public interface KeyEvents {

    /** The key's events, oldest first. */
    List<KeyEvent> events(String job, String key);

    /**
     * For every key in one of {@code keyStates}, its latest failure with evidence: the last event
     * with a failure class and evidence, other than the wait for a confirmation (whose evidence is
     * the probe's answer, not the failure). One query, whatever the number of keys.
     */
    List<KeyEvent> lastFailures(Set<KeyState> keyStates);
}
