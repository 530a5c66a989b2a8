package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code apply} refuses a plan that no longer shows what a run would do, and says what changed since it was shown:
 * a key another run finished, the job file, a probe that finds the article now (someone published it by hand).
 * Nothing is sent either way.
 */
class StalePlanTest extends SiteTestBase {

    private static final String KEY = "2026-11-29";
    private static final String EARLIER = "2026-11-28";

    private String plan(String... keys) {
        String[] args = new String[3 + 2 * keys.length];
        args[0] = "plan";
        args[1] = "p";
        for (int i = 0; i < keys.length; i++) {
            args[2 + 2 * i] = "--key";
            args[3 + 2 * i] = keys[i];
        }
        args[args.length - 1] = "--json";
        Result plan = wb.cli(args);
        assertThat(plan.exit()).as(plan.toString()).isZero();
        return Json.read(plan.out(), JsonNode.class).get("planId").asText();
    }

    private Result refused(String planId) {
        long posts = site.posts();
        Result apply = wb.cli("apply", planId);
        assertThat(apply.exit()).as(apply.toString()).isEqualTo(1);
        assertThat(apply.err()).as(apply.toString()).contains("plan " + planId + " is stale");
        assertThat(site.posts()).as("a stale plan sends nothing").isEqualTo(posts);
        return apply;
    }

    @Test
    void aKeyThatAnotherRunFinishedIsNamedWithItsStateThenAndNow() throws Exception {
        wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());
        String planId = plan(KEY, EARLIER);
        assertThat(wb.cli("run", "p", "--key", EARLIER).exit()).isZero();

        Result apply = refused(planId);
        assertThat(apply.err()).contains("key " + EARLIER + ": Done now, was not started")
                .doesNotContain("key " + KEY);
    }

    @Test
    void anEditedJobFileIsNamed() throws Exception {
        Path file = wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());
        String planId = plan(KEY);
        Files.writeString(file, Files.readString(file).replace("\"timeout\": \"PT1S\"", "\"timeout\": \"PT2S\""));

        Result apply = refused(planId);
        assertThat(apply.err()).contains("the job file changed");
    }

    @Test
    void aProbeThatFindsTheArticleNowSaysSo() throws Exception {
        wb.job("p", Jobs.publish("p", "unsafe", true, null), site.base());
        String planId = plan(KEY);
        // a colleague publishes the day's article by hand after the plan was shown
        HttpResponse<String> hand = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(site.base() + "/api/articles")).POST(HttpRequest.BodyPublishers.ofString(KEY)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(hand.statusCode()).isEqualTo(201);

        Result apply = refused(planId);
        assertThat(apply.err()).contains("the probe of publish answers differently for key " + KEY);
        assertThat(site.effects(KEY)).as("only the colleague's article").isEqualTo(1);
    }
}
