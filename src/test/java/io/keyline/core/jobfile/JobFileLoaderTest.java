package io.keyline.core.jobfile;

import io.keyline.domain.ConfirmPolicy;
import io.keyline.domain.Effect;
import io.keyline.domain.HttpRequestSpec;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeySpec;
import io.keyline.domain.KeyType;
import io.keyline.domain.Condition;
import io.keyline.domain.ProbeSpec;
import io.keyline.domain.Redirects;
import io.keyline.domain.ResponseRules;
import io.keyline.domain.RetryPolicy;
import io.keyline.domain.StepDefinition;
import io.keyline.domain.StepKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.ZoneId;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class JobFileLoaderTest {

    private static final String MINIMAL_STEP = "{ \"id\": \"a\", \"kind\": \"command\", \"effect\": \"none\", \"command\": [\"true\"] }";

    @TempDir
    Path dir;

    @Test
    void specExampleLoadsWithEveryFieldMapped() throws Exception {
        Path file = Path.of(getClass().getResource("/jobfiles/valid/daily-article.json").toURI());

        JobFileLoader.Result result = JobFileLoader.loadFile(file);

        assertThat(result.errors()).isEmpty();
        assertThat(result.job()).isNotNull();
        JobDefinition job = result.job();
        RetryPolicy retry = new RetryPolicy(3, Duration.ofSeconds(5), 2.0, Duration.ofMinutes(5), 0.5, Duration.ofMinutes(30));
        assertThat(job.name()).isEqualTo("daily-article");
        assertThat(job.description()).isEqualTo("Write and publish the daily article");
        assertThat(job.key()).isEqualTo(new KeySpec(KeyType.DATE, ZoneId.of("Asia/Shanghai"), "2026-10-01"));
        assertThat(job.schedule().text()).isEqualTo("0 9 * * *");
        assertThat(job.retry()).isEqualTo(retry);
        assertThat(job.file()).isEqualTo(file);
        assertThat(job.folder()).isEqualTo(file.toAbsolutePath().normalize().getParent());
        assertThat(job.fileSha256()).isEqualTo(sha256(file));
        assertThat(job.steps()).hasSize(2);

        assertThat(job.steps().get(0)).isEqualTo(new StepDefinition("write", StepKind.COMMAND, Effect.NONE,
                ConfirmPolicy.NEVER, null, List.of("./write-article.sh", "{key}"), Map.of(), null, null, null,
                Duration.ofMinutes(10), retry));

        StepDefinition publish = job.steps().get(1);
        assertThat(publish.id()).isEqualTo("publish");
        assertThat(publish.kind()).isEqualTo(StepKind.HTTP);
        assertThat(publish.effect()).isEqualTo(Effect.UNSAFE);
        assertThat(publish.confirm()).isEqualTo(ConfirmPolicy.NEVER);
        assertThat(publish.credential()).isEqualTo("site-cookie");
        assertThat(publish.command()).isEmpty();
        assertThat(publish.env()).isEmpty();
        assertThat(publish.workdir()).isNull();
        assertThat(publish.request()).isEqualTo(new HttpRequestSpec("POST", "https://example.org/api/articles",
                Map.of("Content-Type", "application/json"), null, "articles/{key}.md", ResponseRules.NONE, Redirects.NEVER));
        assertThat(publish.probe()).isEqualTo(new ProbeSpec(StepKind.HTTP, "GET",
                "https://example.org/api/articles?date={key}", Map.of(),
                new Condition.Compare("/total", Condition.Comparison.NOT_EQUALS, List.of("0")), ResponseRules.NONE,
                Redirects.NEVER, List.of(), Duration.ofSeconds(30)));
        assertThat(publish.timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(publish.retry()).isEqualTo(retry);
    }

    @Test
    void defaultsApplyWhenOptionalFieldsAreMissing() throws IOException {
        Path file = write("minimal.json", "{ \"name\": \"minimal\", \"key\": { \"type\": \"week\" }, \"steps\": [ "
                + MINIMAL_STEP + ", { \"id\": \"b\", \"kind\": \"http\", \"effect\": \"idempotent\","
                + " \"request\": { \"method\": \"put\", \"url\": \"https://example.org/{key}\" } } ] }");

        JobDefinition job = JobFileLoader.loadFile(file).job();

        assertThat(job.description()).isEmpty();
        assertThat(job.key()).isEqualTo(new KeySpec(KeyType.WEEK, ZoneId.systemDefault(), null));
        assertThat(job.schedule()).isNull();
        assertThat(job.retry()).isEqualTo(RetryPolicy.DEFAULT);
        assertThat(job.steps().get(0).timeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(job.steps().get(0).confirm()).isEqualTo(ConfirmPolicy.NEVER);
        assertThat(job.steps().get(0).retry()).isEqualTo(RetryPolicy.DEFAULT);
        assertThat(job.steps().get(1).timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(job.steps().get(1).request()).isEqualTo(
                new HttpRequestSpec("PUT", "https://example.org/{key}", Map.of(), null, null, ResponseRules.NONE,
                        Redirects.NEVER));
    }

    @Test
    void stepRetryInheritsMissingFieldsFromTheJob() throws IOException {
        Path file = write("retry.json", "{ \"name\": \"retry\", \"key\": { \"type\": \"date\" },"
                + " \"retry\": { \"maxAttempts\": 5, \"maxDelay\": \"PT1M\" },"
                + " \"steps\": [ { \"id\": \"a\", \"kind\": \"command\", \"effect\": \"none\", \"command\": [\"true\"],"
                + " \"retry\": { \"initialDelay\": \"PT1S\", \"jitter\": 0 } } ] }");

        JobDefinition job = JobFileLoader.loadFile(file).job();

        assertThat(job.retry()).isEqualTo(new RetryPolicy(5, Duration.ofSeconds(5), 2.0, Duration.ofMinutes(1), 0.5,
                Duration.ofMinutes(30)));
        assertThat(job.steps().get(0).retry()).isEqualTo(new RetryPolicy(5, Duration.ofSeconds(1), 2.0,
                Duration.ofMinutes(1), 0.0, Duration.ofMinutes(30)));
    }

    /**
     * {@code retryFrom} names an earlier step a retry of this one goes back to: a later or unknown step is an error,
     * and so is an unsafe step on the way back (a retry would make its effect again).
     */
    @Test
    void retryFromNamesAnEarlierStepAndGoesBackOnlyOverSafeSteps() throws IOException {
        String steps = "{ \"id\": \"token\", \"kind\": \"command\", \"effect\": \"none\", \"command\": [\"true\"] },"
                + " { \"id\": \"post\", \"kind\": \"command\", \"effect\": \"UNSAFE_OR_NOT\", \"command\": [\"true\"] },"
                + " { \"id\": \"save\", \"kind\": \"command\", \"effect\": \"unsafe\", \"command\": [\"true\"],"
                + " \"retryFrom\": \"FROM\" }";
        Path good = write("good.json", "{ \"name\": \"good\", \"key\": { \"type\": \"date\" }, \"steps\": ["
                + steps.replace("UNSAFE_OR_NOT", "none").replace("FROM", "token") + "] }");
        Path later = write("later.json", "{ \"name\": \"later\", \"key\": { \"type\": \"date\" }, \"steps\": ["
                + steps.replace("UNSAFE_OR_NOT", "none").replace("FROM", "save") + "] }");
        Path unknown = write("unknown.json", "{ \"name\": \"unknown\", \"key\": { \"type\": \"date\" }, \"steps\": ["
                + steps.replace("UNSAFE_OR_NOT", "none").replace("FROM", "tokn") + "] }");
        Path unsafe = write("unsafe.json", "{ \"name\": \"unsafe\", \"key\": { \"type\": \"date\" }, \"steps\": ["
                + steps.replace("UNSAFE_OR_NOT", "unsafe").replace("FROM", "token") + "] }");

        assertThat(JobFileLoader.loadFile(good).job().steps()).extracting(StepDefinition::retryFrom)
                .containsExactly(null, null, "token");
        assertThat(JobFileLoader.loadFile(later).errors()).extracting(JobFileError::message).containsExactly(
                "steps[2].retryFrom: step \"save\", which does not run before step \"save\"");
        assertThat(JobFileLoader.loadFile(unknown).errors()).extracting(JobFileError::message).singleElement()
                .asString().startsWith("steps[2].retryFrom: unknown step \"tokn\"").contains("\"token\"");
        assertThat(JobFileLoader.loadFile(unsafe).errors()).extracting(JobFileError::message).containsExactly(
                "steps[2].retryFrom: a retry of step \"save\" would run the unsafe step \"post\" again; go back only"
                        + " over steps that are safe to repeat");
    }

    /**
     * A step found done by its probe was not sent: its outputs are what its probe extracts. A later use of another
     * output of it is a job-file error that says how to give it, or that it cannot be given; the probe's own
     * templates and a command's {@code env} are read the same way.
     */
    @Test
    void anOutputAStepFoundDoneByItsProbeWouldNotHaveIsAnError() throws IOException {
        String job = """
                { "name": "NAME", "key": { "type": "week" }, "steps": [
                  { "id": "publish", "kind": "http", "effect": "unsafe",
                    "request": { "method": "POST", "url": "https://example.org/releases", "body": "r" },
                    "probe": PROBE },
                  { "id": "attach", "kind": "http", "effect": "unsafe",
                    "request": { "method": "POST", "url": "https://example.org/releases/{steps.publish.outputs.OUT}",
                                 "body": "f" },
                    "probe": { "kind": "http", "url": "https://example.org/releases/{steps.publish.outputs.OUT}/assets",
                               "presentWhen": { "status": [200] } } },
                  { "id": "note", "kind": "command", "effect": "none", "command": ["true"],
                    "env": { "ID": "{steps.publish.outputs.OUT}" } } ] }
                """;
        String http = "{ \"kind\": \"http\", \"url\": \"https://example.org/tags/{key}\","
                + " \"presentWhen\": { \"status\": [200] }, \"extract\": { \"id\": { \"json\": \"/id\" } } }";
        String command = "{ \"kind\": \"command\", \"command\": [\"./has-release.sh\", \"{key}\"] }";
        Path extracted = write("extracted.json", job.replace("NAME", "extracted").replace("PROBE", http)
                .replace("OUT", "id"));
        Path other = write("other.json", job.replace("NAME", "other").replace("PROBE", http)
                .replace("OUT", "name"));
        Path status = write("status.json", job.replace("NAME", "status").replace("PROBE", http)
                .replace("OUT", "status"));
        Path byCommand = write("by-command.json", job.replace("NAME", "by-command").replace("PROBE", command)
                .replace("OUT", "id"));

        assertThat(JobFileLoader.loadFile(extracted).errors()).isEmpty();
        assertThat(JobFileLoader.loadFile(other).errors()).extracting(e -> e.line() + ":" + e.message())
                .containsExactly("6:" + "steps[1].request.url: step \"attach\" uses {steps.publish.outputs.name}, which"
                                + " step \"publish\" does not have when its probe finds the work already done (the step"
                                + " is then not sent, and its outputs are what its probe extracts): add \"name\" to its"
                                + " probe's \"extract\" (e.g. \"name\": {\"json\": \"/name\"})",
                        "8:" + "steps[1].probe.url: step \"attach\" uses {steps.publish.outputs.name}, which"
                                + " step \"publish\" does not have when its probe finds the work already done (the step"
                                + " is then not sent, and its outputs are what its probe extracts): add \"name\" to its"
                                + " probe's \"extract\" (e.g. \"name\": {\"json\": \"/name\"})",
                        "11:" + "steps[2].env.ID: step \"note\" uses {steps.publish.outputs.name}, which"
                                + " step \"publish\" does not have when its probe finds the work already done (the step"
                                + " is then not sent, and its outputs are what its probe extracts): add \"name\" to its"
                                + " probe's \"extract\" (e.g. \"name\": {\"json\": \"/name\"})");
        assertThat(JobFileLoader.loadFile(status).errors()).extracting(JobFileError::message).first().asString()
                .endsWith(": a step that was not sent has no \"status\"; do not use it after a step its probe may"
                        + " find done");
        assertThat(JobFileLoader.loadFile(byCommand).errors()).extracting(JobFileError::message).first().asString()
                .endsWith(": a command probe gives no values; read it in a step after \"publish\" that asks again");
    }

    @Test
    void commandStepAndProbeFieldsAreMapped() throws IOException {
        Path file = write("command.json", """
                { "name": "command", "key": { "type": "manual", "zone": "UTC" },
                  "steps": [
                    { "id": "render", "kind": "command", "effect": "none", "command": ["./render.sh"] },
                    { "id": "upload", "kind": "command", "effect": "unsafe", "confirm": "always",
                      "credential": "s3.upload", "command": ["./upload.sh", "{key}", "{{raw}}"],
                      "env": { "TARGET": "bucket/{job}/{key}", "RUN": "{runId}", "FROM": "{steps.render.outputs.path}" },
                      "workdir": "out", "timeout": "PT2M",
                      "probe": { "kind": "command", "command": ["./exists.sh", "{job}"],
                                 "timeout": "PT5S" } } ] }
                """);

        StepDefinition upload = JobFileLoader.loadFile(file).job().step("upload");

        assertThat(upload).isEqualTo(new StepDefinition("upload", StepKind.COMMAND, Effect.UNSAFE, ConfirmPolicy.ALWAYS,
                "s3.upload", List.of("./upload.sh", "{key}", "{{raw}}"),
                Map.of("TARGET", "bucket/{job}/{key}", "RUN", "{runId}", "FROM", "{steps.render.outputs.path}"), "out", null,
                new ProbeSpec(StepKind.COMMAND, null, null, Map.of(), null, ResponseRules.NONE, Redirects.NEVER,
                        List.of("./exists.sh", "{job}"), Duration.ofSeconds(5)),
                Duration.ofMinutes(2), RetryPolicy.DEFAULT));
        assertThat(upload.env().keySet()).containsExactly("TARGET", "RUN", "FROM");
    }

    @Test
    void anExtractRuleMarkedSecretFindsAsItsRuleAndAWrongTypeNamesTheField() throws IOException {
        Path file = write("secret.json", """
                { "name": "secret", "key": { "type": "date" },
                  "steps": [ { "id": "page", "kind": "http", "effect": "none",
                    "request": { "method": "GET", "url": "https://example.org/edit" },
                    "extract": { "sectok": { "css": "input[name=sectok]", "attr": "value", "secret": true },
                                 "title": { "css": "h1", "text": true, "secret": false } } } ] }
                """);

        Map<String, io.keyline.domain.Extraction> rules = JobFileLoader.loadFile(file).job().step("page").request()
                .extract();

        assertThat(rules.get("sectok")).isEqualTo(new io.keyline.domain.Extraction.Css("input[name=sectok]",
                "value", false, true));
        assertThat(rules.get("title").secret()).isFalse();
        Path bad = write("bad.json", Files.readString(file).replace("\"secret\": true", "\"secret\": \"yes\""));
        assertThat(JobFileLoader.loadFile(bad).errors()).extracting(Object::toString).singleElement()
                .asString().contains("bad.json:4:").contains("steps[0].extract.sectok.secret must be true or false");
    }

    @Test
    void presentWhenValuesAreStoredAsCanonicalJson() throws IOException {
        Path file = write("probe.json", """
                { "name": "probe", "key": { "type": "month" },
                  "steps": [ { "id": "post", "kind": "http", "effect": "unsafe",
                    "request": { "method": "POST", "url": "https://example.org/p", "body": "{{\\"m\\": \\"{key}\\"}}",
                                 "headers": { "X-B": "2", "X-A": "1" } },
                    "probe": { "kind": "http", "method": "head", "url": "https://example.org/p?m={key}",
                               "headers": { "Accept": "application/json" },
                               "presentWhen": { "jsonPointer": "", "equals": { "b": 1.50, "a": [true, null, "x\\n"] } } } } ] }
                """);

        StepDefinition post = JobFileLoader.loadFile(file).job().steps().get(0);

        assertThat(post.request().body()).isEqualTo("{{\"m\": \"{key}\"}}");
        assertThat(post.request().headers().keySet()).containsExactly("X-B", "X-A");
        assertThat(post.probe().method()).isEqualTo("HEAD");
        assertThat(post.probe().headers()).containsEntry("Accept", "application/json");
        assertThat(post.probe().presentWhen())
                .isEqualTo(new Condition.Compare("", Condition.Comparison.EQUALS,
                        List.of("{\"a\":[true,null,\"x\\n\"],\"b\":1.5}")));
    }

    @Test
    void presentWhenExistsIsABoolean() throws IOException {
        Path file = write("exists.json", """
                { "name": "exists", "key": { "type": "date" },
                  "steps": [ { "id": "post", "kind": "http", "effect": "unsafe",
                    "request": { "method": "POST", "url": "https://example.org/p" },
                    "probe": { "kind": "http", "url": "https://example.org/p/{key}",
                               "presentWhen": { "jsonPointer": "/items/0/id", "exists": true } } } ] }
                """);

        assertThat(JobFileLoader.loadFile(file).job().steps().get(0).probe().presentWhen())
                .isEqualTo(new Condition.Exists("/items/0/id", true));
    }

    @Test
    void conditionsOfEveryKindAndResponseRulesAreMapped() throws IOException {
        Path file = write("rules.json", """
                { "name": "rules", "key": { "type": "date" },
                  "steps": [
                    { "id": "get", "kind": "http", "effect": "none", "followRedirects": "same-origin",
                      "request": { "method": "GET", "url": "https://example.org/report/{key}" },
                      "response": {
                        "successWhen": { "all": [ { "status": [200, 201] },
                                                  { "jsonPointer": "/errcode", "in": [0, "0", null] } ] },
                        "authWhen": { "any": [ { "header": "Location", "matches": "^/login" },
                                               { "jsonPointer": "/errcode", "notIn": [0] } ] },
                        "retryWhen": { "bodyContains": "try again" } } },
                    { "id": "post", "kind": "http", "effect": "unsafe",
                      "request": { "method": "POST", "url": "https://example.org/p" },
                      "probe": { "kind": "http", "url": "https://example.org/p/{key}", "followRedirects": "same-origin",
                                 "presentWhen": { "jsonPointer": "/total", "equals": 1.50 },
                                 "response": { "authWhen": { "jsonPointer": "/code", "exists": true } } } } ] }
                """);

        JobFileLoader.Result result = JobFileLoader.loadFile(file);

        assertThat(result.errors()).isEmpty();
        HttpRequestSpec get = result.job().step("get").request();
        assertThat(get.redirects()).isEqualTo(Redirects.SAME_ORIGIN);
        assertThat(get.response()).isEqualTo(new ResponseRules(
                new Condition.All(List.of(new Condition.Status(List.of(200, 201)),
                        new Condition.Compare("/errcode", Condition.Comparison.IN, List.of("0", "\"0\"", "null")))),
                new Condition.Any(List.of(new Condition.Header("Location", "^/login"),
                        new Condition.Compare("/errcode", Condition.Comparison.NOT_IN, List.of("0")))),
                new Condition.BodyContains("try again")));
        ProbeSpec probe = result.job().step("post").probe();
        assertThat(probe.redirects()).isEqualTo(Redirects.SAME_ORIGIN);
        assertThat(probe.presentWhen()).isEqualTo(new Condition.Compare("/total", Condition.Comparison.EQUALS,
                List.of("1.5")));
        assertThat(probe.response()).isEqualTo(new ResponseRules(null, new Condition.Exists("/code", true), null));
        assertThat(result.job().step("post").request().redirects()).isEqualTo(Redirects.NEVER);
        assertThat(result.job().step("post").request().response()).isEqualTo(ResponseRules.NONE);
    }

    @Test
    void missingFileIsReportedAtItsFirstCharacter() {
        Path file = dir.resolve("absent.json");

        assertThat(JobFileLoader.loadFile(file).errors())
                .containsExactly(new JobFileError(file, 1, 1, "job file does not exist"));
    }

    @Test
    void folderLoadsGoodFilesAndReportsEveryBrokenOne() throws IOException {
        write("b-good.json", job("good"));
        write("a-broken.json", "{ \"name\": \"Bad Name\", \"key\": { \"type\": \"date\" }, \"steps\": [" + MINIMAL_STEP + "] }");
        write("c-broken.json", "{ \"name\": \"broken\",\n  \"key\": { \"type\": \"date\" } }");
        write("notes.txt", "not a job");
        Files.createDirectories(dir.resolve("nested"));
        write("nested/deeper.json", job("deeper"));

        JobCatalog catalog = JobFileLoader.loadFolder(dir);

        assertThat(catalog.jobs()).extracting(JobDefinition::name).containsExactly("good");
        assertThat(catalog.job("good")).isPresent();
        assertThat(catalog.job("deeper")).isEmpty();
        assertThat(catalog.errors()).extracting(Object::toString).containsExactly(
                dir.resolve("a-broken.json") + ":1:11: name \"Bad Name\" is invalid: use lower-case letters, digits and"
                        + " \"-\", starting with a letter or digit, at most 63 characters",
                dir.resolve("c-broken.json") + ":1:1: missing required field \"steps\" in job");
    }

    @Test
    void laterFileWithTheSameJobNameIsRejected() throws IOException {
        write("b.json", job("daily"));
        write("a.json", job("daily"));
        write("c.json", job("other"));

        JobCatalog catalog = JobFileLoader.loadFolder(dir);

        assertThat(catalog.jobs()).extracting(JobDefinition::name).containsExactly("daily", "other");
        assertThat(catalog.job("daily").orElseThrow().file()).isEqualTo(dir.resolve("a.json"));
        assertThat(catalog.errors()).containsExactly(new JobFileError(dir.resolve("b.json"), 1, 11,
                "duplicate job name \"daily\" (already defined in a.json)"));
    }

    @Test
    void missingFolderIsOneError() {
        Path missing = dir.resolve("jobs");

        JobCatalog catalog = JobFileLoader.loadFolder(missing);

        assertThat(catalog.jobs()).isEmpty();
        assertThat(catalog.errors()).containsExactly(new JobFileError(missing, 1, 1, "jobs folder does not exist: " + missing));
    }

    @Test
    void catalogSortsJobsByNameAndErrorsByFileAndLine() {
        JobFileError late = new JobFileError(Path.of("b.json"), 1, 1, "x");
        JobFileError second = new JobFileError(Path.of("a.json"), 9, 1, "y");
        JobFileError first = new JobFileError(Path.of("a.json"), 2, 5, "z");

        JobCatalog catalog = new JobCatalog(List.of(), List.of(late, second, first));

        assertThat(catalog.errors()).containsExactly(first, second, late);
    }

    @Test
    void byteOrderMarkIsIgnoredAndCountsInTheHash() throws Exception {
        Path file = dir.resolve("bom.json");
        Files.write(file, ("\uFEFF" + job("bom")).getBytes(StandardCharsets.UTF_8));

        JobFileLoader.Result result = JobFileLoader.loadFile(file);

        assertThat(result.errors()).isEmpty();
        assertThat(result.job().fileSha256()).isEqualTo(sha256(file));
    }

    private static String job(String name) {
        return "{ \"name\": \"" + name + "\", \"key\": { \"type\": \"date\" }, \"steps\": [" + MINIMAL_STEP + "] }";
    }

    /** A GraphQL API is asked by POST: a probe may send a query in a JSON body (or a form), and nothing else. */
    @Test
    void aProbeMayAskByPostWithABodyGivenByItsFields() throws IOException {
        Path file = write("graphql.json", """
                { "name": "graphql", "key": { "type": "date" },
                  "steps": [ { "id": "publish", "kind": "http", "effect": "unsafe",
                    "request": { "method": "POST", "url": "https://gql.example.org/", "json": { "query": "x" } },
                    "probe": { "kind": "http", "method": "POST", "url": "https://gql.example.org/",
                               "json": { "query": "query Post($slug: String!) {{ publication(host: \\"b.example.org\\") {{ post(slug: $slug) {{ id }} }} }}",
                                         "variables": { "slug": "daily-{key}" } },
                               "presentWhen": { "jsonPointer": "/data/publication/post/id", "exists": true } } },
                    { "id": "search", "kind": "http", "effect": "unsafe",
                    "request": { "method": "POST", "url": "https://example.org/items", "form": { "t": "{key}" } },
                    "probe": { "kind": "http", "method": "post", "url": "https://example.org/search",
                               "form": { "q": "title:{key}" }, "presentWhen": { "jsonPointer": "/total", "notEquals": 0 } } } ] }
                """);

        JobFileLoader.Result r = JobFileLoader.loadFile(file);

        assertThat(r.errors()).isEmpty();
        ProbeSpec graphql = r.job().steps().get(0).probe();
        assertThat(graphql.method()).isEqualTo("POST");
        assertThat(graphql.fields()).isInstanceOf(io.keyline.domain.BodyFields.Json.class);
        assertThat(((io.keyline.domain.BodyFields.Json) graphql.fields()).template())
                .contains("\"variables\":{\"slug\":\"daily-{key}\"}");
        assertThat(r.job().steps().get(1).probe().fields()).isInstanceOf(io.keyline.domain.BodyFields.Form.class);
    }

    /** A probe must not change anything: a GraphQL document that mutates or subscribes is refused as it is read. */
    @Test
    void aProbeThatSendsAGraphqlMutationIsAJobFileError() throws IOException {
        String job = """
                { "name": "graphql", "key": { "type": "date" },
                  "steps": [ { "id": "publish", "kind": "http", "effect": "unsafe",
                    "request": { "method": "POST", "url": "https://gql.example.org/", "json": { "query": "x" } },
                    "probe": { "kind": "http", "method": "POST", "url": "https://gql.example.org/",
                               "json": { "query": "%s" },
                               "presentWhen": { "jsonPointer": "/data", "exists": true } } } ] }
                """;
        Path mutation = write("mutation.json", job.formatted(
                "# looks first\\nquery A {{ me {{ id }} }}\\n mutation Publish($input: PublishPostInput!) {{ publishPost(input: $input) {{ post {{ id }} }} }}"));
        Path subscription = write("subscription.json", job.formatted("subscription {{ postPublished {{ id }} }}"));
        Path inValue = write("placeholder.json", job.formatted("query {{ post(slug: \\\"{key}\\\") {{ id }} }}"));

        assertThat(JobFileLoader.loadFile(mutation).errors()).extracting(Object::toString).singleElement().asString()
                .contains("mutation.json:5:").contains("steps[0].probe.json.query").contains("mutation");
        assertThat(JobFileLoader.loadFile(subscription).errors()).extracting(Object::toString).singleElement()
                .asString().contains("subscription.json:5:").contains("steps[0].probe.json.query")
                .contains("subscription");
        assertThat(JobFileLoader.loadFile(inValue).errors()).extracting(Object::toString).singleElement().asString()
                .contains("steps[0].probe.json.query").contains("variables");
    }

    /** A body goes with POST, and a POST probe needs one: a GET with a body is not what any server reads. */
    @Test
    void aProbeBodyGoesWithPostOnly() throws IOException {
        String job = """
                { "name": "b", "key": { "type": "date" },
                  "steps": [ { "id": "publish", "kind": "http", "effect": "unsafe",
                    "request": { "method": "POST", "url": "https://example.org/" },
                    "probe": { "kind": "http", %s "url": "https://example.org/s",
                               "presentWhen": { "jsonPointer": "/total", "notEquals": 0 } } } ] }
                """;
        assertThat(JobFileLoader.loadFile(write("get.json", job.formatted("\"json\": {\"q\": 1},"))).errors())
                .extracting(Object::toString).singleElement().asString().contains("steps[0].probe.json").contains("POST");
        assertThat(JobFileLoader.loadFile(write("post.json", job.formatted("\"method\": \"POST\","))).errors())
                .extracting(Object::toString).singleElement().asString().contains("steps[0].probe").contains("json");
        assertThat(JobFileLoader.loadFile(write("two.json", job.formatted(
                "\"method\": \"POST\", \"json\": {\"q\": 1}, \"form\": {\"q\": \"1\"},"))).errors())
                .extracting(Object::toString).singleElement().asString().contains("mutually exclusive");
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }

    private static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
