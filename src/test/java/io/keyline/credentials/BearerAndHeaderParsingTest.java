package io.keyline.credentials;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BearerAndHeaderParsingTest {
    private static final String TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvcHMifQ.c2lnbmF0dXJl";

    @ParameterizedTest
    @ValueSource(strings = {TOKEN, "Bearer " + TOKEN, "  bearer\t" + TOKEN + "\n", "\n" + TOKEN + "\n\n"})
    void bearerPrefixIsOptional(String input) {
        ParsedCredential parsed = CredentialParser.parse(CredentialType.BEARER, input, null);

        assertThat(parsed.token()).isEqualTo(TOKEN);
        assertThat(parsed.httpHeaders(URI.create("https://api.example.com/"), Instant.EPOCH))
                .containsExactly(Map.entry("Authorization", "Bearer " + TOKEN));
        assertThat(parsed.environment()).containsExactly(Map.entry("KEYLINE_CREDENTIAL", TOKEN));
    }

    @Test
    void tokenThatOnlyStartsWithBearerIsKept() {
        assertThat(CredentialParser.parse(CredentialType.BEARER, "BearerToken123", null).token())
                .isEqualTo("BearerToken123");
    }

    @Test
    void headerCredentialKeepsNameAndTrimsValue() {
        ParsedCredential parsed = CredentialParser.parse(CredentialType.HEADER, " X-Api-Key:   k3y-abc def \n", null);

        assertThat(parsed.headerName()).isEqualTo("X-Api-Key");
        assertThat(parsed.headerValue()).isEqualTo("k3y-abc def");
        assertThat(parsed.httpHeaders(URI.create("http://x/"), Instant.EPOCH))
                .containsExactly(Map.entry("X-Api-Key", "k3y-abc def"));
        assertThat(parsed.environment()).containsExactly(Map.entry("KEYLINE_CREDENTIAL", "k3y-abc def"));
    }

    @Test
    void authorizationHeaderWithOtherSchemeIsAllowed() {
        ParsedCredential parsed = CredentialParser.parse(CredentialType.HEADER, "Authorization: Basic dXNlcjpwYXNz", null);

        assertThat(parsed.canonicalSecret()).isEqualTo("Authorization: Basic dXNlcjpwYXNz");
    }
}
