package io.keyline.domain;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.keyline.domain.KeyState.DONE;
import static io.keyline.domain.KeyState.FAILED;
import static io.keyline.domain.KeyState.NEEDS_CONFIRMATION;
import static io.keyline.domain.KeyState.NEEDS_CREDENTIAL;
import static io.keyline.domain.KeyState.PENDING;
import static io.keyline.domain.KeyState.RETRY_WAIT;
import static io.keyline.domain.KeyState.RUNNING;
import static io.keyline.domain.KeyState.SKIPPED;

/**
 * The one table of legal key transitions: {@code (from, trigger) -> to}. Anything not in the
 * table throws {@link IllegalTransitionException}.
 */
public final class KeyStateMachine {

    /** One row of the table. */
    public record Row(KeyState from, Trigger trigger, KeyState to) {
    }

    private static final Map<KeyState, Map<Trigger, KeyState>> TABLE = new EnumMap<>(KeyState.class);
    private static final List<Row> ROWS = new ArrayList<>();

    static {
        allow(PENDING, Trigger.CLAIM, RUNNING);
        allow(PENDING, Trigger.SKIP, SKIPPED);
        allow(PENDING, Trigger.MARK_DONE, DONE);

        allow(RETRY_WAIT, Trigger.CLAIM, RUNNING);
        allow(RETRY_WAIT, Trigger.SKIP, SKIPPED);
        allow(RETRY_WAIT, Trigger.MARK_DONE, DONE);

        allow(RUNNING, Trigger.PROGRESS, RUNNING);
        allow(RUNNING, Trigger.RECOVER, RUNNING);
        allow(RUNNING, Trigger.COMPLETE, DONE);
        allow(RUNNING, Trigger.SCHEDULE_RETRY, RETRY_WAIT);
        allow(RUNNING, Trigger.FAIL, FAILED);
        allow(RUNNING, Trigger.NEED_CONFIRMATION, NEEDS_CONFIRMATION);
        allow(RUNNING, Trigger.NEED_CREDENTIAL, NEEDS_CREDENTIAL);
        allow(RUNNING, Trigger.YIELD, PENDING);

        allow(NEEDS_CONFIRMATION, Trigger.CONFIRM, PENDING);
        allow(NEEDS_CONFIRMATION, Trigger.MARK_DONE, DONE);
        allow(NEEDS_CONFIRMATION, Trigger.SKIP, SKIPPED);
        allow(NEEDS_CONFIRMATION, Trigger.EXPIRE_TO_SKIPPED, SKIPPED);
        allow(NEEDS_CONFIRMATION, Trigger.EXPIRE_TO_FAILED, FAILED);
        allow(NEEDS_CONFIRMATION, Trigger.APPROVE, PENDING);

        allow(NEEDS_CREDENTIAL, Trigger.CREDENTIAL_UPDATED, PENDING);
        allow(NEEDS_CREDENTIAL, Trigger.RETRY, PENDING);
        allow(NEEDS_CREDENTIAL, Trigger.MARK_DONE, DONE);
        allow(NEEDS_CREDENTIAL, Trigger.SKIP, SKIPPED);

        allow(FAILED, Trigger.RETRY, PENDING);
        allow(FAILED, Trigger.MARK_DONE, DONE);
        allow(FAILED, Trigger.SKIP, SKIPPED);

        allow(SKIPPED, Trigger.RETRY, PENDING);

        allow(DONE, Trigger.REARM, PENDING);
    }

    private KeyStateMachine() {
    }

    private static void allow(KeyState from, Trigger trigger, KeyState to) {
        TABLE.computeIfAbsent(from, f -> new EnumMap<>(Trigger.class)).put(trigger, to);
        ROWS.add(new Row(from, trigger, to));
    }

    /** The state a trigger leads to from {@code from}, or empty when the move is illegal. */
    public static Optional<KeyState> target(KeyState from, Trigger trigger) {
        return Optional.ofNullable(TABLE.getOrDefault(from, Map.of()).get(trigger));
    }

    /** The state a trigger leads to; throws when the move is illegal. */
    public static KeyState apply(KeyState from, Trigger trigger) {
        return target(from, trigger).orElseThrow(() -> new IllegalTransitionException(from, trigger));
    }

    public static boolean allows(KeyState from, Trigger trigger) {
        return target(from, trigger).isPresent();
    }

    /** States from which the trigger is legal, in declaration order. */
    public static Set<KeyState> sourcesOf(Trigger trigger) {
        Set<KeyState> out = EnumSet.noneOf(KeyState.class);
        for (Row r : ROWS) {
            if (r.trigger() == trigger) {
                out.add(r.from());
            }
        }
        return out;
    }

    /** Every legal transition, in declaration order. */
    public static List<Row> rows() {
        return Collections.unmodifiableList(ROWS);
    }
}
