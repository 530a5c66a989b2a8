package io.keyline.core.operations;

import io.keyline.credentials.Redactor;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.Printable;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepRecord;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a finished key came to: when it finished, how long its steps took, and each step's result
 * (the HTTP status, the outputs it reported), with every secret of the job's credentials masked. The
 * key table, the timeline and the command line say it the same way.
 */
public final class Outcomes {

    /** Outputs shown per step at most (the timeline's detail shows all of them). */
    static final int SHOWN_OUTPUTS = 4;

    private Outcomes() {
    }

    /**
     * The outcome of one done key.
     *
     * @param finishedAt when it became done
     * @param took       from the first attempt of its first step to the end of its last, or {@code null}
     * @param steps      per step (in job order): its outputs, masked
     */
    public record KeyOutcome(Instant finishedAt, Duration took, Map<String, Map<String, String>> steps) {

        /** "publish: HTTP 201, id=17 · render: rows=4" (a few outputs per step, values cut); empty without outputs. */
        public String text() {
            List<String> parts = new ArrayList<>();
            steps.forEach((step, outputs) -> {
                if (outputs.isEmpty()) {
                    return;
                }
                List<String> o = new ArrayList<>();
                String status = outputs.get("status");
                if (status != null && status.matches("\\d{3}")) {
                    o.add("HTTP " + status);
                }
                outputs.forEach((k, v) -> {
                    if (!k.equals("status") && o.size() < SHOWN_OUTPUTS) {
                        o.add(k + "=" + EvidenceText.oneLine(Printable.line(v), 40));
                    }
                });
                if (outputs.size() - (status == null ? 0 : 1) > SHOWN_OUTPUTS - (status == null ? 0 : 1)) {
                    o.add("…");
                }
                parts.add(step + ": " + String.join(", ", o));
            });
            return String.join("  ·  ", parts);
        }

        /** "4.2 s", or empty. */
        public String tookText() {
            return took == null ? "" : EvidenceText.duration(took);
        }
    }

    /**
     * The outcomes of the done keys among {@code records}, by key.
     *
     * @param steps the keys' step records ({@code StateStore.steps(job, keys)})
     * @param mask  the job's secrets ({@code ShownHeaders.secretsOf})
     */
    public static Map<String, KeyOutcome> of(JobDefinition job, List<KeyRecord> records,
                                             Map<String, Map<String, StepRecord>> steps, Redactor mask) {
        Map<String, KeyOutcome> out = new LinkedHashMap<>();
        for (KeyRecord r : records) {
            if (r.state() == KeyState.DONE) {
                out.put(r.key(), of(job, r, steps.getOrDefault(r.key(), Map.of()), mask));
            }
        }
        return out;
    }

    /** The outcome of one done key from its step records. */
    public static KeyOutcome of(JobDefinition job, KeyRecord r, Map<String, StepRecord> steps, Redactor mask) {
        Instant first = null;
        Map<String, Map<String, String>> byStep = new LinkedHashMap<>();
        for (StepDefinition s : job.steps()) {
            StepRecord sr = steps.get(s.id());
            if (sr == null) {
                continue;
            }
            if (sr.firstAttemptAt() != null && (first == null || sr.firstAttemptAt().isBefore(first))) {
                first = sr.firstAttemptAt();
            }
            Map<String, String> shown = new LinkedHashMap<>();
            sr.outputs().forEach((k, v) -> shown.put(k, mask.redact(v)));
            byStep.put(s.id(), shown);
        }
        Duration took = first == null || r.updatedAt() == null || r.updatedAt().isBefore(first) ? null
                : Duration.between(first, r.updatedAt());
        return new KeyOutcome(r.updatedAt(), took, byStep);
    }
}
