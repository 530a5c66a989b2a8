package io.keyline.security;

import io.keyline.core.json.Json;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Outputs of earlier steps (server answers, command output) reach a command only through its
 * environment: an output placeholder in a command's arguments is a job-file error that names the
 * variable to read, whatever program (or wrapper around a shell) the command starts; a notify hook's
 * {@code {message}} likewise. The value arrives intact through the environment, as data.
 */
class OutputsThroughEnvironmentTest {

    /** Runs commands if a value were read as shell code. */
    static final String HOSTILE = "$(touch pwned-1); `touch pwned-2`; echo \"; touch pwned-3 '; touch pwned-4";

    @TempDir
    Path tmp;

    /** meta prints the outputs of NAME.out; the second step uses them. The second step's line is line 7. */
    static String twoSteps(String name, String second) {
        return """
                {
                  "name": "%s",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                  "retry": { "maxAttempts": 1 },
                  "steps": [
                    { "id": "meta", "kind": "command", "effect": "none", "command": ["cat", "%s.out"] },
                    %s
                  ]
                }
                """.formatted(name, name, second);
    }

    static void outputs(Workbench wb, String job, Map<String, String> outputs) throws IOException {
        Files.writeString(wb.jobs.resolve(job + ".out"), "{\"outputs\": " + Json.write(outputs) + "}\n");
    }

    static String arch() throws Exception {
        Process p = new ProcessBuilder("uname", "-m").start();
        String a = new String(p.getInputStream().readAllBytes()).strip();
        p.waitFor();
        return a;
    }

    static void assertNothingRan(Workbench wb) throws IOException {
        try (Stream<Path> files = Files.list(wb.jobs)) {
            assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.startsWith("pwned"));
        }
    }

    @Test
    void anOutputPlaceholderInACommandIsAJobFileErrorThatNamesItsVariable() throws Exception {
        Workbench wb = new Workbench(tmp);
        String arch = arch();
        List<String> commands = List.of(
                "[\"setarch\", \"" + arch + "\", \"sh\", \"-c\", \"echo {steps.meta.outputs.t}\"]",
                "[\"prlimit\", \"--nofile=256\", \"sh\", \"-c\", \"echo {steps.meta.outputs.t}\"]",
                "[\"setpriv\", \"sh\", \"-c\", \"echo {steps.meta.outputs.t} > out.txt\"]",
                "[\"echo\", \"{steps.meta.outputs.t}\"]",
                "[\"sh\", \"-c\", \"cp \\\"$1\\\" x\", \"sh\", \"--name={steps.meta.outputs.t}\"]");
        for (int i = 0; i < commands.size(); i++) {
            wb.job("wrapped" + i, twoSteps("wrapped" + i, "{ \"id\": \"use\", \"kind\": \"command\", \"effect\": \"none\", "
                    + "\"command\": " + commands.get(i) + " }"), null);
            outputs(wb, "wrapped" + i, Map.of("t", HOSTILE));
        }
        // a command probe is a command too
        wb.job("probed", twoSteps("probed", """
                { "id": "use", "kind": "command", "effect": "unsafe", "command": ["true"],
                  "probe": { "kind": "command", "command": ["nice", "sh", "-c", "echo {steps.meta.outputs.t}"] } }"""), null);
        outputs(wb, "probed", Map.of("t", HOSTILE));
        Result jobs = wb.cli("jobs");
        for (int i = 0; i < commands.size(); i++) {
            assertThat(jobs.out()).as(jobs.toString()).contains("wrapped" + i + ".json:7:");
        }
        assertThat(jobs.out()).contains("probed.json:8:").contains("$KEYLINE_OUTPUT_META_T");
        for (String job : List.of("wrapped0", "wrapped1", "wrapped2", "wrapped3", "wrapped4", "probed")) {
            Result run = wb.cli("run", job, "--key", "2026-11-02");
            assertThat(run.exit()).as(run.toString()).isEqualTo(1);
            assertThat(run.out() + run.err()).as(run.toString()).contains(job + ".json:").contains("$KEYLINE_OUTPUT_META_T");
        }
        assertNothingRan(wb);
    }

    @Test
    void theValueArrivesIntactThroughTheEnvironmentBehindAnyWrapper() throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.job("env", twoSteps("env", """
                { "id": "use", "kind": "command", "effect": "none",
                  "command": ["setarch", "%s", "sh", "-c", "printf '%%s' \\"$KEYLINE_OUTPUT_META_T\\" > got-{key}.txt"] }"""
                .formatted(arch())), null);
        outputs(wb, "env", Map.of("t", HOSTILE));
        Result run = wb.cli("run", "env", "--key", "2026-11-02");
        assertThat(run.exit()).as(run.toString()).isZero();
        assertThat(Files.readString(wb.jobs.resolve("got-2026-11-02.txt"))).isEqualTo(HOSTILE);
        assertNothingRan(wb);
    }

    @Test
    void aHookMessageReachesTheHookOnlyThroughItsEnvironment() throws Exception {
        Workbench wb = new Workbench(tmp);
        // a step that fails with server-like text: it becomes the attention event's message
        wb.job("fails", """
                {
                  "name": "fails",
                  "key": { "type": "date", "zone": "UTC", "start": "2026-01-01" },
                  "retry": { "maxAttempts": 1 },
                  "steps": [ { "id": "work", "kind": "command", "effect": "none",
                               "command": ["sh", "-c", "cat hostile.txt >&2; exit 65"] } ]
                }
                """, null);
        Files.writeString(wb.jobs.resolve("hostile.txt"), HOSTILE.replace("pwned", "pwned-hook") + "\n");
        Files.writeString(wb.jobs.resolve("notify.json"), """
                {
                  "hooks": [
                    { "on": ["attention"], "command": ["setpriv", "sh", "-c", "echo {message} >> heard.txt"] }
                  ]
                }
                """);
        Result test = wb.cli("notify", "test");
        assertThat(test.exit()).as(test.toString()).isEqualTo(1);
        assertThat(test.out() + test.err()).contains("notify.json:3:").contains("$KEYLINE_MESSAGE");
        Result refused = wb.cli("run", "fails", "--key", "2026-11-02");
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(2);
        assertThat(refused.err()).contains("notify.json is invalid");
        assertNothingRan(wb);

        // the way that works: the message as data, from the environment
        Files.writeString(wb.jobs.resolve("notify.json"), """
                {
                  "hooks": [
                    { "on": ["attention"], "command": ["setpriv", "sh", "-c",
                      "printf '%s|%s|%s|%s\\\\n' \\"$KEYLINE_JOB\\" \\"$KEYLINE_KEY\\" \\"$KEYLINE_KEY_STATE\\" \\"$KEYLINE_MESSAGE\\" >> heard.txt"] }
                  ]
                }
                """);
        Result run = wb.cli("run", "fails", "--key", "2026-11-03");
        assertThat(run.exit()).as(run.toString()).isEqualTo(2);
        // {job} may stand in a hook's arguments: notify send takes a job name only
        Result send = wb.cli("notify", "send", "--job", "$(touch pwned-job)", "a message");
        assertThat(send.exit()).as(send.toString()).isEqualTo(64);
        assertThat(send.err()).contains("--job", "is not a job name");
        String heard = Files.readString(wb.jobs.resolve("heard.txt"));
        assertThat(heard).contains("fails|2026-11-03|FAILED|Keyline: fails 2026-11-03 FAILED at work")
                .contains("$(touch pwned-hook-1)");
        assertNothingRan(wb);
    }
}
