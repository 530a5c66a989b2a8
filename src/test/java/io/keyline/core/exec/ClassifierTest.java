package io.keyline.core.exec;

import io.keyline.domain.FailureClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import javax.net.ssl.SSLHandshakeException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

/** The failure classification table, and {@code Retry-After} read without overflow. */
class ClassifierTest {

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T09:00:00Z"), ZoneOffset.UTC);

    @ParameterizedTest(name = "HTTP {0} → {1}")
    @CsvSource(nullValues = "SUCCESS", value = {
        "200, SUCCESS", "201, SUCCESS", "204, SUCCESS",
        "301, FATAL", "302, FATAL", "307, FATAL",
        "400, FATAL", "401, AUTH", "403, AUTH", "404, FATAL", "405, FATAL", "408, FATAL", "410, FATAL",
        "422, FATAL", "429, RETRYABLE",
        "500, TRANSIENT_AFTER_SEND", "501, FATAL", "502, TRANSIENT_AFTER_SEND", "503, RETRYABLE",
        "504, TRANSIENT_AFTER_SEND", "505, TRANSIENT_AFTER_SEND", "507, RETRYABLE", "599, TRANSIENT_AFTER_SEND",
        "101, UNKNOWN", "600, UNKNOWN"})
    void statusClasses(int status, FailureClass expected) {
        assertThat(Classifier.ofStatus(status, true)).isEqualTo(expected);
        assertThat(Classifier.ofStatus(status, false)).isEqualTo(expected);
    }

    @Test
    void conflict409IsStillInProgressOnlyWhenItSaysSo() {
        assertThat(Classifier.ofStatus(409, true)).isEqualTo(FailureClass.TRANSIENT_AFTER_SEND);
        assertThat(Classifier.ofStatus(409, false)).isEqualTo(FailureClass.FATAL);
    }

    static final String SENT = "idempotency-demo:2026-11-29:publish";

    /** What servers that honour the key answer while a request with it is still being processed. */
    @ParameterizedTest(name = "in progress: {0}")
    @CsvSource(delimiter = '|', value = {
        // the Idempotency-Key draft's problem details
        "{\"type\": \"https://developer.example.com/idempotency\", \"title\": \"A request is outstanding for this Idempotency-Key\"}",
        // Stripe
        "{\"error\": {\"type\": \"idempotency_error\", \"message\": \"There is currently another in-progress request using this Idempotent Key\"}}",
        "a request with this Idempotency-Key is being processed"})
    void a409ThatSpeaksOfTheIdempotencyKeyIsInProgress(String body) {
        assertThat(Classifier.speaksOfIdempotencyKey(body, name -> null, SENT)).isTrue();
    }

    @Test
    void a409WhoseLinkPointsAtTheSitesIdempotencyDocumentationIsInProgress() {
        assertThat(Classifier.speaksOfIdempotencyKey("", name -> name.equals("Link")
                ? "<https://developer.example.com/idempotency>; rel=\"describedby\"; type=\"text/html\"" : null, SENT))
                .isTrue();
    }

    /** Conflicts that say nothing of the key: WebDAV's missing parent, Dropbox's path conflict, an echo of the key. */
    @ParameterizedTest(name = "a conflict: {0}")
    @CsvSource(delimiter = '|', value = {
        "<?xml version=\"1.0\"?><d:error xmlns:d=\"DAV:\" xmlns:s=\"http://sabredav.org/ns\"><s:exception>Sabre\\DAV\\Exception\\Conflict</s:exception><s:message>Parent node does not exist</s:message></d:error>",
        "{\"error_summary\": \"path/conflict/file/..\", \"error\": {\".tag\": \"path\"}}",
        "conflict with the request idempotency-demo:2026-11-29:publish",
        "''"})
    void a409ThatSaysNothingOfTheKeyIsAConflict(String body) {
        assertThat(Classifier.speaksOfIdempotencyKey(body, name -> name.equals("Idempotency-Key") ? SENT : null, SENT))
                .isFalse();
        assertThat(Classifier.speaksOfIdempotencyKey(null, name -> null, SENT)).isFalse();
    }

