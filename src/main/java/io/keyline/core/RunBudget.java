package io.keyline.core;

import io.keyline.text.Said;

import java.time.Instant;

/**
 * How long a run may go on: after {@code deadline} no key starts, a key in flight stops after the step it
 * is in (at its next step boundary, as when the process is told to stop), and no retry is waited for.
 *
 * @param deadline when the budget is spent, or {@code null}: no budget
 * @param source   where it comes from, for people: {@code --max-time PT50M}, {@code runBudget PT20M of daily}
 */
record RunBudget(Instant deadline, Said source) {

    /** No budget. */
    static final RunBudget NONE = new RunBudget(null, null);

    /** Whether the budget is spent at {@code now}. */
    boolean spent(Instant now) {
        return deadline != null && !now.isBefore(deadline);
    }

    /** Whether the budget is spent before {@code t} (a retry due then is not waited for). */
    boolean endsBefore(Instant t) {
        return deadline != null && deadline.isBefore(t);
    }

    /** The earlier of two budgets. */
    RunBudget min(RunBudget other) {
        if (other.deadline == null) {
            return this;
        }
        return deadline == null || other.deadline.isBefore(deadline) ? other : this;
    }

    /** "budget (--max-time PT50M) spent": the run line's {@code stopped} starts with the word budget. */
    String reason() {
        return said().english();
    }

    /** {@link #reason} as words said in the language of whoever shows them. */
    Said said() {
        return Said.of("core.event.budgetSpent", source);
    }
}
