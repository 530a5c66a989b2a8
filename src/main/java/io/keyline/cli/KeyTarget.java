package io.keyline.cli;

import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRules;
import picocli.CommandLine.Parameters;

/** The job and key a single-key command acts on: {@code JOB KEY}. */
final class KeyTarget {

    @Parameters(index = "0", paramLabel = "JOB")
    String job;

    @Parameters(index = "1", paramLabel = "KEY")
    String key;

    /** The job (or the usual error: unknown job, invalid file) and the key in the job's own form. */
    Target resolve(Sub command) {
        JobDefinition d = command.job(job);
        return new Target(d, KeyRules.normalize(d.key(), key));
    }

    /** A job and one of its keys. */
    record Target(JobDefinition job, String key) {
        /** "daily 2026-11-29". */
        @Override
        public String toString() {
            return job.name() + " " + key;
        }
    }
}
