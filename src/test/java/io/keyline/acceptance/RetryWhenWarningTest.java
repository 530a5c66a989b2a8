package io.keyline.acceptance;

import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import io.keyline.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code retryWhen} that any 403 meets takes a login that ended for "try again", and sends it again until its
 * attempts are spent: {@code keyline jobs} warns of it, naming the file, the step and the rule, and the job still
 * loads. The forum's own rule ({@code bodyContains "BAD CSRF"}) is not warned of.
 */
class RetryWhenWarningTest {

    static final Path EXAMPLE = Path.of("resources/jobs/examples/forum-topic.json");

    @TempDir
    Path tmp;
    Workbench wb;
    String text;

    @BeforeEach
    void setUp() throws IOException {
        wb = new Workbench(tmp);
        text = Files.readString(EXAMPLE, StandardCharsets.UTF_8);
        assertThat(text).contains("\"retryWhen\": { \"bodyContains\": \"BAD CSRF\" }");
    }

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    @Test
    void aRetryWhenAnyForbiddenAnswerMeetsIsWarnedOfAndTheJobStillLoads() throws IOException {
        Files.writeString(wb.jobs.resolve("forum-topic.json"),
                text.replace("\"retryWhen\": { \"bodyContains\": \"BAD CSRF\" }", "\"retryWhen\": { \"status\": [403] }"),
                StandardCharsets.UTF_8);
        Files.writeString(wb.jobs.resolve("narrow.json"), text.replace("\"name\": \"forum-topic\"",
                "\"name\": \"forum-narrow\""), StandardCharsets.UTF_8);

        Result jobs = wb.cli("jobs");

        assertThat(jobs.exit()).as(jobs.toString()).isZero();
        assertThat(jobs.out()).contains("forum-topic").contains("forum-narrow")
                .contains("Warnings (the jobs load):")
                .contains("forum-topic.json:26:")
                .contains("step \"publish\": steps[2].response.retryWhen takes any 403 for \"try again\", a login that"
                        + " ended too")
                .contains("\"bodyContains\"").contains("\"authWhen\"")
                .doesNotContain("narrow.json:")
                .doesNotContain("Invalid job files");

        Text.use(Text.CHINESE);
        Result zh = wb.cli("jobs");
        assertThat(zh.out()).as(zh.toString()).contains("警告（作业已载入）：")
                .contains("步骤 \"publish\"：steps[2].response.retryWhen 把任何 403 都当作“稍后再试”")
                .doesNotContain("takes any 403");
    }

    @Test
    void aRetryWhenOfAnyWithA403IsWarnedOfAndOneOfAllWithTheSitesWordsIsNot() throws IOException {
        Files.writeString(wb.jobs.resolve("forum-topic.json"), text.replace(
                "\"retryWhen\": { \"bodyContains\": \"BAD CSRF\" }",
                "\"retryWhen\": { \"any\": [ { \"bodyContains\": \"BAD CSRF\" }, { \"status\": [429, 403] } ] }"),
                StandardCharsets.UTF_8);
        Files.writeString(wb.jobs.resolve("narrow.json"), text.replace("\"name\": \"forum-topic\"",
                "\"name\": \"forum-narrow\"").replace("\"retryWhen\": { \"bodyContains\": \"BAD CSRF\" }",
                "\"retryWhen\": { \"all\": [ { \"status\": [403] }, { \"bodyContains\": \"BAD CSRF\" } ] }"),
                StandardCharsets.UTF_8);

        Result jobs = wb.cli("jobs");

        assertThat(jobs.exit()).as(jobs.toString()).isZero();
        assertThat(jobs.out()).contains("forum-topic.json:26:").contains("takes any 403")
                .doesNotContain("narrow.json:");
    }
}
