package io.keyline.credentials;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class CookieFormatsTest {
    private static final Instant JAN_2026 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant DEC_2025 = Instant.parse("2025-12-01T00:00:00Z");

    private static ParsedCredential cookies(String input, String defaultDomain) {
        return CredentialParser.parse(CredentialType.COOKIE, input, defaultDomain);
    }

    @Nested
    class CookieHeaderLine {
        @Test
        void parsesLineCopiedFromBrowserDevTools() {
            ParsedCredential parsed = cookies(TestResources.read("cookie-header.txt"), "portal.example.com");

            assertThat(parsed.type()).isEqualTo(CredentialType.COOKIE);
            assertThat(parsed.cookies()).extracting(Cookie::name)
                    .containsExactly("_ga", "sessionid", "csrftoken", "theme");
            assertThat(parsed.cookies().get(1)).isEqualTo(new Cookie("sessionid", "9f8e7d6c5b4a39281706f5e4d3c2b1a0",
                    "portal.example.com", false, "/", false, false, null));
            assertThat(parsed.earliestExpiry()).isEmpty();
        }

        @Test
        void prefixIsOptionalAndCaseInsensitiveAndEmptyPairsAreSkipped() {
            assertThat(cookies("a=1; b=x=y;", null).cookies()).extracting(Cookie::pair).containsExactly("a=1", "b=x=y");
            assertThat(cookies("  COOKIE:a=1;;b=2  \n", null).cookies()).extracting(Cookie::pair)
                    .containsExactly("a=1", "b=2");
        }

        @Test
        void withoutDefaultDomainCookiesGoToAnyHost() {
            assertThat(cookies("sid=abc", null).cookies().get(0).domain()).isNull();
        }

        @Test
        void allowsEmptyValue() {
            assertThat(cookies("flag=", null).cookies().get(0).value()).isEmpty();
        }
    }

    @Nested
    class NetscapeCookiesTxt {
        private final ParsedCredential parsed = cookies(TestResources.read("cookies.txt"), "ignored.example.org");

        @Test
        void parsesEveryCookieLineAndSkipsCommentsAndBlankLines() {
            assertThat(parsed.cookies()).extracting(Cookie::name)
                    .containsExactly("_ga", "sessionid", "csrftoken", "remember_me");
        }

        @Test
        void mapsAllFields() {
            assertThat(parsed.cookies().get(0)).isEqualTo(new Cookie("_ga", "GA1.2.1843256733.1732800000",
                    "example.com", true, "/", false, false, JAN_2026));
            assertThat(parsed.cookies().get(2)).isEqualTo(new Cookie("csrftoken", "Xy7Qk2LmN9pR4sT6uV8wZ0aB",
                    "portal.example.com", false, "/app", true, false, null));
        }

        @Test
        void httpOnlyPrefixMarksCookieAndIsNotPartOfDomain() {
            Cookie session = parsed.cookies().get(1);
            assertThat(session.httpOnly()).isTrue();
            assertThat(session.domain()).isEqualTo("portal.example.com");
            assertThat(session.includeSubdomains()).isFalse();
            assertThat(parsed.cookies().get(3).domain()).isEqualTo("example.com");
        }

        @Test
        void earliestExpiryIgnoresSessionCookies() {
            assertThat(parsed.earliestExpiry()).contains(DEC_2025);
        }

        @Test
        void headerCommentAloneSelectsNetscapeFormat() {
            String input = "# Netscape HTTP Cookie File\r\n\r\n.a.com\tTRUE\t/\tFALSE\t0\tk\tv\r\n";
            assertThat(cookies(input, null).cookies()).containsExactly(
                    new Cookie("k", "v", "a.com", true, "/", false, false, null));
        }
    }

    @Nested
    class JsonExports {
        @Test
        void parsesCookieEditorExport() {
            ParsedCredential parsed = cookies(TestResources.read("cookie-editor.json"), null);

            assertThat(parsed.cookies()).containsExactly(
                    new Cookie("_ga", "GA1.2.1843256733.1732800000", "example.com", true, "/", false, false,
                            Instant.ofEpochSecond(1767225600, 482_913_000)),
                    new Cookie("sessionid", "9f8e7d6c5b4a39281706f5e4d3c2b1a0", "portal.example.com", false, "/",
                            true, true, DEC_2025),
                    new Cookie("csrftoken", "Xy7Qk2LmN9pR4sT6uV8wZ0aB", "portal.example.com", false, "/app",
                            true, false, null));
            assertThat(parsed.earliestExpiry()).contains(DEC_2025);
        }

        @Test
        void parsesChromeExportWithIsoExpiresAndSessionMarker() {
            ParsedCredential parsed = cookies(TestResources.read("chrome-export.json"), "portal.example.com");

            assertThat(parsed.cookies()).containsExactly(
                    new Cookie("sessionid", "9f8e7d6c5b4a39281706f5e4d3c2b1a0", "portal.example.com", false, "/",
                            true, true, DEC_2025),
                    new Cookie("region", "eu-west", "example.com", true, "/", false, false,
                            Instant.parse("2026-06-30T10:00:00Z")),
                    new Cookie("tmp_flag", "on", "portal.example.com", false, "/", false, false, null),
                    new Cookie("lang", "en", "portal.example.com", false, "/help", false, false, null));
        }

        @Test
        void expiresInSecondsAndExpirationDatePrecedence() {
            String input = "[{\"name\":\"a\",\"value\":\"1\",\"expires\":1764547200},"
                    + "{\"name\":\"b\",\"value\":\"2\",\"expirationDate\":1767225600,\"expires\":1}]";
            assertThat(cookies(input, null).cookies()).extracting(Cookie::expires).containsExactly(DEC_2025, JAN_2026);
        }

        @Test
        void leadingDotWithoutHostOnlyMeansSubdomains() {
            String input = "[{\"name\":\"a\",\"value\":\"1\",\"domain\":\".example.com\"},"
                    + "{\"name\":\"b\",\"value\":\"2\",\"domain\":\"example.com\"}]";
            assertThat(cookies(input, null).cookies()).extracting(Cookie::includeSubdomains).containsExactly(true, false);
        }
    }

    @Nested
    class PlaywrightAndWget {
        @Test
        void playwrightStorageStateTakesItsCookiesAndIgnoresLocalStorage() {
            String input = """
                    {"cookies": [
                       {"name": "sid", "value": "Pw9f8e7d6c", "domain": "app.example.com", "path": "/",
                        "expires": -1, "httpOnly": true, "secure": true, "sameSite": "Lax"},
                       {"name": "pref", "value": "dark", "domain": ".example.com", "path": "/",
                        "expires": 1767225600, "httpOnly": false, "secure": false, "sameSite": "None"}],
                     "origins": [{"origin": "https://app.example.com",
                                  "localStorage": [{"name": "token", "value": "not-a-cookie"}]}]}
                    """;
            assertThat(cookies(input, null).cookies()).containsExactly(
                    new Cookie("sid", "Pw9f8e7d6c", "app.example.com", false, "/", true, true, null),
                    new Cookie("pref", "dark", "example.com", true, "/", false, false, JAN_2026));
        }

        @Test
        void anObjectWithoutCookiesIsStillRefusedAsNotAnArray() {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> cookies("{\"origins\": []}", null))
                    .isInstanceOf(CredentialFormatException.class)
                    .hasMessage("line 1: expected a JSON array of cookie objects, or a Playwright storageState object "
                            + "with \"cookies\"");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> cookies("{\"cookies\": {\"name\": \"a\"}}", null))
                    .isInstanceOf(CredentialFormatException.class)
                    .hasMessage("cookies: expected a JSON array of cookie objects");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> cookies("{\"cookies\": [{\"name\": \"a\"}]}", null))
                    .isInstanceOf(CredentialFormatException.class)
                    .hasMessage("cookies[0].value: missing");
        }

        @Test
        void wgetCookieFileKeepsThePortOfItsDomain() {
            String input = "# HTTP Cookie File\n# Generated by Wget on 2026-11-29 09:00:00.\n# Edit at your own risk.\n\n"
                    + "127.0.0.1:35303\tFALSE\t/\tFALSE\t0\tsession\tW6etValue\n";
            ParsedCredential parsed = cookies(input, null);
            assertThat(parsed.cookies()).containsExactly(
                    new Cookie("session", "W6etValue", "127.0.0.1:35303", false, "/", false, false, null));
            assertThat(parsed.httpHeaders(java.net.URI.create("http://127.0.0.1:35303/api"), JAN_2026))
                    .containsEntry("Cookie", "session=W6etValue");
            assertThat(parsed.httpHeaders(java.net.URI.create("http://127.0.0.1:35304/api"), JAN_2026))
                    .as("another port on the same host").isEmpty();
            // stored in canonical form and read back: the port survives
            assertThat(ParsedCredential.fromCanonical(CredentialType.COOKIE, parsed.canonicalSecret())).isEqualTo(parsed);
        }
    }

    @Nested
    class CookiesNoRequestCanCarry {
        /** The login beside a harmless cookie whose value is not ASCII, as each export writes them. */
        private static final String NICK = "\u5F20\u4E09";

        @Test
        void areLeftOutByNameInEveryFormatAndTheOthersKept() {
            java.util.List<String> exports = java.util.List.of(
                    "sid=abc123; nickname=" + NICK + "; theme=dark",
                    "example.com\tFALSE\t/\tFALSE\t0\tsid\tabc123\nexample.com\tFALSE\t/\tFALSE\t0\tnickname\t" + NICK
                            + "\nexample.com\tFALSE\t/\tFALSE\t0\ttheme\tdark\n",
                    "[{\"name\": \"sid\", \"value\": \"abc123\"}, {\"name\": \"nickname\", \"value\": \"" + NICK + "\"},"
                            + " {\"name\": \"theme\", \"value\": \"dark\"}]",
                    "{\"cookies\": [{\"name\": \"sid\", \"value\": \"abc123\"}, {\"name\": \"nickname\", \"value\": \"a;b\"},"
                            + " {\"name\": \"theme\", \"value\": \"dark\"}], \"origins\": []}");
            for (String export : exports) {
                CredentialParser.Parsed read = CredentialParser.parseInput(CredentialType.COOKIE, export, null);
                assertThat(read.dropped()).as(export).containsExactly("nickname");
                assertThat(read.credential().cookies()).as(export).extracting(Cookie::name).containsExactly("sid", "theme");
                assertThat(cookies(export, null)).isEqualTo(read.credential());
            }
        }

        @Test
        void aMalformedCookieIsStillAnErrorEvenWhenItsValueCouldNotBeSent() {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> cookies("[{\"name\": \"sid\", \"value\": \"abc\"},"
                            + " {\"name\": \"nickname\", \"value\": \"" + NICK + "\", \"secure\": \"yes\"}]", null))
                    .isInstanceOf(CredentialFormatException.class).hasMessage("[1].secure: expected true or false");
        }

        @Test
        void aTokenOrAHeaderHasNothingToLeaveOut() {
            CredentialParser.Parsed token = CredentialParser.parseInput(CredentialType.BEARER, "Bearer abc", null);
            assertThat(token.dropped()).isEmpty();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> CredentialParser.parseInput(CredentialType.HEADER,
                            "X-Api-Key: a" + NICK, null)).isInstanceOf(CredentialFormatException.class)
                    .hasMessageContaining("header value: contains a character outside ASCII (U+5F20)");
        }
    }
}
