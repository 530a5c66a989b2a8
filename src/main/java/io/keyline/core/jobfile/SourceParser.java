package io.keyline.core.jobfile;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;

import io.keyline.text.Said;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads JSON text into a {@link SourceNode} tree with Jackson's streaming parser. Syntax errors
 * and duplicate fields are reported to {@link Problems}.
 */
final class SourceParser {

    private static final JsonFactory FACTORY = new JsonFactory();

    private final Problems problems;

    private SourceParser(Problems problems) {
        this.problems = problems;
    }

    /**
     * Parses one JSON document.
     *
     * @return the root value, or {@code null} after reporting a syntax error or an empty document
     */
    static SourceNode parse(String text, Problems problems) {
        try (JsonParser parser = FACTORY.createParser(text)) {
            try {
                if (parser.nextToken() == null) {
                    problems.at(1, 1, Said.of("core.jobfile.emptyFile"));
                    return null;
                }
                SourceNode root = new SourceParser(problems).value(parser, "");
                if (parser.nextToken() != null) {
                    JsonLocation extra = parser.currentTokenLocation();
                    problems.at(extra.getLineNr(), extra.getColumnNr(), Said.of("core.jobfile.contentAfter"));
                    return null;
                }
                return root;
            } catch (StreamConstraintsException e) {
                // Jackson's limits carry no location (it would say 1:1): the parser stands where the limit was met
                // (after the bracket that went too deep, or after the number that is too long: its first digit)
                Said words = limit(e);
                int back = "core.jobfile.numberTooLong".equals(words.key()) ? (Integer) words.args().get(0) : 1;
                JsonLocation at = parser.currentLocation();
                problems.at(at.getLineNr(), Math.max(1, at.getColumnNr() - back), words);
                return null;
            }
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            problems.at(at == null ? 1 : at.getLineNr(), at == null ? 1 : at.getColumnNr(),
                    Said.of("core.jobfile.invalidJson", clean(e.getOriginalMessage())));
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("reading from a string failed", e);
        }
    }

    /** Which of Jackson's limits a file met, in our words: nesting, or the length of a number (else Jackson's). */
    private static Said limit(StreamConstraintsException e) {
        String m = String.valueOf(e.getOriginalMessage());
        int max = FACTORY.streamReadConstraints().getMaxNestingDepth();
        if (m.contains("nesting depth")) {
            return Said.of("core.jobfile.tooDeep", max);
        }
        java.util.regex.Matcher number = java.util.regex.Pattern.compile("(?i)^number value length \\((\\d+)\\)")
                .matcher(m);
        if (number.find()) {
            return Said.of("core.jobfile.numberTooLong", Integer.parseInt(number.group(1)),
                    FACTORY.streamReadConstraints().getMaxNumberLength());
        }
        return Said.of("core.jobfile.invalidJson", clean(m));
    }

    /**
     * Jackson's message on one line, without source excerpts, character codes or the content of the
     * token it stumbled on: the kind of token and its length only (a file that is not a job file -
     * a token, a key - is never printed). Jackson's own words ('null', 'true', 'false') and a single
     * unexpected character stay.
     */
    static String clean(String message) {
        String line = message.lines().findFirst().orElse("").replaceAll("\\s*\\(start marker at .*$", "")
                .replaceAll("\\s*at \\[Source: .*$", "")
                .replaceAll("\\('(.)' \\(code \\d+\\)\\)", "'$1'")
                .replaceAll("\\(code \\d+\\)", "");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("'([^']*)'").matcher(line);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String token = m.group(1);
            boolean keep = token.codePointCount(0, token.length()) <= 1 || List.of("null", "true", "false", "NaN",
                    "Infinity").contains(token);
            m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(keep ? "'" + token + "'"
                    : "(" + token.length() + " characters)"));
        }
        line = m.appendTail(out).toString()
                .replaceAll("(?i)(numeric value|value) \\([^)]*\\)", "$1")
                .replaceAll("(?i)(numeric value|value) \\('[^']*'\\)", "$1");
        return line.isEmpty() ? line : Character.toLowerCase(line.charAt(0)) + line.substring(1);
    }

    private SourceNode value(JsonParser parser, String path) throws IOException {
        JsonLocation at = parser.currentTokenLocation();
        int line = at.getLineNr();
        int column = at.getColumnNr();
        JsonToken token = parser.currentToken();
        return switch (token) {
            case START_OBJECT -> object(parser, path, line, column);
            case START_ARRAY -> array(parser, path, line, column);
            case VALUE_STRING -> new SourceNode.Str(line, column, parser.getText());
            case VALUE_NUMBER_INT -> new SourceNode.Num(line, column, new BigDecimal(parser.getBigIntegerValue()), true);
            case VALUE_NUMBER_FLOAT -> new SourceNode.Num(line, column, parser.getDecimalValue(), false);
            case VALUE_TRUE, VALUE_FALSE -> new SourceNode.Bool(line, column, token == JsonToken.VALUE_TRUE);
            case VALUE_NULL -> new SourceNode.Null(line, column);
            default -> throw new IllegalStateException("unexpected token " + token);
        };
    }

    private SourceNode.Obj object(JsonParser parser, String path, int line, int column) throws IOException {
        List<SourceNode.Field> fields = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonLocation at = parser.currentTokenLocation();
            parser.nextToken();
            SourceNode value = value(parser, path.isEmpty() ? name : path + "." + name);
            if (seen.add(name)) {
                fields.add(new SourceNode.Field(name, at.getLineNr(), at.getColumnNr(), value));
            } else {
                problems.at(at.getLineNr(), at.getColumnNr(), Said.of("core.jobfile.duplicateField", Problems.quote(name),
                        path.isEmpty() ? Said.of("core.jobfile.job") : path));
            }
        }
        return new SourceNode.Obj(line, column, fields);
    }

    private SourceNode.Arr array(JsonParser parser, String path, int line, int column) throws IOException {
        List<SourceNode> items = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            items.add(value(parser, path + "[" + items.size() + "]"));
        }
        return new SourceNode.Arr(line, column, items);
    }
}
