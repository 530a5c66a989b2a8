package io.keyline.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RedactorTest {
    private static final String SPECIAL = "a+b/c=d;e f";
    private static final Redactor REDACTOR = Redactor.of(List.of(SPECIAL));

    @ParameterizedTest
    @ValueSource(strings = {
        "a+b/c=d;e f",              // plain
        "YStiL2M9ZDtlIGY=",         // Base64
        "YStiL2M9ZDtlIGY",          // Base64 without padding
        "a%2Bb%2Fc%3Dd%3Be+f",      // URLEncoder
        "a%2Bb%2Fc%3Dd%3Be%20f"})   // percent-encoding of every non-unreserved char
    void redactsEveryFormOfTheSecret(String form) {
        assertThat(REDACTOR.redact("before " + form + " after")).isEqualTo("before *** after");
    }

    @Test
    void expectedFormsMatchTheJdkEncoders() {
        byte[] bytes = SPECIAL.getBytes(StandardCharsets.UTF_8);
        assertThat(Base64.getEncoder().encodeToString(bytes)).isEqualTo("YStiL2M9ZDtlIGY=");
        assertThat(URLEncoder.encode(SPECIAL, StandardCharsets.UTF_8)).isEqualTo("a%2Bb%2Fc%3Dd%3Be+f");
    }

    @Test
    void redactsUrlSafeBase64DistinctFromStandard() {
        String secret = "??>>??>>";
        byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
        String standard = Base64.getEncoder().encodeToString(bytes);
        String urlSafe = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        assertThat(urlSafe).isNotEqualTo(standard.replace("=", ""));

        Redactor redactor = Redactor.of(List.of(secret));

        assertThat(redactor.redact(standard + " " + urlSafe + " " + secret)).isEqualTo("*** *** ***");
    }

    @Test
    void redactsEveryOccurrenceAndLongestSecretFirst() {
        Redactor redactor = Redactor.of(List.of("abcd", "sid=abcdef; x=1", "abcdef"));

        assertThat(redactor.redact("Cookie: sid=abcdef; x=1 then abcdef and abcd, abcd"))
                .isEqualTo("Cookie: *** then *** and ***, ***");
    }

    @Test
    void ignoresShortAndNullSecrets() {
        List<String> secrets = new ArrayList<>(List.of("abc", ""));
        secrets.add(null);

        assertThat(Redactor.of(secrets)).isSameAs(Redactor.NONE);
        assertThat(Redactor.NONE.redact("abc text")).isEqualTo("abc text");
        assertThat(Redactor.NONE.redact(null)).isNull();
    }

    @Test
    void plusAddsSecrets() {
        Redactor redactor = Redactor.of(List.of("first-secret")).plus(List.of("second-secret"));

        assertThat(redactor.redact("first-secret second-secret")).isEqualTo("*** ***");
        assertThat(Redactor.NONE.plus(List.of("tok-12345")).redact("Bearer tok-12345")).isEqualTo("Bearer ***");
    }

    @Test
    void redactsCredentialSecretStrings() {
        ParsedCredential credential = CredentialParser.parse(CredentialType.COOKIE,
                TestResources.read("cookie-header.txt"), null);
        Redactor redactor = Redactor.of(credential.secretStrings());

        assertThat(redactor.redact("curl -H 'Cookie: " + credential.environment().get("KEYLINE_COOKIE") + "'"))
                .isEqualTo("curl -H 'Cookie: ***'");
        assertThat(redactor.redact("csrf=Xy7Qk2LmN9pR4sT6uV8wZ0aB&theme=dark&page=2")).isEqualTo("csrf=***&theme=***&page=2");
    }

    @Test
    void isFastForLargeTextsWithManySecrets() {
        List<String> secrets = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            secrets.add("secret-value-" + i + "-" + "x".repeat(i * 3));
        }
        Redactor redactor = Redactor.of(secrets);
        String text = "lorem ipsum dolor sit amet ".repeat(300) + secrets.get(7);

        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            for (int i = 0; i < 1000; i++) {
                assertThat(redactor.redact(text)).endsWith("amet ***");
            }
        });
    }
}
