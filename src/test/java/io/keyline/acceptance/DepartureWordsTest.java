package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.testing.FaultServer;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import io.keyline.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run that departs from the plan being applied says why in the operator's language (the apply's lines, the
 * timeline); the run log's and {@code --json}'s words stay English, as before.
 */
class DepartureWordsTest {

    private static final String KEY = "2026-11-29";

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    @Test
    void aDepartureReadsInChineseAndStaysEnglishInJson(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        AtomicInteger gets = new AtomicInteger();
        // the article appears between the plan (and apply's check of it) and the engine's own probe
        try (FaultServer site = new FaultServer(r -> r.method().equals("POST") ? FaultServer.Reply.json("{\"id\": 1}")
                : FaultServer.Reply.json("{\"total\": " + (gets.incrementAndGet() <= 2 ? 0 : 1) + "}"))) {
            wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());
            Result plan = wb.cli("plan", "p", "--key", KEY, "--json");
            String planId = Json.read(plan.out(), JsonNode.class).get("planId").asText();
            Text.use(Text.CHINESE);
            Result apply = wb.cli("apply", planId);
            assertThat(apply.exit()).as(apply.toString()).isEqualTo(4);
            Result tl = wb.cli("timeline", "p", KEY);
            assertThat(tl.out()).as(tl.toString()).contains("这次运行偏离了计划 " + planId
                    + "：它的检查答复“已存在”；计划中显示的是“不存在”，并且要执行 publish")
                    .doesNotContain("its probe answered", "the plan showed");
            Result json = wb.cli("timeline", "p", KEY, "--json");
            assertThat(json.out()).contains("its probe answered present; the plan showed it absent and publish to be "
                    + "executed");
            Text.use(Text.ENGLISH);
            assertThat(wb.cli("timeline", "p", KEY).out()).contains("this run departs from plan " + planId
                    + ": its probe answered present; the plan showed it absent and publish to be executed");
        }
    }
}
