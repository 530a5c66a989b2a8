package io.keyline.core;

import io.keyline.domain.JobControl;

import java.util.Map;

/** The jobs' kill switches. */
public interface JobControls {

    /** The job's control ({@link JobControl#running} when none was stored). */
    JobControl jobControl(String job);

    /** Every job's control that has been stored, by job (a job without one runs: {@link JobControl#running}). */
    Map<String, JobControl> jobControls();

    void saveJobControl(JobControl control);
}
