package io.keyline.core.exec;

import io.keyline.domain.StepKind;

import java.time.Clock;
import java.util.EnumMap;
import java.util.Map;

/** The step executors by kind. The planner never gets one: it cannot execute by construction. */
public final class Executors {
    private final Map<StepKind, StepExecutor> byKind;

    public Executors(Map<StepKind, StepExecutor> byKind) {
        this.byKind = new EnumMap<>(byKind);
    }

    /** The real executors: child processes and the JDK HttpClient. */
    public static Executors standard(Clock clock) {
        return new Executors(Map.of(StepKind.COMMAND, new CommandExecutor(clock), StepKind.HTTP, new HttpExecutor(clock)));
    }

    public StepExecutor forKind(StepKind kind) {
        StepExecutor e = byKind.get(kind);
        if (e == null) {
            throw new IllegalStateException("no executor for step kind " + kind);
        }
        return e;
    }
}
