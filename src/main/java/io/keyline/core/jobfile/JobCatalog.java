package io.keyline.core.jobfile;

import io.keyline.domain.JobDefinition;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The jobs of a jobs folder and the errors of the files that were rejected.
 *
 * @param jobs   valid jobs, sorted by name
 * @param errors   errors of rejected files, sorted by file, line and column
 * @param warnings warnings of files that loaded (what may go wrong with their jobs), sorted the same way
 */
public record JobCatalog(List<JobDefinition> jobs, List<JobFileError> errors, List<JobFileError> warnings) {

    private static final Comparator<JobFileError> BY_PLACE = Comparator.comparing((JobFileError e) -> e.file().toString())
            .thenComparingInt(JobFileError::line)
            .thenComparingInt(JobFileError::column);

    public JobCatalog {
        jobs = jobs.stream().sorted(Comparator.comparing(JobDefinition::name)).toList();
        errors = errors.stream().sorted(BY_PLACE).toList();
        warnings = warnings.stream().sorted(BY_PLACE).toList();
    }

    public JobCatalog(List<JobDefinition> jobs, List<JobFileError> errors) {
        this(jobs, errors, List.of());
    }

    /** The warnings of the file {@code job} was read from. */
    public List<JobFileError> warningsOf(JobDefinition job) {
        return warnings.stream().filter(w -> w.file().equals(job.file())).toList();
    }

    /** The job with this name, if it loaded. */
    public Optional<JobDefinition> job(String name) {
        return jobs.stream().filter(j -> j.name().equals(name)).findFirst();
    }
}
