package io.keyline.core.jobfile;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Collects the errors of one job file, positioned in its source text. */
final class Problems {

    private final Path file;
    private final String[] lines;
    private final List<JobFileError> errors = new ArrayList<>();

    Problems(Path file, String text) {
        this.file = file;
        this.lines = text.split("\r\n|\r|\n", -1);
    }

    void at(int line, int column, String message) {
        errors.add(new JobFileError(file, line, column, message));
    }

    /** An error at the start of a value. */
    void at(SourceNode node, String message) {
        at(node.line(), node.column(), message);
    }

    /** An error at a field's name. */
    void atName(SourceNode.Field field, String message) {
        at(field.line(), field.column(), message);
    }

    /**
     * An error at one character of a string value.
     *
     * @param index 0-based index into the decoded string
     */
    void atChar(SourceNode.Str str, int index, String message) {
        String raw = str.line() <= lines.length ? lines[str.line() - 1] : "";
        int pos = str.column();
        for (int decoded = 0; decoded < index && pos < raw.length(); decoded++) {
            if (raw.charAt(pos) == '\\') {
                pos += pos + 1 < raw.length() && raw.charAt(pos + 1) == 'u' ? 6 : 2;
            } else {
                pos++;
            }
        }
        at(str.line(), pos + 1, message);
    }

    /** How many errors have been reported so far. */
    int count() {
        return errors.size();
    }

    boolean isEmpty() {
        return errors.isEmpty();
    }

    /** The errors, sorted by line and column. */
    List<JobFileError> sorted() {
        return errors.stream().sorted(Comparator.comparingInt(JobFileError::line)
                .thenComparingInt(JobFileError::column)).toList();
    }
}
