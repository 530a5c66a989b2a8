package io.keyline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.keyline.testing.Workbench;
import io.keyline.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A broken job file's errors on the command line: in Chinese, {@code jobs}, {@code doctor}, {@code run --due} and a
 * run of the named job print them in Chinese, each with its file, line and column, its field names and values; the
 * run log (machine output) keeps them in English; in English they print as they always have.
 */
class JobFileErrorsCommandLineTest {

    /** A misspelt field and a wrong type. */
    static final String BROKEN = """
            {
              "name": "broken",
              "key": {"type": "date", "zone": "UTC"},
              "retires": {"maxAttempts": 3},
              "concurrency": "two",
              "steps": [{"id": "a", "kind": "command", "effect": "none", "command": ["true"]}]
            }
            """;

    static final String UNKNOWN_EN = ":4:3: unknown field \"retires\" in job (did you mean \"retry\"?)";
    static final String UNKNOWN_ZH = ":4:3: 作业 中有不认识的字段 \"retires\"（是不是想写 \"retry\"？）";
    static final String TYPE_EN = ":5:18: concurrency must be an integer from 1 to 64, got string";
    static final String TYPE_ZH = ":5:18: concurrency 应当是介于 1 和 64 之间的整数，实际是字符串";

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    @Test
    void inChineseTheCommandsPrintTheErrorsInChineseAndTheRunLogKeepsEnglish(@TempDir Path tmp) throws IOException {
        Workbench wb = new Workbench(tmp);
        Path file = wb.job("broken", BROKEN, null);
        Text.use(Text.CHINESE);

        Workbench.Result jobs = wb.cli("jobs");
        assertThat(jobs.exit()).as(jobs.toString()).isEqualTo(1);
        assertThat(jobs.out()).contains("无效的作业文件", file + UNKNOWN_ZH, file + TYPE_ZH);

        Workbench.Result doctor = wb.cli("doctor");
        assertThat(doctor.out()).as(doctor.toString()).contains(file + UNKNOWN_ZH, file + TYPE_ZH);

        Workbench.Result named = wb.cli("run", "broken", "--key", "2026-11-29");
        assertThat(named.exit()).as(named.toString()).isEqualTo(1);
        assertThat(named.err()).contains(file + UNKNOWN_ZH, file + TYPE_ZH);

        Workbench.Result due = wb.cli("run", "--due");
        assertThat(due.err()).as(due.toString()).contains(file + UNKNOWN_ZH, file + TYPE_ZH);

        for (Workbench.Result r : List.of(jobs, doctor, named, due)) {
            String printed = r.out() + r.err();
            assertThat(printed).doesNotContain("unknown field", "must be an integer", "did you mean");
            assertThat(ChineseCommandLineTest.englishWords(printed)).as("English words in %s", printed).isEmpty();
        }

        // the run log is machine output: the same errors, in English, whatever the operator's language
        List<JsonNode> lines = jobFileLines(wb);
        assertThat(lines).extracting(l -> l.get("line").asInt() + ":" + l.get("column").asInt() + ": "
                + l.get("message").asText()).containsExactly(UNKNOWN_EN.substring(1), TYPE_EN.substring(1));
    }

    @Test
    void inEnglishTheCommandsPrintTheErrorsAsBefore(@TempDir Path tmp) throws IOException {
        Workbench wb = new Workbench(tmp);
        Path file = wb.job("broken", BROKEN, null);
        Text.use(Text.ENGLISH);

        Workbench.Result jobs = wb.cli("jobs");
        assertThat(jobs.exit()).isEqualTo(1);
        assertThat(jobs.out()).contains("Invalid job files (not loaded):", "  " + file + UNKNOWN_EN,
                "  " + file + TYPE_EN);
        Workbench.Result due = wb.cli("run", "--due");
        assertThat(due.err()).contains(file + UNKNOWN_EN, file + TYPE_EN);
        assertThat(jobFileLines(wb)).extracting(l -> l.get("message").asText())
                .containsExactly(UNKNOWN_EN.substring(UNKNOWN_EN.indexOf(": ") + 2),
                        TYPE_EN.substring(TYPE_EN.indexOf(": ") + 2));
    }

    private static List<JsonNode> jobFileLines(Workbench wb) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> out = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(wb.logs().resolve("runs.jsonl"), StandardCharsets.UTF_8)) {
            JsonNode node = json.readTree(line);
            if ("job-file".equals(node.path("type").asText())) {
                out.add(node);
            }
        }
        return out;
    }
}
