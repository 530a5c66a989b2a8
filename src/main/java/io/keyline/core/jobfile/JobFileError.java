package io.keyline.core.jobfile;

import java.nio.file.Path;

/**
 * One problem in a job file.
 *
 * @param file    the file, as given to the loader
 * @param line    1-based line
 * @param column  1-based column
 * @param message what is wrong, quoting the field path and the bad value
 */
public record JobFileError(Path file, int line, int column, String message) {

    /** @return {@code file:line:column: message} */
    @Override
    public String toString() {
        return file + ":" + line + ":" + column + ": " + message;
    }
}
