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
                .isEqualTo("curl -H 'Cookie: _ga=***; sessionid=***; csrftoken=***; theme=dark'"); // the values, not the names
        // theme=dark is no secret: masking "dark" only made harmless text (and, before, step outputs) unreadable
        assertThat(redactor.redact("csrf=Xy7Qk2LmN9pR4sT6uV8wZ0aB&theme=dark&page=2")).isEqualTo("csrf=***&theme=dark&page=2");
    }

    static final String SECRET = "Kl-s3cr3t/Val+ue_42.xyzzy";
    static final Redactor ONE = Redactor.of(List.of(SECRET));

    @Test
    void redactsHexInEitherCaseAndWithSpacesBetweenBytes() {
        String hex = java.util.HexFormat.of().formatHex(SECRET.getBytes(StandardCharsets.UTF_8));
        assertThat(ONE.redact("lower " + hex + " end")).isEqualTo("lower *** end");
        assertThat(ONE.redact("upper " + hex.toUpperCase(java.util.Locale.ROOT) + " end")).isEqualTo("upper *** end");
        String spaced = hex.replaceAll("(..)(?!$)", "$1 ");
        assertThat(ONE.redact("dump: " + spaced + " |")).isEqualTo("dump: *** |");
    }

    @Test
    void redactsJsonEscapedForms() {
        StringBuilder all = new StringBuilder();
        SECRET.chars().forEach(c -> all.append(String.format("\\u%04x", c)));
        assertThat(ONE.redact("{\"t\":\"" + all + "\"}")).isEqualTo("{\"t\":\"***\"}");
        assertThat(ONE.redact("{\"t\":\"" + all.toString().toUpperCase(java.util.Locale.ROOT).replace("\\U", "\\u") + "\"}"))
                .isEqualTo("{\"t\":\"***\"}");
        // Jackson and most JSON writers escape only some characters: "/" as "\/", "+" as "\u002B"
        String partly = SECRET.replace("/", "\\/").replace("+", "\\u002B");
        assertThat(ONE.redact("x " + partly + " y")).isEqualTo("x *** y");
    }

    @Test
    void redactsBase64OfUserColonSecretWhateverTheUserNameLength() {
        for (String user : List.of("u", "us", "usr", "admin", "keyline-bot")) {
            String basic = Base64.getEncoder().encodeToString((user + ":" + SECRET).getBytes(StandardCharsets.UTF_8));
            String redacted = ONE.redact("Authorization: Basic " + basic);
            assertThat(redacted).as(user).contains("***");
            // what is left of the encoding: the user's part and at most a group on either side of the secret
            String left = redacted.replace("Authorization: Basic ", "").replace("***", "");
            assertThat(left.length()).as(user + ": " + redacted).isLessThanOrEqualTo((user.length() + 1) * 4 / 3 + 4 + 4);
            assertThat(redacted).doesNotContain(basic.substring(basic.length() - 12));
        }
    }

    @Test
    void redactsASecretSplitByWhitespaceOrLineBreaks() {
        assertThat(ONE.redact("token: Kl-s3cr3t/Va\nl+ue_42.xyzzy done")).isEqualTo("token: *** done");
        assertThat(ONE.redact("token: Kl-s3cr3t /Val+ue _42.xyzzy done")).isEqualTo("token: *** done");
        assertThat(ONE.redact("{\"log\": \"Kl-s3cr3t/Val\\n+ue_42.xyzzy\"}")).isEqualTo("{\"log\": \"***\"}");
        // base64 as the base64 tool wraps it (76 columns), and URL-encoded base64
        String plain = "prefix-" + SECRET + "-" + SECRET + "-" + SECRET + "-" + SECRET;
        String long64 = Base64.getMimeEncoder().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
        assertThat(long64).contains("\r\n");
        String redacted = ONE.redact(long64);
        assertThat(redacted).matches("(?s).*\\*\\*\\*.*\\*\\*\\*.*\\*\\*\\*.*\\*\\*\\*.*");
        List<String> secretOnly = secretOnlyGroups(plain);
        assertThat(secretOnly).as("four copies, at each byte offset of a group: 7 or 8 whole groups each").hasSize(30);
        String left = redacted.replace("\r\n", "");
        assertThat(secretOnly).as("groups of the secret's own bytes left in %s", redacted).filteredOn(left::contains)
                .isEmpty();
        String b64 = Base64.getEncoder().encodeToString(SECRET.getBytes(StandardCharsets.UTF_8));
        assertThat(ONE.redact("q=" + URLEncoder.encode(b64, StandardCharsets.UTF_8))).isEqualTo("q=***");
    }

    /** The 4-character groups of the Base64 of an ASCII {@code text} whose 3 bytes all lie in a copy of SECRET. */
    private static List<String> secretOnlyGroups(String text) {
        String encoded = Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
        List<String> groups = new ArrayList<>();
        for (int at = text.indexOf(SECRET); at >= 0; at = text.indexOf(SECRET, at + 1)) {
            for (int g = (at + 2) / 3; g * 3 + 3 <= at + SECRET.length(); g++) {
                groups.add(encoded.substring(g * 4, g * 4 + 4));
            }
        }
        return groups;
    }

    @Test
    void leavesHarmlessTextAlone() {
        String text = "status true 2026 en consent=true lang=2026 Kl-s3cr3t partial";
        assertThat(ONE.redact(text)).isSameAs(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"en", "true", "2026", "dark", "en-US", "zh_CN", "accepted", "necessary,analytics",
        "2026-11-29", "2026-11-29T09:00:00Z", "1700000000", "1.2.3", "yes"})
    void harmlessCookieValuesAreNotWorthMasking(String value) {
        assertThat(Redactor.worthMasking(value)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"9f8e7d6c5b4a39281706f5e4d3c2b1a0", "Xy7Qk2LmN9pR4sT6uV8wZ0aB", "R3goodValue",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "123e4567-e89b-12d3-a456-426614174000",
        "GA1.2.1843256733.1732800000", "abcdefgh1", "1234567890123456", "qwhdkslfjeiwoqpazmxnbvcyrut"})
    void sessionIdsAndTokensAreWorthMasking(String value) {
        assertThat(Redactor.worthMasking(value)).isTrue();
    }

    @Test
    void aCookieCredentialMasksItsSecretsNotItsHarmlessValues() {
        ParsedCredential c = CredentialParser.parse(CredentialType.COOKIE,
                "Cookie: consent=true; lang=2026; theme=dark; sid=" + SECRET, null);
        assertThat(c.secretStrings()).containsExactly(SECRET);
        Redactor r = Redactor.of(c.secretStrings());
        assertThat(r.redact("consent=true lang=2026 path reports/2026.md sid=" + SECRET))
                .isEqualTo("consent=true lang=2026 path reports/2026.md sid=***");
    }

    @Test
    void isFastForLargeTextsWithManySecrets() {
        List<String> secrets = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            secrets.add("secret-value-" + i + "-" + "x".repeat(i * 3));
        }
        Redactor redactor = Redactor.of(secrets);
        String text = "lorem ipsum dolor sit amet ".repeat(300) + secrets.get(7);

        // a guard against backtracking that explodes, not a speed test (a busy machine must not fail it)
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int i = 0; i < 1000; i++) {
                assertThat(redactor.redact(text)).endsWith("amet ***");
            }
        });
    }
}
