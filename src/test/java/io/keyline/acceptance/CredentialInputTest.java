package io.keyline.acceptance;

import io.keyline.testing.FaultServer.Request;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.TestSite;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.keyline.acceptance.CredentialTesting.CRED;
import static io.keyline.acceptance.CredentialTesting.USES_CRED;
import static io.keyline.acceptance.CredentialTesting.cookieHas;
import static io.keyline.acceptance.CredentialTesting.fingerprintIn;
import static io.keyline.acceptance.CredentialTesting.listedFingerprint;
import static io.keyline.acceptance.CredentialTesting.requestsOf;
import static io.keyline.acceptance.CredentialTesting.set;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A corpus of malformed cookie inputs fed through the real {@code credentials set}, from standard input and
 * from {@code --from-file}: each is refused with exit 64 and its own message (line or array index and
 * field), the message never holds the secret, and the stored credential is unchanged (same fingerprint,
 * and a run still logs in with the old value).
 */
class CredentialInputTest extends SiteTestBase {

    static final String GOOD = "GoodS3cretValue";
    /** The secret inside every malformed input; no message may repeat it. */
    static final String SECRET = "MalS3cretValue9";
    static final String NETSCAPE = "# Netscape HTTP Cookie File\n";
    static final String SUFFIX = " (the stored credential " + CRED + " is unchanged)";


    @BeforeEach
    void setUp() throws IOException {
        site.requireCookie("session=" + GOOD);
        wb.job("p", Jobs.publish("p", "unsafe", true, USES_CRED), site.base());
    }

    static Stream<Arguments> corpus() {
        return Stream.of(
                // Cookie: header line
                bad("header: pair without '='", "session=" + SECRET + "; " + SECRET + "Only",
                        "line 1, cookie 2: missing '='"),
                bad("header: empty name", "Cookie: =" + SECRET, "line 1, cookie 1, name: empty"),
                bad("header: illegal character in name", "theme=dark; sess@id=" + SECRET,
                        "line 1, cookie 2, name: illegal character '@'"),
                bad("header: control character in value", "Cookie: session=MalS3cret\u0007Value9",
                        "line 1, cookie 1, value: contains a control character", "MalS3cret"),
                bad("header: duplicate name", "session=" + SECRET + "; theme=dark; session=other",
                        "line 1, cookie 3, name: duplicate \"session\""),
                bad("header: several lines", "Cookie: session=" + SECRET + "\nsecond=1",
                        "line 2: a Cookie header must be a single line (cookies.txt fields must be separated by TABs)"),
                bad("header: prefix only", "Cookie:   \n", "no cookies found in the input", null),
                bad("any: blank input", " \n\t \n", "input is empty", null),
                // Netscape cookies.txt
                bad("netscape: #HttpOnly_ line with 6 fields", NETSCAPE
                                + "#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\t" + SECRET + "\n",
                        "line 2: expected 7 tab-separated fields, got 6"),
                bad("netscape: spaces instead of one TAB", NETSCAPE
                                + "127.0.0.1\tFALSE\t/\tFALSE\t0\tsession " + SECRET + "\n",
                        "line 2: expected 7 tab-separated fields, got 6"),
                bad("netscape: include-subdomains not TRUE/FALSE", "127.0.0.1\tyes\t/\tFALSE\t0\tsession\t" + SECRET,
                        "line 1, field 2 (include subdomains): expected TRUE or FALSE"),
                bad("netscape: path without '/'", NETSCAPE + "\n127.0.0.1\tFALSE\tapi\tFALSE\t0\tsession\t" + SECRET,
                        "line 3, field 3 (path): must start with '/'"),
                bad("netscape: expiry in milliseconds", "127.0.0.1\tFALSE\t/\tFALSE\t1798000000000\tsession\t" + SECRET,
                        "line 1, field 5 (expiry): expected a non-negative integer (Unix seconds, 0 for a session cookie)"),
                bad("netscape: ';' in value", "127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tMalS3cret;Value9",
                        "line 1, field 7 (value): contains ';'", "MalS3cret"),
                bad("netscape: header and comments only", NETSCAPE + "# session " + SECRET + "\n\n",
                        "no cookies found in the input"),
                // JSON exports
                bad("json: a lone object", "{\"name\": \"session\", \"value\": \"" + SECRET + "\"}",
                        "line 1: expected a JSON array of cookie objects, or a Playwright storageState object with \"cookies\""),
                bad("json: second cookie without value", "[{\"name\": \"session\", \"value\": \"" + SECRET
                        + "\"}, {\"name\": \"theme\"}]", "[1].value: missing"),
                bad("json: value not a string", "[{\"name\": \"pin\", \"value\": 453302118}]",
                        "[0].value: expected a string", "453302118"),
                bad("json: expirationDate as text", "[{\"name\": \"session\", \"value\": \"" + SECRET
                        + "\", \"expirationDate\": \"tomorrow\"}]",
                        "[0].expirationDate: expected a non-negative number of seconds"),
                bad("json: expirationDate in milliseconds", "[{\"name\": \"session\", \"value\": \"" + SECRET
                        + "\", \"expirationDate\": 1798000000000}]",
                        "[0].expirationDate: later than 9999-12-31T23:59:59Z"),
                bad("json: secure not a boolean", "[{\"name\": \"session\", \"value\": \"" + SECRET
                        + "\", \"secure\": \"yes\"}]", "[0].secure: expected true or false"),
                bad("json: empty array", " [ ] ", "no cookies found in the input", null),
                bad("json: syntax error on line 3", "[\n  {\"name\": \"session\",\n   \"value\": " + SECRET + "}\n]",
                        Pattern.compile("line 3, column \\d+: invalid JSON")));
    }

