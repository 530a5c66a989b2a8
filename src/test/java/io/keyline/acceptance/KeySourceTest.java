package io.keyline.acceptance;

import com.sun.net.httpserver.HttpServer;
import io.keyline.core.RunTrace;
import io.keyline.core.Scheduler;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import io.keyline.workspace.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job keyed by document number finds its own keys ({@code "keys": {"source": …}}): {@code run --due} and the
 * scheduler run the keys its source lists that are not done; a bad entry is reported and never run; a listing
 * longer than {@code maxKeys} runs nothing.
 */
class KeySourceTest {

    /** A safe-only manual job whose step appends its key to built.txt; SOURCE is its key source. */
    static String job(String name, String source) {
        return """
            { "name": "NAME", "key": { "type": "manual" },
              "keys": SOURCE,
              "steps": [ { "id": "build", "kind": "command", "effect": "none",
                           "command": ["sh", "-c", "echo \\"$KEYLINE_KEY\\" >> built.txt"] } ] }
            """.replace("NAME", name).replace("SOURCE", source);
    }

    /** A program that lists the documents in documents.list as its output keys. */
    static final String LIST = "printf '{\"outputs\": {\"keys\": %s}}\\n' \"$(cat documents.list)\"\n";

    static List<String> lines(Path f) throws Exception {
        return Files.exists(f) ? Files.readAllLines(f) : List.of();
    }

    @Test
    void aCommandSourceAddsItsNewKeysUnderRunDueAndTheScheduler(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        Files.writeString(wb.jobs.resolve("list.sh"), "echo listing >&2\n" + LIST);
        Files.writeString(wb.jobs.resolve("documents.list"), "[\"INV-1\", \"INV-2\"]");
        wb.job("invoices", job("invoices", "{ \"source\": { \"command\": [\"sh\", \"list.sh\"] } }"), null);
        Path built = wb.jobs.resolve("built.txt");

        Result first = wb.cli("run", "--due");
        assertThat(first.exit()).as(first.toString()).isZero();
        assertThat(lines(built)).containsExactly("INV-1", "INV-2");

        // a new document appears: only it runs; keys that are done are not run again
        Files.writeString(wb.jobs.resolve("documents.list"), "[\"INV-1\", \"INV-2\", \"INV-3\"]");
        Result second = wb.cli("run", "--due");
        assertThat(second.exit()).as(second.toString()).isZero();
        assertThat(lines(built)).containsExactly("INV-1", "INV-2", "INV-3");
        Result nothing = wb.cli("run", "--due");
        assertThat(nothing.out()).contains("Nothing is due");
        assertThat(lines(built)).hasSize(3);

        // the console's scheduler asks the source on its tick
        Files.writeString(wb.jobs.resolve("documents.list"), "[\"INV-3\", \"INV-4\"]");
        try (Workspace ws = new Workspace(wb.state, wb.jobs, wb.options(), wb.env())) {
            Scheduler scheduler = ws.scheduler(ws.engine(RunTrace.NONE), Duration.ofDays(7));
            assertThat(scheduler.tick()).extracting(Scheduler.Started::key).containsExactly("INV-4");
            assertThat(scheduler.tick()).isEmpty();
        }
        assertThat(lines(built)).containsExactly("INV-1", "INV-2", "INV-3", "INV-4");
        assertThat(wb.cli("status", "invoices").out()).contains("INV-4", "DONE");
    }

    @Test
    void anHttpSourceListsKeysAndABadEntryIsReportedAndNeverRun(@TempDir Path tmp) throws Exception {
        AtomicReference<String> answer = new AtomicReference<>(
                "{\"items\": [{\"id\": \"DOC-7\"}, {\"id\": 8}, {\"id\": \"bad\\u0007key\"}, {\"id\": true}, {}]}");
        AtomicInteger asked = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/docs", ex -> {
            asked.incrementAndGet();
            byte[] body = answer.get().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(ex.getRequestMethod().equals("GET") ? 200 : 405, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
        try {
            Workbench wb = new Workbench(tmp);
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            wb.job("docs", job("docs", """
                { "source": { "url": "BASE/docs?job={job}", "extract": { "json": "/items", "each": "/id" } } }
                """), base);
            Path built = wb.jobs.resolve("built.txt");

            Result run = wb.cli("run", "--due");
            assertThat(asked.get()).isEqualTo(1);
            assertThat(lines(built)).containsExactly("8", "DOC-7");
            assertThat(run.exit()).as("a bad listing is not a clean run: " + run).isEqualTo(1);
            assertThat(run.err()).contains("docs: keys.source[2] is not a key", "control character",
                    "docs: keys.source[3] is not a key: a boolean", "docs: keys.source[4] is not a key: nothing at");
            assertThat(run.err()).doesNotContain("\u0007");
            assertThat(wb.cli("status", "docs").out()).doesNotContain("bad").doesNotContain("true");

            // the source fails: nothing is taken, said on stderr, exit 1
            answer.set("not json");
            Result broken = wb.cli("run", "--due");
            assertThat(broken.exit()).as(broken.toString()).isEqualTo(1);
            assertThat(broken.err()).contains("docs: keys.source");
            assertThat(lines(built)).hasSize(2);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aListingLongerThanMaxKeysRunsNothing(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        Files.writeString(wb.jobs.resolve("list.sh"), LIST);
        Files.writeString(wb.jobs.resolve("documents.list"), "[\"A\", \"B\", \"C\"]");
        wb.job("bounded", job("bounded", "{ \"maxKeys\": 2, \"source\": { \"command\": [\"sh\", \"list.sh\"] } }"),
                null);
        Path built = wb.jobs.resolve("built.txt");

        Result run = wb.cli("run", "--due");
        assertThat(run.exit()).as(run.toString()).isEqualTo(1);
        assertThat(run.err()).contains("bounded: keys.source listed 3 keys, more than maxKeys 2: nothing taken");
        assertThat(lines(built)).isEmpty();

        Files.writeString(wb.jobs.resolve("documents.list"), "[\"A\", \"B\"]");
        Result within = wb.cli("run", "--due");
        assertThat(within.exit()).as(within.toString()).isZero();
        assertThat(lines(built)).containsExactly("A", "B");
    }

    @Test
    void theReviewItsListedKeysWaitForIsThePlanTheRunSaysToMake(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        Files.writeString(wb.jobs.resolve("list.sh"), LIST);
        Files.writeString(wb.jobs.resolve("documents.list"), "[\"INV-1\", \"INV-2\"]");
        wb.job("invoices", job("invoices", "{ \"source\": { \"command\": [\"sh\", \"list.sh\"] } }")
                .replace("\"effect\": \"none\"", "\"effect\": \"unsafe\""), null);
        Path built = wb.jobs.resolve("built.txt");

        Result due = wb.cli("run", "--due");
        assertThat(due.exit()).as(due.toString()).isEqualTo(4);
        assertThat(due.out()).contains("next: review job invoices first: keyline plan invoices, then keyline apply");
        assertThat(lines(built)).isEmpty();

        // the advice followed, word for word
        Result plan = wb.cli("plan", "invoices");
        assertThat(plan.exit()).as(plan.toString()).isZero();
        assertThat(plan.out()).contains("INV-1").contains("INV-2");
        String id = plan.out().replaceAll("(?s).*keyline apply ([0-9a-f]+).*", "$1");
        Result apply = wb.cli("apply", id);
        assertThat(apply.exit()).as(apply.toString()).isZero();
        assertThat(lines(built)).containsExactly("INV-1", "INV-2");
    }
}
