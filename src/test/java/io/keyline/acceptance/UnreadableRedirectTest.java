package io.keyline.acceptance;

import io.keyline.testing.FaultServer;
import io.keyline.testing.FaultServer.Reply;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A redirect to a URL with no host Keyline can read is an answer like any other redirect: the step
 * fails with the redirect's message and its {@code Location} in the evidence, followed or not.
 */
class UnreadableRedirectTest {

    @TempDir
    Path tmp;

    static final List<String> LOCATIONS = List.of("http://", "http:///x", "http://:80/x", "//", "http://a_b.example/x",
            "http://127.0.0.1:99999/x", "https://exa mple.org/x", "http://[::1/x", "http:x", "mailto:x@example.org",
            "ftp://example.org/x");

    @Test
    void aRedirectToAnUnreadableUrlFailsWithTheRedirectMessage() throws Exception {
        List<String> problems = new ArrayList<>();
        try (FaultServer server = new FaultServer(r -> Reply.status(200, "{}"))) {
            int i = 0;
            for (String location : LOCATIONS) {
                for (boolean follow : new boolean[] {false, true}) {
                    Workbench wb = new Workbench(tmp.resolve("w" + i++));
                    server.handler(r -> new Reply.Respond(302, Map.of("Location", location), ""));
                    wb.job("r", """
                            {
                              "name": "r",
                              "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                              "retry": { "maxAttempts": 1 },
                              "steps": [ { "id": "get", "kind": "http", "effect": "none", %s
                                           "request": { "method": "GET", "url": "BASE/api/x" } } ]
                            }
                            """.formatted(follow ? "\"followRedirects\": \"same-origin\"," : ""), server.base());
                    Result run = wb.cli("run", "r", "--key", "2026-11-02");
                    Result timeline = wb.cli("timeline", "r", "2026-11-02");
                    String shown = run.out() + run.err() + timeline.out();
                    String what = location + (follow ? " (same-origin)" : "");
                    if (run.exit() != 2) {
                        problems.add(what + ": exit " + run.exit());
                    }
                    if (!shown.contains("HTTP 302 redirect to " + location)) {
                        problems.add(what + ": no redirect message: " + run.out().strip());
                    }
                    if (!timeline.out().contains("Location: " + location)) {
                        problems.add(what + ": no Location in the evidence");
                    }
                    if (shown.contains("IllegalArgumentException") || shown.contains("unsupported URI")) {
                        problems.add(what + ": " + run.out().strip());
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
    }
}
