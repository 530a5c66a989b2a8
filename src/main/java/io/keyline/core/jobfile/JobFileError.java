package io.keyline.core.jobfile;

import io.keyline.domain.Printable;
import io.keyline.text.Said;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One problem in a job file: where it is and what is wrong, as a message said in the language of whoever shows it.
 * The field names, the values the file holds and the file's own words are the message's arguments, shown as written.
 *
 * @param file   the file, as given to the loader
 * @param line   1-based line
 * @param column 1-based column
 * @param said   what is wrong, quoting the field path and the bad value
 */
public record JobFileError(Path file, int line, int column, Said said) {

    /** An error whose text is the same in every language. */
    public JobFileError(Path file, int line, int column, String message) {
        this(file, line, column, Said.plain(message));
    }

    /** What is wrong in English, as machine output (the run log, JSON) keeps it; on one line. */
    public String message() {
        return Printable.line(said.english());
    }

    /** What is wrong in the language in use; on one line. */
    public String text() {
        return Printable.line(said.text());
    }

    /** {@code file:line:column: message} in the language in use. */
    @Override
    public String toString() {
        return file + ":" + line + ":" + column + ": " + text();
    }

    /** Two errors are the same when they are at the same place and say the same (in English). */
    @Override
    public boolean equals(Object o) {
        return o instanceof JobFileError e && Objects.equals(file, e.file) && line == e.line && column == e.column
                && message().equals(e.message());
    }

    @Override
    public int hashCode() {
        return Objects.hash(file, line, column, message());
    }
}
