package io.keyline.core.jobfile;

import io.keyline.text.Said;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/** Collects the errors of one job file, positioned in its source text. */
final class Problems {

    private final Path file;
    private final String[] lines;
    private final List<JobFileError> errors = new ArrayList<>();
    private final List<JobFileError> warnings = new ArrayList<>();

    Problems(Path file, String text) {
        this.file = file;
        this.lines = text.split("\r\n|\r|\n", -1);
    }

    void at(int line, int column, Said message) {
        errors.add(new JobFileError(file, line, column, message));
    }

    /** A JSON type (object, array, string, number, boolean, null) as a message names it. */
    static Said type(SourceNode node) {
        return Said.of("core.jobfile.type." + node.typeName());
    }

    /** Job-file messages quote at most this many characters of the file's content. */
    static final int EXCERPT = 16;

    /**
     * A value from the file as a message quotes it: in double quotes, at most {@value #EXCERPT}
     * characters (a file that is not what it seems, say a token, is not printed whole).
     */
    static String quote(String value) {
        return "\"" + excerpt(value) + "\"";
    }

    static String excerpt(String value) {
        if (value.codePointCount(0, value.length()) <= EXCERPT) {
            return value;
        }
        return value.substring(0, value.offsetByCodePoints(0, EXCERPT)) + "…";
    }

    /**
     * A message from elsewhere (a key, a cron expression, a template) with every quoted part
     * ({@code "..."}) cut to {@value #EXCERPT} characters.
     */
    static String clipQuoted(String message) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"([^\"]*)\"").matcher(message);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(quote(m.group(1))));
        }
        return m.appendTail(out).toString();
    }

    /** A message from elsewhere (a cron expression, a template) with every quoted part of its values cut. */
    static Said clipped(Said said) {
        if (said.key() == null) {
            return Said.plain(clipQuoted((String) said.args().get(0)));
        }
        return new Said(said.key(), said.args().stream()
                .map(a -> a instanceof Said s ? clipped(s) : a instanceof String t ? clipQuoted(t) : a).toList());
    }

    /** An error at the start of a value. */
    void at(SourceNode node, Said message) {
        at(node.line(), node.column(), message);
    }

    /** An error at a field's name. */
    void atName(SourceNode.Field field, Said message) {
        at(field.line(), field.column(), message);
    }

    /**
     * An error at one character of a string value.
     *
     * @param index 0-based index into the decoded string
     */
    void atChar(SourceNode.Str str, int index, Said message) {
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

    /** A warning at the start of a value: the job loads, and whoever lists it reads what may go wrong. */
    void warnAt(SourceNode node, Said message) {
        warnings.add(new JobFileError(file, node.line(), node.column(), message));
    }

    /** The warnings, sorted by line and column. */
    List<JobFileError> warnings() {
        return warnings.stream().sorted(Comparator.comparingInt(JobFileError::line)
                .thenComparingInt(JobFileError::column)).toList();
    }

    /** How many errors have been reported so far. */
    int count() {
        return errors.size();
    }

    /** What {@code read} returns, or {@code null} when reading reported an error. */
    <T> T unlessReported(Supplier<T> read) {
        int before = errors.size();
        T value = read.get();
        return errors.size() > before ? null : value;
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
