package io.keyline.core.operations;

import io.keyline.core.KeyRecords;
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
 * What a finished key came to: when it finished, how long the run that finished it took, and each step's result
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
     * @param took       how long the run that made it done took, from its claim to its end (a wait for a person or
     *                   a retry before that run is not part of it), or {@code null} when no run made it done (an
     *                   operator marked it done)
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
     * @param store the keys' step records and the runs that finished them
     * @param mask  the job's secrets ({@code ShownHeaders.secretsOf})
     */
    public static Map<String, KeyOutcome> of(JobDefinition job, List<KeyRecord> records, KeyRecords store,
                                             Redactor mask) {
        List<String> done = records.stream().filter(r -> r.state() == KeyState.DONE).map(KeyRecord::key).toList();
        Map<String, KeyOutcome> out = new LinkedHashMap<>();
        if (done.isEmpty()) {
            return out;
        }
        Map<String, Map<String, StepRecord>> steps = store.steps(job.name(), done);
        Map<String, KeyRecords.RunSpan> runs = store.finishingRuns(job.name(), done);
        for (KeyRecord r : records) {
            if (r.state() == KeyState.DONE) {
                out.put(r.key(), of(job, r, steps.getOrDefault(r.key(), Map.of()), runs.get(r.key()), mask));
            }
        }
        return out;
    }

    /**
     * The outcome of one done key from its step records.
     *
     * @param run the run that made it done ({@link KeyRecords#finishingRuns}), or {@code null}
     */
    public static KeyOutcome of(JobDefinition job, KeyRecord r, Map<String, StepRecord> steps,
                                KeyRecords.RunSpan run, Redactor mask) {
        Map<String, Map<String, String>> byStep = new LinkedHashMap<>();
        Map<String, Map<String, String>> outputs = new LinkedHashMap<>();
        steps.forEach((id, sr) -> outputs.put(id, sr.outputs()));
        // the outputs the job file marks secret, wherever they appear (a page's body holds its token too)
        Redactor masked = mask.plus(job.secretValues(outputs));
        for (StepDefinition s : job.steps()) {
            StepRecord sr = steps.get(s.id());
            if (sr == null) {
                continue;
            }
            Map<String, String> shown = new LinkedHashMap<>();
            sr.outputs().forEach((k, v) -> shown.put(k, masked.redact(v)));
            byStep.put(s.id(), shown);
        }
        return new KeyOutcome(r.updatedAt(), run == null ? null : run.duration(), byStep);
    }
}
