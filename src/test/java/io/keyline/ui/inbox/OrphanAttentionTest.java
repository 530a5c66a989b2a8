package io.keyline.ui.inbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.acceptance.Jobs;
import io.keyline.core.json.Json;
import io.keyline.domain.EventType;
import io.keyline.domain.KeyEvent;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.testing.Workbench.Result;
import io.keyline.ui.ConsoleFixture;
import io.keyline.ui.common.Threads;
import io.keyline.ui.shell.ConsoleViewModel;
import io.keyline.core.operations.Attention;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** Keys a killed run left RUNNING show in status --attention and the Attention page, with a one-click run. */
class OrphanAttentionTest {

    @TempDir
    Path tmp;
    ConsoleFixture fx;

    @BeforeEach
    void setUp() throws IOException {
        fx = new ConsoleFixture(tmp);
        fx.wb.job("p", Jobs.publish("p", "unsafe", false, null), fx.site.base());
    }

    @AfterEach
    void tearDown() throws IOException {
        fx.close();
    }

    /** A key RUNNING at publish, held by {@code owner} until {@code until} (as a run that was killed leaves it). */
    void running(String key, String owner, Instant until) {
        Instant now = fx.wb.clock.instant();
        KeyRecord fresh = fx.ws.store().ensure(KeyRecord.fresh("p", key, now));
        KeyRecord after = fresh.withState(KeyState.RUNNING).withStep("publish", 1).withLease("20261129T085900-abcdef",
                owner, until).withUpdatedAt(now);
        fx.ws.store().apply(fresh, after, null, new KeyEvent(0, "p", key, now, "20261129T085900-abcdef",
                EventType.CLAIMED, null, 0, KeyState.RUNNING, null, "run started", null, null, null));
    }

    @Test
    void anInterruptedKeyNeedsAttentionAndOneClickRunsIt() {
        Instant now = fx.wb.clock.instant();
        // the lease of a process on another machine ran out: interrupted
        running("2026-11-28", "elsewhere/4242/deadbeef", now.minus(Duration.ofMinutes(1)));
        // a process that still holds its lease: running, not shown
        running("2026-11-20", "elsewhere/4343/cafebabe", now.plus(Duration.ofMinutes(1)));

        Result text = fx.wb.cli("status", "--attention");
        assertThat(text.exit()).isZero();
        assertThat(text.out()).contains("2026-11-28").contains("RUNNING (interrupted)")
                .contains("interrupted — will resume on the next run").doesNotContain("2026-11-20");
        Result json = fx.wb.cli("status", "--attention", "--json");
        JsonNode rows = Json.read(json.out(), JsonNode.class);
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).get("state").asText()).isEqualTo("RUNNING");
        assertThat(rows.get(0).get("interrupted").asBoolean()).isTrue();
        assertThat(rows.get(0).get("message").asText()).startsWith("interrupted — will resume on the next run");
        Result all = fx.wb.cli("status", "--json");
        assertThat(Json.read(all.out(), JsonNode.class).findValues("interrupted").stream().map(JsonNode::asBoolean))
                .containsExactlyInAnyOrder(true, false);

        ConsoleViewModel console = new ConsoleViewModel(fx.services, Threads.direct());
        InboxViewModel inbox = new InboxViewModel(console);
        console.refresh();
        // (the job starts 2026-01-01: its days that never ran are one more item, of missing keys)
        List<Attention.Item> waiting = inbox.items().stream().filter(i -> i.waitingKeys() > 0).toList();
        assertThat(waiting).hasSize(1);
        Attention.Item item = waiting.get(0);
        assertThat(item.key()).isEqualTo("2026-11-28");
        assertThat(item.reason()).startsWith("interrupted — will resume on the next run");
        assertThat(item.action()).isEqualTo("Run now");

        inbox.runNow(item);
        assertThat(fx.state("p", "2026-11-28")).isEqualTo(KeyState.DONE);
        assertThat(inbox.items()).allMatch(i -> i.kind() == Attention.Kind.MISSING);
        assertThat(fx.site.effects("2026-11-28")).isEqualTo(1); // taken over and resumed at publish (never started)
    }
}
