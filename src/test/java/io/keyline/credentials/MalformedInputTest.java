package io.keyline.credentials;

import static io.keyline.credentials.CredentialType.BEARER;
import static io.keyline.credentials.CredentialType.COOKIE;
import static io.keyline.credentials.CredentialType.HEADER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A corpus of malformed inputs with the exact message each must produce, none of which may leak the secret. */
class MalformedInputTest {
    private static final String SECRET = "S3cr3t";
    private static final String NETSCAPE_HEADER = "# Netscape HTTP Cookie File\n";

    static Stream<Arguments> corpus() {
        return Stream.of(
                // Cookie header line
                bad("header: pair without '='", COOKIE, "sid=S3cr3tV4lue; S3cr3tOnly",
                        "line 1, cookie 2: missing '='"),
                bad("header: empty name", COOKIE, "Cookie: =S3cr3tV4lue",
                        "line 1, cookie 1, name: empty"),
                bad("header: illegal name character", COOKIE, "theme=dark; sess@id=S3cr3tV4lue",
                        "line 1, cookie 2, name: illegal character '@'"),
                bad("header: control character in value", COOKIE, "sid=S3cr3t\u0007V4lue",
                        "line 1, cookie 1, value: contains a control character"),
                bad("header: a character a request header cannot carry", COOKIE, "sid=S3cr3t\u79D8V4lue",
                        "line 1, cookie 1, value: contains a character outside ASCII (U+79D8), which a request header cannot carry"),
                bad("header: no cookie a request header can carry", COOKIE, "theme=d\u00E4rk; sid=S3cr3t\u79D8V4lue",
                        "no cookie in the input can be sent: line 1, cookie 1, value: contains a character outside ASCII "
                                + "(U+00E4), which a request header cannot carry; line 1, cookie 2, value: contains a "
                                + "character outside ASCII (U+79D8), which a request header cannot carry"),
                bad("header: a Latin-1 letter a request would send as '?'", COOKIE, "sid=S3cr3t\u00E9V4lue",
                        "line 1, cookie 1, value: contains a character outside ASCII (U+00E9), which a request header cannot carry"),
                bad("header: duplicate name", COOKIE, "sid=S3cr3tV4lue; theme=dark; sid=S3cr3tOther",
                        "line 1, cookie 3, name: duplicate \"sid\""),
                bad("header: several lines", COOKIE, "Cookie: sid=S3cr3tV4lue\n\nother=1",
                        "line 3: a Cookie header must be a single line (cookies.txt fields must be separated by TABs)"),
                bad("header: prefix only", COOKIE, "Cookie:  ", "no cookies found in the input", null),
                bad("any: blank input", COOKIE, " \n\t ", "input is empty", null),
                // Netscape cookies.txt
                bad("netscape: too few fields", COOKIE,
                        NETSCAPE_HEADER + "\n.example.com\tTRUE\t/\tS3cr3tV4lue\tx\n",
                        "line 3: expected 7 tab-separated fields, got 5"),
                bad("netscape: HttpOnly line with too few fields", COOKIE,
                        NETSCAPE_HEADER + "#HttpOnly_.example.com\tTRUE\t/\tFALSE\t0\tS3cr3tV4lue\n",
                        "line 2: expected 7 tab-separated fields, got 6"),
                bad("netscape: empty domain", COOKIE, "\tTRUE\t/\tFALSE\t0\tsid\tS3cr3tV4lue",
                        "line 1, field 1 (domain): empty"),
                bad("netscape: domain with a port out of range", COOKIE,
                        "127.0.0.1:99999\tFALSE\t/\tFALSE\t0\tsid\tS3cr3tV4lue",
                        "line 1, field 1 (domain): a domain may end in :PORT only with a port from 1 to 65535"),
                bad("netscape: include-subdomains not TRUE/FALSE", COOKIE,
                        NETSCAPE_HEADER + ".example.com\tyes\t/\tFALSE\t0\tsid\tS3cr3tV4lue",
                        "line 2, field 2 (include subdomains): expected TRUE or FALSE"),
                bad("netscape: path without slash", COOKIE, "example.com\tFALSE\tapp\tFALSE\t0\tsid\tS3cr3tV4lue",
                        "line 1, field 3 (path): must start with '/'"),
                bad("netscape: secure not TRUE/FALSE", COOKIE, "example.com\tFALSE\t/\t1\t0\tsid\tS3cr3tV4lue",
                        "line 1, field 4 (secure): expected TRUE or FALSE"),
                bad("netscape: negative expiry", COOKIE, "example.com\tFALSE\t/\tFALSE\t-5\tsid\tS3cr3tV4lue",
                        "line 1, field 5 (expiry): expected a non-negative integer (Unix seconds, 0 for a session cookie)"),
                bad("netscape: fractional expiry", COOKIE, "example.com\tFALSE\t/\tFALSE\t1.7e9\tsid\tS3cr3tV4lue",
                        "line 1, field 5 (expiry): expected a non-negative integer (Unix seconds, 0 for a session cookie)"),
                bad("netscape: empty name", COOKIE, "example.com\tFALSE\t/\tFALSE\t0\t\tS3cr3tV4lue",
                        "line 1, field 6 (name): empty"),
                bad("netscape: a character a request header cannot carry", COOKIE,
                        "example.com\tFALSE\t/\tFALSE\t0\tsid\tS3cr3t\u79D8V4lue",
                        "line 1, field 7 (value): contains a character outside ASCII (U+79D8), which a request header cannot carry"),
                bad("netscape: comments only", COOKIE, NETSCAPE_HEADER + "# sid S3cr3tV4lue\n\n",
                        "no cookies found in the input"),
                // JSON exports
                bad("json: object instead of array", COOKIE, "{\"name\": \"sid\", \"value\": \"S3cr3tV4lue\"}",
                        "line 1: expected a JSON array of cookie objects, or a Playwright storageState object with \"cookies\""),
                bad("json: element not an object", COOKIE, "[{\"name\": \"a\", \"value\": \"1\"}, \"S3cr3tV4lue\"]",
                        "[1]: expected a JSON object"),
                bad("json: missing value", COOKIE,
                        "[{\"name\": \"a\", \"value\": \"S3cr3tA\"}, {\"name\": \"b\", \"value\": \"S3cr3tB\"}, {\"name\": \"c\"}]",
                        "[2].value: missing"),
                bad("json: missing name", COOKIE, "[{\"value\": \"S3cr3tV4lue\"}]", "[0].name: missing"),
                bad("json: non-string value", COOKIE, "[{\"name\": \"pin\", \"value\": 453302118}]",
                        "[0].value: expected a string", "453302118"),
                bad("json: illegal name character", COOKIE, "[{\"name\": \"s id\", \"value\": \"S3cr3tV4lue\"}]",
                        "[0].name: illegal character U+0020"),
                bad("json: semicolon in value", COOKIE, "[{\"name\": \"sid\", \"value\": \"S3cr3t;V4lue\"}]",
                        "[0].value: contains ';'"),
                bad("json: a character a request header cannot carry", COOKIE,
                        "[{\"name\": \"sid\", \"value\": \"S3cr3t\u79D8V4lue\"}]",
                        "[0].value: contains a character outside ASCII (U+79D8), which a request header cannot carry"),
                bad("json: bad expirationDate", COOKIE,
                        "[{\"name\": \"sid\", \"value\": \"S3cr3tV4lue\", \"expirationDate\": \"tomorrow\"}]",
                        "[0].expirationDate: expected a non-negative number of seconds"),
                bad("json: expiry in milliseconds", COOKIE,
                        "[{\"name\": \"sid\", \"value\": \"S3cr3tV4lue\", \"expirationDate\": 1767225600000}]",
                        "[0].expirationDate: later than 9999-12-31T23:59:59Z"),
                bad("json: bad expires", COOKIE,
                        "[{\"name\": \"sid\", \"value\": \"S3cr3tV4lue\", \"expires\": \"next week\"}]",
                        "[0].expires: expected seconds since the epoch, -1 for a session cookie, or an ISO-8601 date-time"),
                bad("json: non-boolean secure", COOKIE,
                        "[{\"name\": \"sid\", \"value\": \"S3cr3tV4lue\", \"secure\": \"yes\"}]",
                        "[0].secure: expected true or false"),
                bad("json: empty domain", COOKIE, "[{\"name\": \"sid\", \"value\": \"S3cr3tV4lue\", \"domain\": \"\"}]",
                        "[0].domain: empty"),
                bad("json: domain with a port that is no number", COOKIE,
                        "[{\"name\": \"sid\", \"value\": \"S3cr3tV4lue\", \"domain\": \"example.org:http\"}]",
                        "[0].domain: a domain may end in :PORT only with a port from 1 to 65535"),
                bad("storageState: cookie without value", COOKIE,
                        "{\"cookies\": [{\"name\": \"sid\"}], \"origins\": [{\"origin\": \"S3cr3tV4lue\"}]}",
                        "cookies[0].value: missing"),
                bad("json: path without slash", COOKIE,
                        "[{\"name\": \"sid\", \"value\": \"S3cr3tV4lue\", \"path\": \"app\"}]",
                        "[0].path: must start with '/'"),
                bad("json: syntax error", COOKIE, "[\n  {\"name\": \"sid\", \"value\": S3cr3tV4lue}\n]",
                        "line 2, column 28: invalid JSON"),
                bad("json: empty array", COOKIE, " [ ] ", "no cookies found in the input", null),
                // Bearer tokens
                bad("bearer: prefix only", BEARER, "Bearer   ", "line 1, token: empty", null),
                bad("bearer: whitespace inside", BEARER, "Bearer S3cr3t V4lue", "line 1, token: contains whitespace"),
                bad("bearer: several lines", BEARER, "\nS3cr3tV4lue\nsecond", "line 2, token: contains whitespace"),
                bad("bearer: control character", BEARER, "\n\nBearer S3cr3t\u0001V4lue",
                        "line 3, token: contains a control character"),
                bad("bearer: a character a request header cannot carry", BEARER, "Bearer S3cr3t\u79D8V4lue",
                        "line 1, token: contains a character outside ASCII (U+79D8), which a request header cannot carry"),
                // Arbitrary header
                bad("header credential: no colon", HEADER, "X-Api-Key S3cr3tV4lue", "line 1: expected \"Name: value\""),
                bad("header credential: empty name", HEADER, ": S3cr3tV4lue", "line 1, header name: empty"),
                bad("header credential: illegal name", HEADER, "X Api Key: S3cr3tV4lue",
                        "line 1, header name: illegal character U+0020"),
                bad("header credential: Cookie", HEADER, "cookie: sid=S3cr3tV4lue",
                        "line 1, header name: Cookie is not allowed here, use a cookie credential"),
                bad("header credential: empty value", HEADER, "\nX-Api-Key:   ", "line 2, header value: empty", null),
                bad("header credential: several lines", HEADER, "X-Api-Key: S3cr3tV4lue\nX-Other: 1",
                        "line 1, header value: must be a single line (contains CR or LF)"),
                bad("header credential: control character", HEADER, "X-Api-Key: S3cr3t\u0000V4lue",
                        "line 1, header value: contains a control character"),
                bad("header credential: a character a request header cannot carry", HEADER, "X-Api-Key: S3cr3t\u79D8V4lue",
                        "line 1, header value: contains a character outside ASCII (U+79D8), which a request header cannot carry"));
    }

    private static Arguments bad(String description, CredentialType type, String input, String message) {
        return bad(description, type, input, message, SECRET);
    }

    /** @param secret text of {@code input} that must not appear in the message, or {@code null} if it holds none */
    private static Arguments bad(String description, CredentialType type, String input, String message, String secret) {
        return Arguments.of(description, type, input, message, secret);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void rejectsWithExactMessageThatDoesNotLeakTheSecret(String description, CredentialType type, String input,
                                                         String expectedMessage, String secret) {
        CredentialFormatException error = catchThrowableOfType(CredentialFormatException.class,
                () -> CredentialParser.parse(type, input, "example.com"));

        assertThat(error).as(description).isNotNull();
        assertThat(error.getMessage()).isEqualTo(expectedMessage);
        if (secret != null) {
            assertThat(input).contains(secret);
            assertThat(error.getMessage()).doesNotContain(secret);
        }
    }
}
