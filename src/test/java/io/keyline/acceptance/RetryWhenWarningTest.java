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
    /**
     * The warning reaches the operator where they act too: {@code keyline run} and {@code keyline plan} say it on
     * stderr, once for the job however many keys it targets; {@code run --due} once for each job warned of.
     */
    @Test
    void runAndPlanSayTheWarningOnStderrOncePerJob() throws IOException {
        Files.writeString(wb.jobs.resolve("forum-topic.json"),
                text.replace("\"retryWhen\": { \"bodyContains\": \"BAD CSRF\" }", "\"retryWhen\": { \"status\": [403] }"),
                StandardCharsets.UTF_8);
        Files.writeString(wb.jobs.resolve("narrow.json"), text.replace("\"name\": \"forum-topic\"",
                "\"name\": \"forum-narrow\""), StandardCharsets.UTF_8);
        String warning = "step \"publish\": steps[2].response.retryWhen takes any 403 for \"try again\"";

        Result plan = wb.cli("plan", "forum-topic", "--from", "2026-11-20", "--to", "2026-11-22", "--no-probes");
        assertThat(plan.err()).as(plan.toString()).contains("forum-topic.json:26:");
        assertThat(count(plan.err(), warning)).as("the warning in plan's stderr: " + plan).isEqualTo(1);
        assertThat(plan.out()).as("plan's stdout stays the plan").doesNotContain(warning);

        Result run = wb.cli("run", "--yes", "forum-topic", "--from", "2026-11-20", "--to", "2026-11-22");
        assertThat(count(run.err(), warning)).as("the warning in run's stderr: " + run).isEqualTo(1);

        Result due = wb.cli("run", "--due");
        assertThat(count(due.err(), warning)).as("the warning in run --due's stderr: " + due).isEqualTo(1);

        Result narrow = wb.cli("plan", "forum-narrow", "--key", "2026-11-20", "--no-probes");
        assertThat(narrow.err()).as("a job without a warning").doesNotContain("takes any 403");

        Text.use(Text.CHINESE);
        Result zh = wb.cli("plan", "forum-topic", "--key", "2026-11-20", "--no-probes");
        assertThat(zh.err()).as(zh.toString()).contains("把任何 403 都当作“稍后再试”").doesNotContain("takes any 403");
    }

    /**
     * A {@code refusedWhen} that any 403 meets is as dangerous: a login that ended reads as the site's refusal, the key
     * fails instead of waiting for a new login, and the next keys send the ended login again. It is warned of as a
     * {@code retryWhen} is; one that names the site's words is not.
     */
    @Test
    void aRefusedWhenAnyForbiddenAnswerMeetsIsWarnedOfToo() throws IOException {
        Files.writeString(wb.jobs.resolve("forum-topic.json"), text.replace(
                "\"retryWhen\": { \"bodyContains\": \"BAD CSRF\" }",
                "\"retryWhen\": { \"bodyContains\": \"BAD CSRF\" }, \"refusedWhen\": { \"status\": [403] }"),
                StandardCharsets.UTF_8);
        Files.writeString(wb.jobs.resolve("narrow.json"), text.replace("\"name\": \"forum-topic\"",
                "\"name\": \"forum-narrow\"").replace("\"retryWhen\": { \"bodyContains\": \"BAD CSRF\" }",
                "\"refusedWhen\": { \"all\": [ { \"status\": [403] }, { \"bodyContains\": \"not allowed\" } ] }"),
                StandardCharsets.UTF_8);

        Result jobs = wb.cli("jobs");

        assertThat(jobs.exit()).as(jobs.toString()).isZero();
        assertThat(jobs.out()).contains("forum-topic.json:26:")
                .contains("step \"publish\": steps[2].response.refusedWhen takes any 403 for the site's refusal, a"
                        + " login that ended too")
                .doesNotContain("retryWhen takes any 403")
                .doesNotContain("narrow.json:");
        Result plan = wb.cli("plan", "forum-topic", "--key", "2026-11-20", "--no-probes");
        assertThat(plan.err()).as(plan.toString()).contains("refusedWhen takes any 403");

        Text.use(Text.CHINESE);
        Result zh = wb.cli("jobs");
        assertThat(zh.out()).as(zh.toString()).contains("steps[2].response.refusedWhen 把任何 403 都当作网站的拒绝");
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
            n++;
        }
        return n;
    }
}
