package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.TestPostgres;
import io.keyline.testing.TestSite.Fault;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code keyline migrate-state --to postgresql://…}: an H2 state with done, failed, waiting and
 * paused keys, a credential and a plan is copied into an empty database; the copy answers exactly as
 * the original, its credential decrypts with the same master key, and runs go on where they were.
 */
class MigrateStateTest extends SiteTestBase {

    Map<String, String> status(Workbench w) {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode n : Json.read(w.cli("status", "--json").out(), JsonNode.class)) {
            out.put(n.get("job").asText() + " " + n.get("key").asText(), n.get("state").asText() + " "
                    + n.get("attempts").asText() + " " + n.path("message").asText());
        }
        return out;
    }

    @Test
    void anEmbeddedStateIsCopiedWholeAndGoesOnThere() throws Exception {
        wb.job("pub", Jobs.publish("pub", "unsafe", false, null), site.base());
        wb.job("cmd", Jobs.command("cmd", "none", "echo ok", "PT10S"), null);
        site.failPosts(Fault.STATUS_404, Fault.STATUS_500_AFTER_ACTING);
        wb.cli("run", "--yes", "pub", "--from", "2026-11-25", "--to", "2026-11-28");
        assertThat(wb.cliWithInput("tok3n-value\n", "credentials", "set", "api", "--type", "bearer").exit()).isZero();
        assertThat(wb.cli("pause", "cmd", "--reason", "moving house").exit()).isZero();
        Result plan = wb.cli("plan", "pub", "--key", "2026-11-29");
        String planId = plan.out().lines().filter(l -> l.startsWith("Plan ")).findFirst().orElseThrow().split(" ")[1];
        Map<String, String> before = status(wb);
        String timelineBefore = wb.cli("timeline", "pub", "2026-11-26", "--json").out();
        assertThat(before).hasSize(4);

        String url = TestPostgres.newDatabase();
        Result copy = wb.cli("migrate-state", "--to", url);
        assertThat(copy.exit()).as(copy.toString()).isZero();
        assertThat(copy.out()).contains("key_state: 4 rows").contains("credential: 1 row")
                .contains("job_control: 1 row").contains("(the same count on both sides)")
                .contains("credentials are encrypted with master key");

        // the copy, seen through a workbench on the database with the old state's master key
        Workbench pg = new Workbench(tmp.resolve("pg"));
        pg.stateArg = url;
        pg.env().put("XDG_STATE_HOME", tmp.resolve("pg-xdg").toString());
        pg.env().put("KEYLINE_MASTER_KEY", Files.readString(wb.state.resolve("secret.key")).strip());
        Files.copy(wb.jobs.resolve("pub.json"), pg.jobs.resolve("pub.json"));
        Files.copy(wb.jobs.resolve("cmd.json"), pg.jobs.resolve("cmd.json"));
        assertThat(status(pg)).isEqualTo(before);
        assertThat(pg.cli("timeline", "pub", "2026-11-26", "--json").out()).isEqualTo(timelineBefore);
        assertThat(pg.cli("credentials", "list").out()).contains("api");
        Result test = pg.cli("jobs");
        assertThat(test.out()).contains("cmd").contains("yes");
        // the plan made before moves with the state: apply executes exactly it, on the new state
        Result apply = pg.cli("apply", planId);
        assertThat(apply.exit()).as(apply.toString()).isZero();
        assertThat(site.effects("2026-11-29")).isEqualTo(1);
        // new events continue after the copied ones
        String last = pg.cli("timeline", "pub", "2026-11-29", "--json").out();
        assertThat(Json.read(last, JsonNode.class).get(0).get("type").asText()).isEqualTo("CLAIMED");

        // a process with another master key is refused on the new state
        Workbench wrong = new Workbench(tmp.resolve("wrong"));
        wrong.stateArg = url;
        wrong.env().put("XDG_STATE_HOME", tmp.resolve("wrong-xdg").toString());
        wrong.env().put("KEYLINE_MASTER_KEY", Workbench.TEST_MASTER_KEY);
        Result refused = wrong.cli("worker", "--until-idle");
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).contains("is not the key of the state");

        // the target is not empty any more: a second copy is refused, and changes nothing
        Result again = wb.cli("migrate-state", "--to", url);
        assertThat(again.exit()).as(again.toString()).isEqualTo(1);
        assertThat(again.err()).contains("is not empty");
        assertThat(status(pg)).containsEntry("pub 2026-11-29", "DONE null null").hasSize(5);
    }

    @Test
    void theTargetMustBeADatabase() {
        Result r = wb.cli("migrate-state", "--to", tmp.resolve("other").toString());
        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.err()).contains("must name a PostgreSQL database");
    }
}
