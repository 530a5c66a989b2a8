package io.keyline.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.core.json.Json;
import io.keyline.testing.FaultServer;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Small helpers shared by the credential acceptance tests (not a test class itself). */
final class CredentialTesting {
    static final String CRED = "site-cookie";
    /** The step field that makes a step use the credential (for {@link Jobs#publish}). */
    static final String USES_CRED = "\"credential\": \"" + CRED + "\",";
    private static final Pattern FINGERPRINT = Pattern.compile("fingerprint ([0-9a-f]{8})");

    private CredentialTesting() {
    }

    /** The status --json object of one key. */
    static JsonNode status(Workbench wb, String job, String key) {
        Result r = wb.cli("status", job, "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        for (JsonNode n : Json.read(r.out(), JsonNode.class)) {
            if (n.get("key").asText().equals(key)) {
                return n;
            }
        }
        throw new AssertionError("no key " + key + " of " + job + " in " + r.out());
    }

    /** The timeline --json events of one key. */
    static List<JsonNode> timeline(Workbench wb, String job, String key) {
        Result r = wb.cli("timeline", job, key, "--json");
        assertThat(r.exit()).as(r.toString()).isZero();
        List<JsonNode> out = new ArrayList<>();
        Json.read(r.out(), JsonNode.class).forEach(out::add);
        return out;
    }

    /** {@code credentials set NAME} from standard input; asserts success and returns the output. */
    static Result set(Workbench wb, String name, String input) {
        Result r = wb.cliWithInput(input, "credentials", "set", name);
        assertThat(r.exit()).as(r.toString()).isZero();
        return r;
    }

    /** The fingerprint printed by {@code credentials set}. */
    static String fingerprintIn(String setOutput) {
        Matcher m = FINGERPRINT.matcher(setOutput);
        assertThat(m.find()).as("a fingerprint in: %s", setOutput).isTrue();
        return m.group(1);
    }

    /** The FINGERPRINT column of {@code credentials list} for one credential. */
    static String listedFingerprint(Workbench wb, String name) {
        return listRow(wb, name)[2];
    }

    /** The cells (split on runs of 2+ spaces) of one credential's row in {@code credentials list}. */
    static String[] listRow(Workbench wb, String name) {
        Result r = wb.cli("credentials", "list");
        assertThat(r.exit()).as(r.toString()).isZero();
        for (String line : r.out().split("\n")) {
            if (line.startsWith(name + " ")) {
                return line.strip().split("\\s{2,}");
            }
        }
        throw new AssertionError("no row for " + name + " in:\n" + r.out());
    }

    /**
     * The requests the test site received for one key: POSTs carrying {@code Idempotency-Key: job:key:...}
     * and probe GETs asking {@code ?date=key}.
     */
    static List<FaultServer.Request> requestsOf(FaultServer server, String job, String key) {
        return server.received().stream()
                .filter(r -> {
                    String idem = r.header("Idempotency-Key");
                    return idem != null ? idem.startsWith(job + ":" + key + ":") : key.equals(r.queryParam("date"));
                })
                .toList();
    }

    /** Whether a Cookie header holds exactly the pair {@code nameEqualsValue}. */
    static boolean cookieHas(String cookieHeader, String nameEqualsValue) {
        if (cookieHeader == null) {
            return false;
        }
        for (String part : cookieHeader.split(";")) {
            if (part.strip().equals(nameEqualsValue)) {
                return true;
            }
        }
        return false;
    }

    /** A trace of a failed command for assertion messages. */
    static String noStackTrace(Result r) {
        return r.err() + r.out();
    }

    static void assertNoStackTrace(Result r) {
        assertThat(noStackTrace(r)).as(r.toString())
                .doesNotContain("Exception")
                .doesNotContain("\tat ")
                .doesNotContain("unexpected");
    }
}