    @Test
    void aFailedTlsHandshakeSentNothing() {
        assertThat(Classifier.ofException(new SSLHandshakeException("PKIX path building failed")))
                .isEqualTo(FailureClass.RETRYABLE);
        assertThat(Classifier.ofException(new IOException("wrapped", new SSLHandshakeException("no cipher"))))
                .isEqualTo(FailureClass.RETRYABLE);
        assertThat(Classifier.ofException(new IOException("connection reset"))).isEqualTo(FailureClass.TRANSIENT_AFTER_SEND);
    }

    @ParameterizedTest(name = "Retry-After: {0} → {1}")
    @CsvSource(nullValues = "NONE", value = {
        "0, PT0S",
        "7, PT7S",
        "  120 , PT2M",
        "86400, PT24H",
        "86401, PT24H",
        "9223372036854775807, PT24H",
        "99999999999999999999999999, PT24H",
        "0000000000000000000000007, PT7S",
        "-5, NONE",
        "1.5, NONE",
        "soon, NONE",
        "'', NONE",
        "'Sun, 29 Nov 2026 09:00:30 GMT', PT30S",
        "'Sun, 29 Nov 2026 08:00:00 GMT', PT0S",
        "'Fri, 31 Dec 9999 23:59:59 GMT', PT24H"})
    void retryAfterIsReadWithoutOverflowAndCappedAtADay(String header, String expected) {
        assertThat(Classifier.retryAfter(header, CLOCK)).isEqualTo(expected == null ? null : Duration.parse(expected));
    }

    @Test
    void aRetryAfterCanBeAddedToAnyClock() {
        Duration d = Classifier.retryAfter("9223372036854775807", CLOCK);
        assertThat(CLOCK.instant().plus(d)).isEqualTo(Instant.parse("2026-11-30T09:00:00Z"));
    }

    /**
     * A spent rate limit's reset, when no {@code Retry-After} is given: an ISO-8601 time (Mastodon), or a number of
     * seconds, read as a time since the epoch when it is at least 1,000,000,000 (GitHub, in UTC epoch seconds) and as
     * seconds from now below that. Capped as a {@code Retry-After} is; a reset already past is no wait.
     */
    @ParameterizedTest(name = "Retry-After: {0}, X-RateLimit-Remaining: {1}, X-RateLimit-Reset: {2} → {3}")
    @CsvSource(nullValues = "NONE", value = {
        "NONE, 0, 2026-11-29T09:04:00.000000Z, PT4M",
        "NONE, 0, 2026-11-29T10:04:00+01:00, PT4M",
        "7, 0, 2026-11-29T09:04:00.000000Z, PT7S",
        "NONE, 12, 2026-11-29T09:04:00.000000Z, NONE",
        "NONE, NONE, 2026-11-29T09:04:00.000000Z, NONE",
        "NONE, 0, NONE, NONE",
        "NONE, 0, 2026-11-29T08:00:00Z, PT0S",
        "NONE, 0, 2027-11-29T09:00:00Z, PT24H",
        "NONE, 0, 1795943040, PT4M",
        "NONE, 0, 1795942740, PT0S",
        "NONE, 0, 1796202000, PT24H",
        "7, 0, 1795943040, PT7S",
        "NONE, 12, 1795943040, NONE",
        "NONE, 0, 240, PT4M",
        "NONE, 0, 0, PT0S",
        "NONE, 0, 999999999, PT24H",
        "NONE, 0, 99999999999999999999999999, PT24H",
        "NONE, 0, -5, NONE",
        "NONE, 0, 1795943040.5, NONE",
        "NONE, 0, soon, NONE"})
    void aSpentRateLimitsResetIsTheWaitWhenNoRetryAfterIsGiven(String retryAfter, String remaining, String reset,
                                                                String expected) {
        java.util.Map<String, String> headers = new java.util.HashMap<>();
        headers.put("Retry-After", retryAfter);
        headers.put("X-RateLimit-Remaining", remaining);
        headers.put("X-RateLimit-Reset", reset);
        assertThat(Classifier.serverWait(headers::get, CLOCK)).isEqualTo(expected == null ? null : Duration.parse(expected));
    }
}
