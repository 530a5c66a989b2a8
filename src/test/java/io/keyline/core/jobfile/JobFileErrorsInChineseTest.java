package io.keyline.core.jobfile;

import io.keyline.text.Said;
import io.keyline.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job file's errors are said in the operator's language: in Chinese each keeps its place, its field names and the
 * values the file holds, in Chinese words; in English, and as machine output in every language, its English words.
 */
class JobFileErrorsInChineseTest {

    /** A job file with five mistakes: a bad name, a misspelt field, a wrong type, a missing field, a bad duration. */
    static final String BROKEN = """
            {
              "name": "Daily_Article",
              "key": {"type": "date"},
              "retires": {"maxAttempts": 3},
              "concurrency": "two",
              "steps": [
                {"id": "write", "kind": "command", "command": ["true"], "timeout": "10m"}
              ]
            }
            """;

    /** The errors as English has always printed them (file name, line, column, message). */
    static final List<String> ENGLISH = List.of(
            "broken.json:2:11: name \"Daily_Article\" is invalid: use lower-case letters, digits and \"-\", starting"
                    + " with a letter or digit, at most 63 characters",
            "broken.json:4:3: unknown field \"retires\" in job (did you mean \"retry\"?)",
            "broken.json:5:18: concurrency must be an integer from 1 to 64, got string",
            "broken.json:7:5: missing required field \"effect\" in steps[0] (one of none, idempotent, unsafe: the"
                    + " author must decide)",
            "broken.json:7:72: steps[0].timeout \"10m\" is not an ISO-8601 duration (like \"PT30S\" or \"PT10M\")");

    /** Three English words in a row: a sentence left untranslated. */
    private static final Pattern ENGLISH_WORDS = Pattern.compile(
            "(?<![\\p{L}\\p{N}_./:$-])[A-Za-z][a-z]+(?: [A-Za-z][a-z]+){2,}(?![\\p{L}\\p{N}_-])");

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    private static List<JobFileError> load(Path dir) throws IOException {
        Path file = dir.resolve("broken.json");
        Files.writeString(file, BROKEN, StandardCharsets.UTF_8);
        return JobFileLoader.loadFile(file).errors();
    }

    private static List<String> shown(List<JobFileError> errors, Path dir) {
        return errors.stream().map(e -> dir.relativize(Path.of(e.toString().substring(0, e.toString().indexOf(':'))))
                + e.toString().substring(e.toString().indexOf(':'))).toList();
    }

    @Test
    void inChineseTheErrorsSpeakChineseKeepingTheirPlaceFieldsAndValues(@TempDir Path dir) throws IOException {
        Text.use(Text.CHINESE);
        List<JobFileError> errors = load(dir);
        List<String> zh = shown(errors, dir);

        assertThat(zh).hasSize(ENGLISH.size());
        for (int i = 0; i < zh.size(); i++) {
            String place = ENGLISH.get(i).substring(0, ENGLISH.get(i).indexOf(": ") + 2);
            assertThat(zh.get(i)).as("the place of %s", ENGLISH.get(i)).startsWith(place);
            assertThat(zh.get(i)).as("Chinese words").containsPattern("\\p{IsHan}");
            assertThat(englishWords(zh.get(i))).as("English words in %s", zh.get(i)).isEmpty();
        }
        assertThat(zh.get(0)).contains("name", "\"Daily_Article\"", "小写字母");
        assertThat(zh.get(1)).isEqualTo("broken.json:4:3: 作业 中有不认识的字段 \"retires\"（是不是想写 \"retry\"？）");
        assertThat(zh.get(2)).isEqualTo("broken.json:5:18: concurrency 应当是介于 1 和 64 之间的整数，实际是字符串");
        assertThat(zh.get(3)).contains("steps[0]", "\"effect\"", "none, idempotent, unsafe", "必填字段");
        assertThat(zh.get(4)).contains("steps[0].timeout", "\"10m\"", "\"PT30S\"", "时长");
        // machine output (the run log, JSON) keeps the English words in every language
        assertThat(errors).extracting(JobFileError::message)
                .containsExactlyElementsOf(ENGLISH.stream().map(e -> e.substring(e.indexOf(": ") + 2)).toList());
    }

