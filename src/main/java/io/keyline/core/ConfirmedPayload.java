package io.keyline.core;

import io.keyline.core.exec.Rendering;
import io.keyline.core.exec.StepContext;
import io.keyline.domain.Effect;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepKind;
import io.keyline.domain.StepRecord;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What a confirmation binds: the waiting step's request (or command) as the job writes it, with every value known
 * when it is confirmed (the key's own values, the outputs of the steps it finished) and, for a step that runs before
 * it in the confirmed run, that step's outputs as where they come from ({@link ShownBody#bound}). After a renewal of
 * its login a waiting key runs its read-only steps again before the confirmed one (a nonce of the old session would
 * be refused); their fresh values are what the operator agreed to, so they do not make the confirmation stale. A
 * changed job file or value known now does.
 */
public final class ConfirmedPayload {

    private ConfirmedPayload() {
    }

    /**
     * The steps before {@code step} that the key has not finished, in job order: a run executes them before it
     * reaches {@code step} (read-only steps a renewal sent back; an unsafe step before it is always finished).
     */
    public static List<String> runFirst(JobDefinition job, String step, Map<String, StepRecord> records) {
        List<String> out = new ArrayList<>();
        for (StepDefinition s : job.steps()) {
            if (s.id().equals(step)) {
                return out;
            }
            StepRecord sr = records.get(s.id());
            if (sr == null || !sr.status().finished()) {
                out.add(s.id());
            }
        }
        return out;
    }

    /**
     * The hash of what the step sends, the outputs of {@code runFirst} bound as their placeholders; with none, the
     * hash of what it sends now. {@code null} when it cannot be rendered (a value no step gives).
     */
    public static String hash(StepContext ctx, Collection<String> runFirst) {
        StepContext bound = ShownBody.bound(ctx, runFirst);
        try {
            return ctx.step().kind() == StepKind.HTTP ? Rendering.request(bound).payloadHash()
                    : Rendering.command(bound).payloadHash();
        } catch (Rendering.RenderException e) {
            return null;
        }
    }

    /**
     * The hash of what the step sends now ({@code ctx} holds the outputs of every finished step), as a confirmation
     * of {@code confirmed} sees it: when {@code confirmed} bound the outputs of read-only steps that ran again
     * before it as their placeholders (each suffix of the steps before it, unsafe ones left out: those are never
     * run again), the hash bound the same way, which then equals {@code confirmed}; else the hash of what it sends
     * now. {@code null} when it cannot be rendered.
     */
    public static String now(StepContext ctx, String confirmed) {
        String plain = hash(ctx, List.of());
        if (confirmed == null || confirmed.equals(plain)) {
            return plain;
        }
        List<StepDefinition> before = new ArrayList<>();
        for (StepDefinition s : ctx.job().steps()) {
            if (s.id().equals(ctx.step().id())) {
                break;
            }
            before.add(s);
        }
        for (int from = before.size() - 1; from >= 0; from--) {
            List<String> runTime = before.subList(from, before.size()).stream()
                    .filter(s -> s.effect() != Effect.UNSAFE).map(StepDefinition::id).toList();
            if (!runTime.isEmpty() && confirmed.equals(hash(ctx, runTime))) {
                return confirmed;
            }
        }
        return plain;
    }
}
