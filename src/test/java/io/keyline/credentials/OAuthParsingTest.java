package io.keyline.credentials;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OAuthParsingTest {
    static final String URL = "https://api.dropboxapi.com/oauth2/token";
    static final String SECRET = "q8w7e6r5t4y3u2i1";
    static final String REFRESH = "z9Y8x7W6v5U4t3S2r1Q0-abcDEF_ghi";
    static final String LINES = "token_url=" + URL + "\nclient_id=appkey123\nclient_secret=" + SECRET
            + "\nrefresh_token=" + REFRESH + "\n";

    @ParameterizedTest
    @ValueSource(strings = {LINES, "# from the app console\n\ntoken_url: " + URL + "\nclient-id = appkey123\n"
            + "CLIENT_SECRET=" + SECRET + "\r\nrefresh_token=" + REFRESH,
            "{\"token_url\": \"" + URL + "\", \"client_id\": \"appkey123\", \"client_secret\": \"" + SECRET
                    + "\", \"refresh_token\": \"" + REFRESH + "\", \"access_token\": \"sl.old\", \"expires_in\": 14400}"})
    void theFourFieldsAsLinesOrAsJsonAreOneGrantThatSendsNothingByItself(String input) {
        ParsedCredential parsed = CredentialParser.parse(CredentialType.OAUTH2, input, null);

        assertThat(parsed.oauth()).isEqualTo(new OAuthGrant(URL, "appkey123", SECRET, REFRESH));
        assertThat(parsed.httpHeaders(URI.create("https://content.dropboxapi.com/2/files/upload"), Instant.EPOCH))
                .isEmpty();
        assertThat(parsed.secretStrings()).containsExactlyInAnyOrder(SECRET, REFRESH);
        assertThat(ParsedCredential.fromCanonical(CredentialType.OAUTH2, parsed.canonicalSecret())).isEqualTo(parsed);
        assertThat(parsed.toString()).doesNotContain(SECRET, REFRESH).contains("appkey123", URL);
    }

    @Test
    void theEndpointAndTheClientIdMayComeFromTheCommandLineButNotTwice() {
        ParsedCredential parsed = CredentialParser.parseOAuth("client_secret=" + SECRET + "\nrefresh_token=" + REFRESH,
                URL, "appkey123");
        assertThat(parsed.oauth()).isEqualTo(new OAuthGrant(URL, "appkey123", SECRET, REFRESH));

        assertThatThrownBy(() -> CredentialParser.parseOAuth(LINES, URL, null))
                .hasMessage("token_url: given twice");
    }

    @Test
    void aMissingUnknownOrMalformedFieldIsNamedAndNoValueIsShown() {
        assertThatThrownBy(() -> CredentialParser.parse(CredentialType.OAUTH2,
                LINES.replace("refresh_token=" + REFRESH + "\n", ""), null))
                .hasMessageStartingWith("refresh_token: missing");
        assertThatThrownBy(() -> CredentialParser.parse(CredentialType.OAUTH2, LINES + "refresh_tokn=x\n", null))
                .hasMessageContaining("unknown field \"refresh_tokn\"");
        // a value pasted without its name: "name=value" finds a base64 '=' in it, and must not show it
        assertThatThrownBy(() -> CredentialParser.parse(CredentialType.OAUTH2, LINES + REFRESH + "QQ==\n", null))
                .hasMessageContaining("not shown").satisfies(e -> assertThat(e.getMessage()).doesNotContain(REFRESH));
        assertThatThrownBy(() -> CredentialParser.parse(CredentialType.OAUTH2,
                LINES.replace(URL, "http://api.dropboxapi.com/oauth2/token"), null))
                .hasMessageStartingWith("token_url: expected https");
        assertThatThrownBy(() -> CredentialParser.parse(CredentialType.OAUTH2,
                LINES.replace(SECRET, SECRET + " " + SECRET), null))
                .hasMessage("client_secret: contains whitespace");
        assertThat(CredentialParser.parse(CredentialType.OAUTH2, LINES.replace(URL, "http://127.0.0.1:8080/token"),
                null).oauth().tokenUrl()).isEqualTo("http://127.0.0.1:8080/token");
    }
}