    @Test
    void inEnglishTheErrorsAreAsBefore(@TempDir Path dir) throws IOException {
        Text.use(Text.ENGLISH);
        List<JobFileError> errors = load(dir);
        assertThat(shown(errors, dir)).containsExactlyElementsOf(ENGLISH);
    }

    /**
     * Every error of the corpus of broken files is said in Chinese words: with the values it quotes (the file's
     * own, and what a library or the key rules say about them, which stay as they were written) taken out, no
     * English sentence is left; and its English stays exactly what the corpus expects.
     */
    @Test
    void everyErrorOfTheBrokenCorpusHasChineseWords() throws Exception {
        Text.use(Text.CHINESE);
        List<String> found = new ArrayList<>();
        int count = 0;
        for (String name : BrokenJobFilesTest.brokenFiles().toList()) {
            List<JobFileError> errors = JobFileLoader.loadFile(BrokenJobFilesTest.folder().resolve(name)).errors();
            assertThat(errors).extracting(e -> name + ":" + e.line() + ":" + e.column() + ": " + e.message())
                    .containsExactlyElementsOf(BrokenJobFilesTest.expected().get(name));
            for (JobFileError e : errors) {
                count++;
                String words = withoutData(e.text(), e.said());
                if (!e.text().matches(".*\\p{IsHan}.*") || !englishWords(words).isEmpty()) {
                    found.add(name + ": " + e.text());
                }
            }
        }
        assertThat(count).isGreaterThan(60);
        assertThat(found).as("errors with English words in Chinese").isEmpty();
    }

    /** A key.start that is not a key of its type says, in English, what the key rules say (and in Chinese, its own). */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"date, 2026-13-01", "week, 2026-48", "week, 2021-W53",
            "month, 2026-13"})
    void aBadKeyStartSaysWhatTheKeyRulesSay(String type, String start, @TempDir Path dir) throws IOException {
        Path file = dir.resolve("start.json");
        Files.writeString(file, """
                {"name": "s", "key": {"type": "%s", "zone": "UTC", "start": "%s"},
                 "steps": [{"id": "a", "kind": "command", "effect": "none", "command": ["true"]}]}
                """.formatted(type, start), StandardCharsets.UTF_8);
        String rules;
        try {
            io.keyline.domain.KeyRules.normalize(new io.keyline.domain.KeySpec(io.keyline.domain.KeyType.valueOf(
                    type.toUpperCase(java.util.Locale.ROOT)), java.time.ZoneOffset.UTC, null), start);
            throw new AssertionError(start + " is a " + type);
        } catch (io.keyline.domain.InvalidKeyException e) {
            rules = e.getMessage();
        }
        Text.use(Text.CHINESE);
        List<JobFileError> errors = JobFileLoader.loadFile(file).errors();
        assertThat(errors).extracting(JobFileError::message).containsExactly("key.start: " + rules);
        assertThat(errors.get(0).text()).startsWith("key.start：任务项 \"" + start + "\" 不是");
    }

    /** {@code text} without the values of {@code said}'s arguments that are data (not messages of the bundles). */
    private static String withoutData(String text, Said said) {
        String out = text;
        if (said.key() == null) {
            return out.replace((String) said.args().get(0), " ");
        }
        for (Object a : said.args()) {
            out = a instanceof Said s ? withoutData(out, s) : out.replace(String.valueOf(a), " ");
        }
        return out;
    }

    static List<String> englishWords(String text) {
        List<String> found = new ArrayList<>();
        Matcher m = ENGLISH_WORDS.matcher(text);
        while (m.find()) {
            found.add(m.group());
        }
        return found;
    }
}
