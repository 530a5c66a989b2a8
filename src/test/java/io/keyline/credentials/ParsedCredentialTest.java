package io.keyline.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ParsedCredentialTest {
    private static final Instant NOW = Instant.parse("2025-11-29T12:00:00Z");
    private static final Cookie SESSION = new Cookie("sid", "abc123", ".example.com", true, "/", true, true,
            Instant.parse("2026-01-01T00:00:00Z"));
    private static final Cookie SHORT = new Cookie("ab", "on", null, false, "/", false, false, null);
    private static final Cookie EXPIRED = new Cookie("old", "gone-value", "example.com", false, "/", false, false,
            NOW.minusSeconds(1));

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "COOKIE, cookie-header.txt",
        "COOKIE, cookies.txt",
        "COOKIE, cookie-editor.json",
        "COOKIE, chrome-export.json"})
    void fromCanonicalInvertsCanonicalSecretForEverySample(CredentialType type, String sample) {
        ParsedCredential parsed = CredentialParser.parse(type, TestResources.read(sample), "portal.example.com");

        ParsedCredential restored = ParsedCredential.fromCanonical(type, parsed.canonicalSecret());

        assertThat(restored).isEqualTo(parsed);
        assertThat(restored.canonicalSecret()).isEqualTo(parsed.canonicalSecret());
    }

    /**
     * A value stored before input outside ASCII was refused still loads (the step that would send it asks for a
     * renewal); only new input is refused.
     */
    @Test
    void aStoredValueOutsideAsciiStillLoads() {
        String cookies = "[{\"name\":\"sid\",\"value\":\"\u79D8\u5BC6\u503C12345\"}]";
        assertThat(ParsedCredential.fromCanonical(CredentialType.COOKIE, cookies).cookies().get(0).value())
                .isEqualTo("\u79D8\u5BC6\u503C12345");
        assertThat(ParsedCredential.fromCanonical(CredentialType.BEARER, "t\u00F6ken").token()).isEqualTo("t\u00F6ken");
        assertThat(ParsedCredential.fromCanonical(CredentialType.HEADER, "X-Key: v\u00E4l").canonicalSecret())
                .isEqualTo("X-Key: v\u00E4l");
        assertThatThrownBy(() -> CredentialParser.parse(CredentialType.COOKIE, cookies, null))
                .isInstanceOf(CredentialFormatException.class);
    }

    @Test
    void fromCanonicalInvertsCanonicalSecretForTokensAndHeaders() {
        ParsedCredential token = ParsedCredential.ofToken("tok-12345");
        ParsedCredential header = ParsedCredential.ofHeader("X-Api-Key", "k3y with spaces");
        ParsedCredential anyHost = ParsedCredential.ofCookies(List.of(SHORT));

        assertThat(ParsedCredential.fromCanonical(CredentialType.BEARER, token.canonicalSecret())).isEqualTo(token);
        assertThat(ParsedCredential.fromCanonical(CredentialType.HEADER, header.canonicalSecret())).isEqualTo(header);
        assertThat(ParsedCredential.fromCanonical(CredentialType.COOKIE, anyHost.canonicalSecret())).isEqualTo(anyHost);
    }

    @Test
    void canonicalCookieJsonIsCompactWithFixedFieldOrder() {
        assertThat(ParsedCredential.ofCookies(List.of(SESSION)).canonicalSecret()).isEqualTo(
                "[{\"name\":\"sid\",\"value\":\"abc123\",\"domain\":\"example.com\",\"hostOnly\":false,\"path\":\"/\","
                        + "\"secure\":true,\"httpOnly\":true,\"expires\":\"2026-01-01T00:00:00Z\"}]");
    }

    @Test
    void fingerprintIsFirstEightHexCharsOfSha256OfCanonicalSecret() {
        assertThat(ParsedCredential.ofToken("tok-12345").fingerprint()).isEqualTo("984fd489");
        assertThat(ParsedCredential.ofCookies(List.of(SESSION)).fingerprint()).isEqualTo("a62cf801");
    }

    @Test
    void fingerprintIsStableAcrossParsesAndChangesWithTheSecret() {
        String input = TestResources.read("cookie-editor.json");
        String first = CredentialParser.parse(CredentialType.COOKIE, input, null).fingerprint();
        String second = CredentialParser.parse(CredentialType.COOKIE, input, null).fingerprint();
        String changed = CredentialParser.parse(CredentialType.COOKIE, input.replace("9f8e7d", "9f8e7e"), null)
                .fingerprint();

        assertThat(first).matches("[0-9a-f]{8}").isEqualTo(second).isNotEqualTo(changed);
    }

    @Test
    void environmentHoldsNonExpiredCookiesAsHeaderString() {
        ParsedCredential credential = ParsedCredential.ofCookies(List.of(SESSION, EXPIRED, SHORT));

        assertThat(credential.environment(NOW)).isEqualTo(Map.of(
                "KEYLINE_CREDENTIAL", "sid=abc123; ab=on",
                "KEYLINE_COOKIE", "sid=abc123; ab=on"));
    }

    @Test
    void secretStringsListTheValuesWorthMasking() {
        // by secret, not by word - a short value or a plain word is not masked everywhere it occurs
        ParsedCredential credential = ParsedCredential.ofCookies(List.of(SESSION, EXPIRED, SHORT));
        assertThat(credential.secretStrings()).isEmpty();
        Cookie token = new Cookie("sid", "Ab3dEf6hIj9kLm2n", null, false, "/", false, false, null);
        assertThat(ParsedCredential.ofCookies(List.of(token, SESSION, SHORT)).secretStrings())
                .containsExactly("Ab3dEf6hIj9kLm2n");
        assertThat(ParsedCredential.ofToken("tok-12345").secretStrings()).containsExactly("tok-12345");
        assertThat(ParsedCredential.ofHeader("X-Key", "k3y").secretStrings()).containsExactly("k3y");
    }

    @Test
    void earliestExpiryIsEmptyWithoutExpiringCookies() {
        assertThat(ParsedCredential.ofCookies(List.of(SHORT)).earliestExpiry()).isEmpty();
        assertThat(ParsedCredential.ofToken("tok-12345").earliestExpiry()).isEmpty();
        assertThat(ParsedCredential.ofCookies(List.of(SESSION, EXPIRED)).earliestExpiry()).contains(EXPIRED.expires());
    }

    @Test
    void toStringMasksEverySecret() {
        ParsedCredential cookies = ParsedCredential.ofCookies(List.of(SESSION, SHORT));

        assertThat(cookies.toString()).isEqualTo("ParsedCredential[type=cookie, cookies=[sid=***; Domain=.example.com; "
                + "Path=/; Secure; HttpOnly; Expires=2026-01-01T00:00:00Z, ab=***; Path=/]]");
        assertThat(ParsedCredential.ofToken("tok-12345").toString())
                .isEqualTo("ParsedCredential[type=bearer, token=***]");
        assertThat(ParsedCredential.ofHeader("X-Api-Key", "k3y-secret").toString())
                .isEqualTo("ParsedCredential[type=header, header=X-Api-Key: ***]");
        assertThat(new Cookie("sid", "abc123", "example.com", false, "/", false, false, null).toString())
                .isEqualTo("sid=***; Host=example.com; Path=/");
    }

    @Test
    void rejectsFieldsThatDoNotMatchTheType() {
        assertThatThrownBy(() -> ParsedCredential.ofCookies(List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the fields set do not match credential type cookie");
        assertThatThrownBy(() -> new ParsedCredential(CredentialType.BEARER, List.of(SESSION), "t", null, null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fromCanonicalRejectsCorruptedContent() {
        assertThatThrownBy(() -> ParsedCredential.fromCanonical(CredentialType.COOKIE, "[{\"name\":\"sid\"}]"))
                .isInstanceOf(CredentialFormatException.class)
                .hasMessage("[0].value: missing");
    }
}
