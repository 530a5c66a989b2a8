package io.keyline.ops;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.acceptance.Jobs;
import io.keyline.app.ConsoleApp;
import io.keyline.workspace.Workspace;
import io.keyline.core.RunTrace;
import io.keyline.domain.JobDefinition;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.TestSite.Fault;
import io.keyline.testing.Workbench.Result;
import io.keyline.ui.ConsoleServices;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every operator action, from the CLI and from the console's services, yields one operator line. */
class OperatorLinesTest extends SiteTestBase {

    static final String KEY = "2026-11-29";

    List<JsonNode> operatorLines() throws IOException {
        return RunLogTest.log(wb.state.resolve("logs/runs.jsonl")).stream()
                .filter(l -> l.get("type").asText().equals("operator")).toList();
    }

    void ok(Result r) {
        assertThat(r.exit()).as(r.toString()).isIn(0, 2, 4);
    }

    @Test
    void everyCliActionYieldsOneOperatorLine() throws IOException {
        wb.job("pub", Jobs.publish("pub", "unsafe", false, null), site.base());
        site.failPosts(Fault.STATUS_404, Fault.STATUS_500_AFTER_ACTING);
        ok(wb.cli("run", "pub", "--key", "2026-11-27"));                        // FAILED (404)
        ok(wb.cli("retry", "pub", "2026-11-27", "--note", "site fixed"));       // retry
        ok(wb.cli("run", "pub", "--key", KEY));                                 // 500 after acting: NEEDS_CONFIRMATION
        ok(wb.cli("confirm", "pub", KEY, "--note", "checked: not there"));      // confirm (and run)
        ok(wb.cli("mark-done", "pub", "2026-11-26", "--note", "published by hand"));
        ok(wb.cli("skip", "pub", "2026-11-25", "--note", "holiday"));
        ok(wb.cli("pause", "pub", "--reason", "maintenance"));
        ok(wb.cli("resume", "pub"));
        ok(wb.cliWithInput("Cookie: sid=s3cr3t-value-123456\n", "credentials", "set", "site-cookie", "--domain",
                "127.0.0.1"));

        List<JsonNode> lines = operatorLines();
        assertThat(lines.stream().map(l -> l.get("action").asText()).toList()).containsExactly(
                "retry", "confirm", "mark-done", "skip", "pause", "resume", "credential-renewed");
        assertThat(lines).allSatisfy(l -> {
            assertThat(l.get("user").asText()).isEqualTo("tester");
            for (String f : List.of("ts", "type", "action", "job", "key", "user", "note")) {
                assertThat(l.has(f)).as(f + " in " + l).isTrue();
            }
        });
        assertThat(lines.get(0).get("job").asText()).isEqualTo("pub");
        assertThat(lines.get(0).get("key").asText()).isEqualTo("2026-11-27");
        assertThat(lines.get(0).get("note").asText()).isEqualTo("site fixed");
        assertThat(lines.get(2).get("note").asText()).isEqualTo("published by hand");
        assertThat(lines.get(4).get("note").asText()).isEqualTo("maintenance");
        assertThat(lines.get(6).get("credential").asText()).isEqualTo("site-cookie");
        assertThat(lines.get(6).toString()).doesNotContain("s3cr3t");
    }

    @Test
    void consoleActionsYieldOperatorLinesToo() throws IOException {
        wb.job("pub", Jobs.publish("pub", "unsafe", false, null), site.base());
        site.failPosts(Fault.STATUS_404);
        ok(wb.cli("run", "pub", "--key", KEY));
        try (Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env())) {
            ConsoleServices s = ConsoleApp.services(ws, RunTrace.NONE, wb.env());
            JobDefinition job = s.catalog().get().job("pub").orElseThrow();
            s.operations().actions().retry(job, KEY, "retried from the console");
            s.operations().actions().skip(job, KEY, "not needed");
            s.operations().actions().pause("pub", "quiet please", null);
        }
        assertThat(operatorLines().stream().map(l -> l.get("action").asText() + " " + l.get("note").asText()).toList())
                .containsExactly("retry retried from the console", "skip not needed", "pause quiet please");
    }
}
