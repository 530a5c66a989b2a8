package io.keyline.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BasicParsingTest {
    private static final String PASSWORD = "Xk2pQ-7mNbv-Rt4sW-9yLcE-3hGfD";
    private static final String LOGIN = "alice:" + PASSWORD;
    private static final String ENCODED = "YWxpY2U6WGsycFEtN21OYnYtUnQ0c1ctOXlMY0UtM2hHZkQ=";

    @ParameterizedTest
    @ValueSource(strings = {LOGIN, "  " + LOGIN + "\n", "Basic " + ENCODED, "Authorization: Basic " + ENCODED + "\n"})
    void aLoginOrTheHeaderItMakesIsSentAsHttpBasic(String input) {
        ParsedCredential parsed = CredentialParser.parse(CredentialType.BASIC, input, null);

        assertThat(parsed.user()).isEqualTo("alice");
        assertThat(parsed.password()).isEqualTo(PASSWORD);
        assertThat(parsed.httpHeaders(URI.create("https://cloud.example.org/remote.php/dav/"), Instant.EPOCH))
                .containsExactly(Map.entry("Authorization", "Basic " + ENCODED));
        assertThat(parsed.environment()).containsExactly(Map.entry("KEYLINE_CREDENTIAL", LOGIN));
        assertThat(ParsedCredential.fromCanonical(CredentialType.BASIC, parsed.canonicalSecret())).isEqualTo(parsed);
        assertThat(parsed.toString()).doesNotContain(PASSWORD).contains("alice");
    }

    @Test
    void thePasswordMayHoldColonsTheUserNameNot() {
        ParsedCredential parsed = CredentialParser.parse(CredentialType.BASIC, "bob:pa:ss:word", null);

        assertThat(parsed.user()).isEqualTo("bob");
        assertThat(parsed.password()).isEqualTo("pa:ss:word");
    }

    @Test
    void thePasswordItsLoginAndTheirBase64AreMaskedWhereverTheyShow() {
        ParsedCredential parsed = CredentialParser.parse(CredentialType.BASIC, LOGIN, null);
        Redactor r = Redactor.of(parsed.secretStrings());
        String passwordB64 = Base64.getEncoder().encodeToString(PASSWORD.getBytes(StandardCharsets.UTF_8));

        String shown = r.redact("wrong password " + PASSWORD + " for " + LOGIN + " sent as Basic " + ENCODED
                + " (" + passwordB64 + ")");

        assertThat(shown).doesNotContain(PASSWORD).doesNotContain(ENCODED).doesNotContain(passwordB64)
                .doesNotContain(PASSWORD.substring(0, 12)).startsWith("wrong password *** for ***");
    }

    @ParameterizedTest
    @ValueSource(strings = {"alice", ":s3cr3t", "alice:", "alice:s3c\nr3t", "alice:s3c\u0007r3t"})
    void aLoginWithoutBothPartsOnOneLineIsRefusedWithoutItsValue(String input) {
        assertThatThrownBy(() -> CredentialParser.parse(CredentialType.BASIC, input, null))
                .isInstanceOf(CredentialFormatException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("s3c").doesNotContain("r3t"));
    }
}
