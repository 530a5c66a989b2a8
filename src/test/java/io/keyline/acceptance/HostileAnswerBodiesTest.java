package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.testing.CpuBurn;
import io.keyline.testing.WikiSite;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static io.keyline.acceptance.CredentialTesting.status;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Answers that attack the reader, through the real command line: a header that makes a backtracking regex
 * engine run for ever, and a number whose plain notation has two billion digits. A step or probe that reads
 * them ends within its timeout, and no key stays RUNNING.
 *
 * <p>The timeouts below only stop a test that hangs (as it did with a backtracking engine); they measure nothing.
 */
class HostileAnswerBodiesTest {

    static final String KEY = "2026-11-29";
    /** Valid, and exponential for a backtracking engine on a 41-character value that does not match. */
    static final String EVIL = "^(?:[a-z0-9]+?-?)+?\\\\.example\\\\.com$";
    static final String EVIL_HEADER = "a".repeat(40) + "!";

    @TempDir
    Path tmp;
    Workbench wb;
    WikiSite site;

    @BeforeEach
    void open() throws IOException {
        wb = new Workbench(tmp);
        site = new WikiSite();
    }

    @AfterEach
    void close() {
        site.close();
    }

    static String job(String name, String stepResponse, String probe) {
        return """
                { "name": "%s", "key": { "type": "date", "zone": "UTC" },
                  "retry": { "maxAttempts": 1 },
                  "steps": [
                    { "id": "save", "kind": "http", "effect": "unsafe",
                      "request": { "method": "POST", "url": "BASE/doku.php",
                                   "headers": { "Content-Type": "application/x-www-form-urlencoded" },
                                   "body": "id=journal%%3A{key}&do=preview" },
                      "response": %s,
                      "probe": %s,
                      "timeout": "PT5S" } ] }
                """.formatted(name, stepResponse, probe);
    }

    static String rawProbe(String presentWhen) {
        return """
                { "kind": "http", "url": "BASE/doku.php?id=journal:{key}&do=export_raw", "timeout": "PT5S",
                  "presentWhen": %s }""".formatted(presentWhen);
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aHeaderThatMakesABacktrackingEngineHangIsReadAtOnceByStepAndProbe() throws Exception {
        site.hostileHeader(EVIL_HEADER);
        String evil = "{ \"header\": \"X-Served-By\", \"matches\": \"" + EVIL + "\" }";
        wb.job("evil", job("evil", "{ \"retryWhen\": " + evil + " }",
                rawProbe("{ \"any\": [ " + evil + ", { \"bodyContains\": \"Journal\" } ] }")), site.base());

        Result r;
        try (CpuBurn burn = CpuBurn.start(1)) {
            r = wb.cli("run", "evil", "--key", KEY);
        }

        assertThat(r.exit()).as(r.toString()).isZero();
        JsonNode st = status(wb, "evil", KEY);
        assertThat(st.get("state").asText()).isEqualTo("DONE");
        assertThat(site.count("POST", "preview")).as("the probe answered absent; the step ran once").isEqualTo(1);
    }

    @Test
    void anRe2IncompatiblePatternIsAJobFileErrorWithItsPosition() throws IOException {
        wb.job("backref", job("backref", "{ \"retryWhen\": { \"header\": \"X-Served-By\", \"matches\": \"(a)\\\\1\" } }",
                rawProbe("{ \"bodyMatches\": \"(?=x)\" }")), site.base());

        Result r = wb.cli("jobs");

        assertThat(r.out() + r.err()).contains("backref.json:8:").contains("backreference")
                .contains("backref.json:10:").contains("lookaround");
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aNumberWithTwoBillionDigitsIsComparedWithoutWritingThemOut() throws Exception {
        site.rawExportBody("{\"total\": 1e2147483627, \"count\": -1E2147483647}");
        wb.job("bomb", job("bomb", "{ \"successWhen\": { \"status\": [200] } }",
                rawProbe("{ \"jsonPointer\": \"/total\", \"notEquals\": 0 }")), site.base());
        wb.job("bomb2", job("bomb2", "{ \"successWhen\": { \"status\": [200] } }",
                rawProbe("{ \"jsonPointer\": \"/count\", \"in\": [1, 2, -1e2147483647] }")), site.base());

        Result r = wb.cli("run", "bomb", "--key", KEY);
        Result r2 = wb.cli("run", "bomb2", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(status(wb, "bomb", KEY).get("state").asText()).isEqualTo("DONE");
        assertThat(r2.exit()).as(r2.toString()).isZero();
        assertThat(status(wb, "bomb2", KEY).get("state").asText()).isEqualTo("DONE");
        assertThat(site.count("POST", "preview")).as("both probes answered present").isZero();
    }

    @Test
    void aNumberBombInAStepsAnswerIsTheStepsFailureWithEvidenceNotACrash() throws IOException {
        wb.job("crash", """
                { "name": "crash", "key": { "type": "date", "zone": "UTC" },
                  "steps": [
                    { "id": "read", "kind": "http", "effect": "none",
                      "request": { "method": "GET", "url": "BASE/doku.php?id=journal:{key}&do=export_raw" },
                      "response": { "successWhen": { "jsonPointer": "/total", "equals": 1 } } } ] }
                """, site.base());
        site.rawExportBody("{\"total\": 1e2147483627}");

        Result r = wb.cli("run", "crash", "--key", KEY);

        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        JsonNode st = status(wb, "crash", KEY);
        assertThat(st.get("state").asText()).isEqualTo("FAILED");
        assertThat(st.get("message").asText()).contains("the answer does not show success").contains("/total");
        assertThat(wb.cli("timeline", "crash", KEY, "--json").out()).contains("1e2147483627");
    }
}