    private static Arguments bad(String description, String input, Object message) {
        return bad(description, input, message, SECRET);
    }

    private static Arguments bad(String description, String input, Object message, String secret) {
        return Arguments.of(description, input, message, secret);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void malformedInputIsRefusedAndTheStoredCredentialStaysUsable(String description, String input, Object message,
                                                                  String secret) throws IOException {
        String before = fingerprintIn(set(wb, CRED, "Cookie: session=" + GOOD + "; theme=dark").out());
        if (secret != null) {
            assertThat(input).contains(secret);
        }

        Result fromStdin = wb.cliWithInput(input, "credentials", "set", CRED);
        assertRefused(fromStdin, "standard input", message, secret);

        Path file = tmp.resolve("bad-cookies.txt");
        Files.writeString(file, input, StandardCharsets.UTF_8);
        Result fromFile = wb.cli("credentials", "set", CRED, "--from-file", file.toString());
        assertRefused(fromFile, file.toString(), message, secret);

        // unchanged: same fingerprint, and the site still accepts the old login
        assertThat(listedFingerprint(wb, CRED)).isEqualTo(before);
        Result run = wb.cli("run", "p", "--key", "2026-11-29");
        assertThat(run.exit()).as(run.toString()).isZero();
        assertThat(site.effects("2026-11-29")).isEqualTo(1);
        List<Request> posts = requestsOf(site.server(), "p", "2026-11-29").stream()
                .filter(r -> r.method().equals("POST")).toList();
        assertThat(posts).hasSize(1);
        assertThat(cookieHas(posts.get(0).header("Cookie"), "session=" + GOOD)).isTrue();
    }

    private static void assertRefused(Result r, String source, Object message, String secret) {
        assertThat(r.exit()).as(r.toString()).isEqualTo(64);
        assertThat(r.out()).as(r.toString()).isEmpty();
        String line = r.err().strip();
        assertThat(line).as(r.toString()).startsWith("keyline: " + source + ": ").endsWith(SUFFIX);
        String msg = line.substring(("keyline: " + source + ": ").length(), line.length() - SUFFIX.length());
        if (message instanceof Pattern p) {
            assertThat(msg).matches(p);
        } else {
            assertThat(msg).isEqualTo(message);
        }
        if (secret != null) {
            assertThat(r.err() + r.out()).doesNotContain(secret);
        }
        CredentialTesting.assertNoStackTrace(r);
    }

    /** A harmless cookie whose value is not ASCII, as a browser export holds it beside the login. */
    static final String NICKNAME = "\u5F20\u4E09";

    static Stream<Arguments> exportsWithACookieNoRequestCanCarry() {
        return Stream.of(
                Arguments.of("Cookie header", "Cookie: session=" + GOOD + "; nickname=" + NICKNAME + "; theme=dark"),
                Arguments.of("cookies.txt", NETSCAPE + "127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\t" + GOOD + "\n"
                        + "127.0.0.1\tFALSE\t/\tFALSE\t0\tnickname\t" + NICKNAME + "\n"
                        + "127.0.0.1\tFALSE\t/\tFALSE\t0\ttheme\tdark\n"),
                Arguments.of("JSON export", "[{\"name\": \"session\", \"value\": \"" + GOOD + "\"},"
                        + " {\"name\": \"nickname\", \"value\": \"" + NICKNAME + "\"},"
                        + " {\"name\": \"theme\", \"value\": \"dark\"}]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("exportsWithACookieNoRequestCanCarry")
    void aCookieNoRequestCanCarryIsLeftOutByNameAndTheLoginIsStored(String format, String input) {
        Result r = wb.cliWithInput(input, "credentials", "set", CRED);

        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.err().strip()).as(r.toString()).isEqualTo("standard input: left out 1 cookie a request cannot "
                + "carry (a character outside ASCII, a control character or \";\" in the value): nickname");
        assertThat(r.out()).contains("credential " + CRED + " stored").contains("2 cookies");
        assertThat(r.out() + r.err()).doesNotContain(NICKNAME).doesNotContain(GOOD);
        Result run = wb.cli("run", "p", "--key", "2026-11-29");
        assertThat(run.exit()).as(run.toString()).isZero();
        List<Request> posts = requestsOf(site.server(), "p", "2026-11-29").stream()
                .filter(q -> q.method().equals("POST")).toList();
        assertThat(posts).hasSize(1);
        assertThat(cookieHas(posts.get(0).header("Cookie"), "session=" + GOOD)).isTrue();
        assertThat(posts.get(0).header("Cookie")).contains("theme=dark").doesNotContain("nickname");
    }

    @Test
    void anExportWithNoCookieARequestCanCarryIsRefusedAndStoresNothing() {
        String before = fingerprintIn(set(wb, CRED, "Cookie: session=" + GOOD).out());
        Result r = wb.cliWithInput("nickname=" + NICKNAME + "; city=\u5317\u4EAC", "credentials", "set", CRED);

        assertThat(r.exit()).as(r.toString()).isEqualTo(64);
        assertThat(r.err().strip()).isEqualTo("keyline: standard input: no cookie in the input can be sent: "
                + "line 1, cookie 1, value: contains a character outside ASCII (U+5F20), which a request header "
                + "cannot carry; line 1, cookie 2, value: contains a character outside ASCII (U+5317), which a "
                + "request header cannot carry" + SUFFIX);
        assertThat(listedFingerprint(wb, CRED)).isEqualTo(before);
    }

    @Test
    void aTokenOutsideAsciiIsStillRefused() {
        Result r = wb.cliWithInput("Bearer abc" + NICKNAME, "credentials", "set", "api-token", "--type", "bearer");
        assertThat(r.exit()).as(r.toString()).isEqualTo(64);
        assertThat(r.err()).contains("line 1, token: contains a character outside ASCII (U+5F20)")
                .doesNotContain(NICKNAME);
    }

    @Test
    void corpusIsLargeEnough() {
        assertThat(corpus().count()).isGreaterThanOrEqualTo(12);
    }

    @Test
    void malformedInputForANewCredentialStoresNothing() {
        Result r = wb.cliWithInput("session " + SECRET, "credentials", "set", "fresh-cookie");
        assertThat(r.exit()).as(r.toString()).isEqualTo(64);
        assertThat(r.err()).contains("line 1, cookie 1: missing '='").doesNotContain(SECRET);
        Result list = wb.cli("credentials", "list");
        assertThat(list.out()).doesNotContain("fresh-cookie").contains("No credentials.");
    }

    @Test
    void unreadableSourcesAndBadOptionsAreUsageErrorsThatKeepTheCredential() {
        String before = fingerprintIn(set(wb, CRED, "session=" + GOOD).out());
        Result missing = wb.cli("credentials", "set", CRED, "--from-file", tmp.resolve("nope.txt").toString());
        assertThat(missing.exit()).as(missing.toString()).isEqualTo(64);
        assertThat(missing.err()).contains("--from-file").contains("no such file");
        Result type = wb.cliWithInput("session=" + SECRET, "credentials", "set", CRED, "--type", "cookies");
        assertThat(type.exit()).as(type.toString()).isEqualTo(64);
        assertThat(type.err()).contains("--type \"cookies\" must be cookie, bearer, header, basic or oauth2").doesNotContain(SECRET);
        Result name = wb.cliWithInput("session=" + SECRET, "credentials", "set", "../evil");
        assertThat(name.exit()).as(name.toString()).isEqualTo(64);
        assertThat(name.err()).contains("must match").doesNotContain(SECRET);
        assertThat(listedFingerprint(wb, CRED)).isEqualTo(before);
        assertThat(wb.cli("run", "p", "--key", "2026-11-29").exit()).isZero();
    }
}
