package io.keyline.core.exec;

import io.keyline.domain.FailureClass;
import io.keyline.domain.JobDefinition;
import io.keyline.testing.FaultServer;
import io.keyline.testing.FaultServer.Reply;
import io.keyline.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a step or a probe says when the site's answer meets the job's rule for a rejected login or for "try again
 * later": what the answer showed, in the operator's language, without the job file's field names; in plain
 * English where a machine keeps it.
 */
class RuleWordsTest {

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T09:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path tmp;

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    /** A POST whose answer may meet the login or the try-again rule, and its probe with the same rules. */
    JobDefinition job(String base) throws Exception {
        String rules = """
                { "authWhen": { "bodyContains": "dw__login" }, "retryWhen": { "bodyContains": "busy" } }""";
        return AnswerWordsTest.job(tmp, """
                "request": { "method": "POST", "url": "%s/doku.php", "body": "x" },
                "response": %s,
                "probe": { "kind": "http", "url": "%s/doku.php?id={key}", "timeout": "PT5S",
                           "presentWhen": { "bodyContains": "page" }, "response": %s }
                """.formatted(base, rules, base, rules));
    }

    @Test
    void anAnswerThatMeetsTheLoginRuleOrTheTryAgainRuleIsSaidInWords() throws Exception {
        String[] body = {"<form id=dw__login>"};
        try (FaultServer server = new FaultServer(r -> new Reply.Respond(200, Map.of(), body[0]))) {
            JobDefinition job = job(server.base());
            HttpExecutor http = new HttpExecutor(CLOCK);
            StepContext ctx = AnswerWordsTest.ctx(job, null);

            StepOutcome rejected = http.execute(ctx);
            ProbeOutcome probeRejected = http.probe(ctx);
            assertThat(rejected.failure()).isEqualTo(FailureClass.AUTH);
            assertThat(probeRejected.answer()).isEqualTo(ProbeOutcome.Answer.AUTH);
            String english = "HTTP 200: the site's answer says the login was not accepted "
                    + "(the body contains \"dw__login\")";
            assertThat(rejected.message()).isEqualTo(english);
            assertThat(probeRejected.message()).isEqualTo("probe rejected the credential: " + english);
            Text.use(Text.CHINESE);
            assertThat(rejected.words().text()).isEqualTo("HTTP 200：网站的答复表明登录未被接受（正文包含 \"dw__login\"）");
            assertThat(probeRejected.words().text())
                    .isEqualTo("检查发现凭据被拒绝：HTTP 200：网站的答复表明登录未被接受（正文包含 \"dw__login\"）");
            Text.use(Text.ENGLISH);

            body[0] = "busy, come back later";
            StepOutcome busy = http.execute(ctx);
            ProbeOutcome probeBusy = http.probe(ctx);
            assertThat(busy.failure()).isEqualTo(FailureClass.RETRYABLE);
            assertThat(probeBusy.answer()).isEqualTo(ProbeOutcome.Answer.INCONCLUSIVE);
            String again = "HTTP 200: the site's answer asks to try again later (the body contains \"busy\")";
            assertThat(busy.message()).isEqualTo(again);
            // the probe's answer keeps the form the engine reads (probe: … (inconclusive))
            assertThat(probeBusy.message()).isEqualTo("probe: " + again + " (inconclusive)");
            Text.use(Text.CHINESE);
            assertThat(busy.words().text()).isEqualTo("HTTP 200：网站的答复要求稍后再试（正文包含 \"busy\"）");
            assertThat(probeBusy.words().text()).contains("HTTP 200：网站的答复要求稍后再试（正文包含 \"busy\"）")
                    .doesNotContain("retryWhen", "probe:", "inconclusive");
            assertThat(rejected.words().text() + probeRejected.words().text() + busy.words().text())
                    .doesNotContain("authWhen", "retryWhen", "meets", "the body");
        }
    }
}
