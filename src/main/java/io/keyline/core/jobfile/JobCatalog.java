package io.keyline.core.jobfile;

import io.keyline.domain.JobDefinition;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The jobs of a jobs folder and the errors of the files that were rejected.
 *
 * @param jobs   valid jobs, sorted by name
 * @param errors errors of rejected files, sorted by file, line and column
 */
public record JobCatalog(List<JobDefinition> jobs, List<JobFileError> errors) {

    public JobCatalog {
        jobs = jobs.stream().sorted(Comparator.comparing(JobDefinition::name)).toList();
        errors = errors.stream().sorted(Comparator.comparing((JobFileError e) -> e.file().toString())
                .thenComparingInt(JobFileError::line)
                .thenComparingInt(JobFileError::column)).toList();
    }

    /** The job with this name, if it loaded. */
    public Optional<JobDefinition> job(String name) {
        return jobs.stream().filter(j -> j.name().equals(name)).findFirst();
    }
}
