package io.keyline.core.operations;

import io.keyline.core.JobControls;
import io.keyline.core.KeyRecords;
import io.keyline.domain.JobControl;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyState;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The jobs at a glance: each job's keys by state and its kill switch, as {@code keyline jobs} and the
 * console's sidebar show them. Two queries, whatever the number of jobs and keys.
 *
 * @param jobs one per job definition, in the order given
 * @param keys keys stored, of every job (also of jobs whose files are gone)
 */
public record Overview(List<Job> jobs, int keys) {

    /**
     * One job.
     *
     * @param def     its definition
     * @param counts  its keys by state
     * @param control its kill switch
     */
    public record Job(JobDefinition def, Map<KeyState, Integer> counts, JobControl control) {

        public int count(KeyState s) {
            return counts.getOrDefault(s, 0);
        }

        /** Keys that wait for a person (failed, or waiting for a confirmation or a login). */
        public int attention() {
            return KeyState.ATTENTION.stream().mapToInt(this::count).sum();
        }

        /** Keys that will run without anyone: pending, waiting for a retry, running. */
        public int waiting() {
            return count(KeyState.PENDING) + count(KeyState.RETRY_WAIT) + count(KeyState.RUNNING);
        }

        public int total() {
            return counts.values().stream().mapToInt(Integer::intValue).sum();
        }

        public boolean paused(Instant now) {
            return control.pausedAt(now);
        }
    }

    static Overview of(KeyRecords keys, JobControls controls, List<JobDefinition> jobs) {
        Map<String, Map<KeyState, Integer>> counts = keys.countsByJob();
        Map<String, JobControl> stored = controls.jobControls();
        List<Job> out = new ArrayList<>(jobs.size());
        for (JobDefinition j : jobs) {
            out.add(new Job(j, counts.getOrDefault(j.name(), Map.of()),
                    stored.getOrDefault(j.name(), JobControl.running(j.name()))));
        }
        int all = counts.values().stream().flatMap(m -> m.values().stream()).mapToInt(Integer::intValue).sum();
        return new Overview(List.copyOf(out), all);
    }
}
