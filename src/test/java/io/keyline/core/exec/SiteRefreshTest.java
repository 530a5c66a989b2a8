package io.keyline.core.exec;

import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.domain.FailureClass;
import io.keyline.domain.JobDefinition;
import io.keyline.testing.FaultServer;
import io.keyline.testing.FaultServer.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cookies a site sets reach the credential only on an answer to a request that carried it, and never on an
 * answer that rejects the login (the operator's renewal is awaited); a request to another origin carries nothing
 * and refreshes nothing.
 */
class SiteRefreshTest {

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T09:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path tmp;

    /** A credential that records what the site set, as the store would keep it. */
    static class Recording implements CredentialMaterial {
        final List<List<String>> refreshed = new ArrayList<>();

        @Override
        public String name() {
            return "wiki";
        }

        @Override
        public String fingerprint() {
            return "00000000";
        }

        @Override
        public Map<String, String> httpHeaders(URI uri, Instant now) {
            return Map.of("Cookie", "DokuWiki=s3ssion");
        }

        @Override
        public Map<String, String> environment(Instant now) {
            return Map.of();
        }

        @Override
        public List<String> secretStrings() {
            return List.of("s3ssion");
        }

        @Override
        public SiteChange refreshedBySite(URI uri, List<String> setCookies, Instant now) {
            refreshed.add(setCookies);
            return new SiteChange("11111111", true);
        }
    }

    JobDefinition job(String base) throws Exception {
        Path file = tmp.resolve("r.json");
        Files.writeString(file, """
                { "name": "r", "key": { "type": "date", "zone": "UTC" },
                  "steps": [ { "id": "page", "kind": "http", "effect": "none", "credential": "wiki", "timeout": "PT5S",
                               "request": { "method": "GET", "url": "%s/doku.php" },
                               "response": { "authWhen": { "bodyContains": "dw__login" } } } ] }
                """.formatted(base));
        return JobFileLoader.loadFile(file).job();
    }

    @Test
    void onlyAnAnswerThatDoesNotRejectTheLoginRefreshesTheCredential() throws Exception {
        List<Reply> replies = new ArrayList<>(List.of(
                new Reply.Respond(200, Map.of("Set-Cookie", "DokuWiki=n3w; Path=/"), "<p>page</p>"),
                new Reply.Respond(401, Map.of("Set-Cookie", "DokuWiki=deleted; Max-Age=0"), "no"),
                new Reply.Respond(200, Map.of("Set-Cookie", "DokuWiki=x; Path=/"), "<form id=dw__login>"),
                new Reply.Respond(302, Map.of("Set-Cookie", "DokuWiki=y", "Location", "/login"), "")));
        try (FaultServer server = new FaultServer(r -> replies.remove(0))) {
            JobDefinition job = job(server.base());
            Recording credential = new Recording();
            HttpExecutor http = new HttpExecutor(CLOCK);
            StepContext ctx = new StepContext(job, job.steps().get(0), "2026-11-29", "run-1", 1, Map.of(), credential,
                    UnaryOperator.identity());

            StepOutcome ok = http.execute(ctx);
            assertThat(ok.succeeded()).isTrue();
            assertThat(ok.refreshed()).as("the new fingerprint, for the key's own event").isEqualTo("11111111");
            assertThat(ok.message()).doesNotContain("refreshed");
            assertThat(ok.evidence().detail()).contains("credential wiki refreshed by the site (fingerprint 11111111)");
            assertThat(credential.refreshed).containsExactly(List.of("DokuWiki=n3w; Path=/"));

            for (int i = 0; i < 3; i++) {
                StepOutcome rejected = http.execute(ctx);
                assertThat(rejected.failure()).isEqualTo(FailureClass.AUTH);
                assertThat(rejected.message()).doesNotContain("refreshed");
                assertThat(rejected.refreshed()).isNull();
            }
            assertThat(credential.refreshed).as("an answer that rejects the login changes nothing").hasSize(1);
        }
    }
}
