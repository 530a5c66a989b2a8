package io.keyline.cli;

import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a person reads on the command line reads as a person writes it: times as the tables print them (not
 * {@code 2026-12-05T04:28:21.264Z}), durations as a person says them (not {@code PT168H}), the command a waiting
 * key asks for whole, and a timeline whose columns line up whether an event names a step or not.
 */
class HumanOutputTest {

    private static final Pattern MACHINE_TIME = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d");
    private static final Pattern MACHINE_DURATION = Pattern.compile("\\bPT\\d");

    @Test
    void statusNamesTheRenewCommandWholeAndTheRejectionsTimeAsItsTablePrintsTimes(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        Result demo = wb.cli("demo", "--port", "0");
        assertThat(demo.exit()).as(demo.toString()).isZero();

        Result status = wb.cli("status", "daily-article");
        assertThat(status.out()).as(status.toString()).doesNotContainPattern(MACHINE_TIME);
        List<String> parked = new ArrayList<>();
        for (String line : status.out().split("\\R")) {
            if (line.contains("NEEDS_CREDENTIAL")) {
                parked.add(line);
            }
        }
        assertThat(parked).as(status.out()).hasSize(3);
        for (String line : parked.subList(1, parked.size())) {
            // the keys the breaker held back say what renews the credential, not "keyline credentials set sandbox-cooki…"
            assertThat(line).contains("keyline credentials set sandbox-cookie").doesNotContain("sandbox-cooki…");
        }
    }

    @Test
    void aTimelinesMessagesStartInOneColumnWithOrWithoutAStep(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        assertThat(wb.cli("demo", "--port", "0").exit()).isZero();
        String waiting = null;
        for (com.fasterxml.jackson.databind.JsonNode k : io.keyline.core.json.Json.read(
                wb.cli("status", "daily-article", "--json").out(), com.fasterxml.jackson.databind.JsonNode.class)) {
            if (k.get("state").asText().equals("NEEDS_CONFIRMATION")) {
                waiting = k.get("key").asText();
            }
        }
        assertThat(waiting).isNotNull();

        Result timeline = wb.cli("timeline", "daily-article", waiting);
        assertThat(timeline.exit()).as(timeline.toString()).isZero();
        List<String> events = new ArrayList<>();
        for (String line : timeline.out().split("\\R")) {
            if (line.matches("  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  .*")) {
                events.add(line);
            }
        }
        assertThat(events).as(timeline.out()).anyMatch(l -> l.contains("CLAIMED"))
                .anyMatch(l -> l.contains("WAITING_FOR_CONFIRMATION"));
        // the state and the message start at the same place on every line, whether the event names a step or not
        List<String> said = List.of("run 2", "write: article written", "probe: /total", "attempt 1 of publish",
                "outcome unknown", "outcome of publish unknown");
        List<Integer> states = new ArrayList<>();
        List<Integer> messages = new ArrayList<>();
        for (String line : events) {
            states.add(line.contains(" RUNNING ") ? line.indexOf(" RUNNING ") : line.indexOf(" NEEDS_CONFIRMATION "));
            messages.add(said.stream().filter(line::contains).map(line::indexOf).min(Integer::compare).orElse(-1));
        }
        assertThat(states).as(String.join("\n", events)).containsOnly(states.get(0));
        assertThat(messages).as(String.join("\n", events)).doesNotContain(-1).containsOnly(messages.get(0));
    }

    @Test
    void theWorkerSaysItsTickAndCatchUpWindowAsAPersonWouldType(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        assertThat(wb.cli("init").exit()).isZero();
        Result worker = wb.cli("worker", "--until-idle", "--tick", "PT30S", "--catch-up", "P7D");
        assertThat(worker.exit()).as(worker.toString()).isZero();
        assertThat(worker.out()).as(worker.toString()).contains("tick 30 s", "catch-up 7 d")
                .doesNotContainPattern(MACHINE_DURATION);
    }

    @Test
    void aClippedMessageEndsAtAWordNotInsideOne() {
        String said = "credential sandbox-cookie was rejected; not sent again until renewed: keyline credentials set "
                + "sandbox-cookie (or until keyline credentials test sandbox-cookie finds it accepted)";
        assertThat(Text.clip(said, 120)).isEqualTo("credential sandbox-cookie was rejected; not sent again until "
                + "renewed: keyline credentials set sandbox-cookie (or until…");
        assertThat(Text.clip("x".repeat(200), 160)).as("a text with no space in its last fifth is cut at the limit")
                .hasSize(160).endsWith("x…");
        assertThat(Text.clip("short enough", 160)).isEqualTo("short enough");
    }

    @Test
    void theSandboxSaysUntilWhenItsCookieIsValidAsTheTablesPrintTimes(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(0);
        SandboxCommand.stop = stopped;
        try {
            Result sandbox = wb.cli("sandbox", "--port", "0");
            assertThat(sandbox.exit()).as(sandbox.toString()).isZero();
            assertThat(sandbox.out()).as(sandbox.toString()).contains("valid until ")
                    .doesNotContainPattern(MACHINE_TIME);
        } finally {
            SandboxCommand.stop = null;
        }
    }
}
