package io.keyline.core.jobfile;

import io.keyline.core.jobfile.JobFileError;

import java.nio.file.Path;
import java.util.List;

/**
 * {@code notify.json} of a jobs folder: its hooks, or the errors that rejected it.
 *
 * @param file   the file
 * @param hooks  the hooks (empty when the file is absent or invalid)
 * @param errors {@code file:line:column} errors; empty when it loaded or is absent
 */
public record NotifyConfig(Path file, List<Hook> hooks, List<JobFileError> errors) {

    /** The file name in the jobs folder; the job loader passes it by. */
    public static final String FILE_NAME = "notify.json";

    public NotifyConfig {
        hooks = List.copyOf(hooks);
        errors = List.copyOf(errors);
    }

    public boolean valid() {
        return errors.isEmpty();
    }

    /** The hooks called for {@code event}. */
    public List<Hook> hooksFor(String event) {
        return hooks.stream().filter(h -> h.on().contains(event)).toList();
    }
}
