package io.keyline.core.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.keyline.credentials.OAuthGrant;
import io.keyline.credentials.Redactor;
import io.keyline.domain.FailureClass;
import io.keyline.domain.FailureOrigin;
import io.keyline.domain.Printable;
import io.keyline.text.Said;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Obtains and keeps the access tokens of OAuth 2.0 credentials (RFC 6749, section 6: a refresh token exchanged at the
 * token endpoint). The one place that asks a token endpoint: steps, probes and {@code credentials test} come here.
 *
 * <ul>
 *   <li>An access token is kept in memory, for this process, per credential and per stored value (a renewal by the
 *   operator asks anew), until shortly before its {@code expires_in} ({@link #margin}); it is never stored.</li>
 *   <li>A 401 to a request that carried a kept token gets one new token ({@link #renew}); the caller sends once
 *   more. A 401 to a token just obtained is the site's refusal of the login: the caller parks the key.</li>
 *   <li>The endpoint answering {@code 400} or {@code 401} (RFC 6749, section 5.2: {@code invalid_grant},
 *   {@code invalid_client}, …) is a rejected login ({@link FailureClass#AUTH}), said with the endpoint's
 *   {@code error} and {@code error_description}, secrets masked. An endpoint that cannot be reached, times out, or
 *   answers 429 or 5xx is {@link FailureClass#RETRYABLE}: nothing was sent to the site.</li>
 *   <li>An answer with a new {@code refresh_token} (rotation) is stored, encrypted, through the credential
 *   ({@link CredentialMaterial#rotate}) before the access token is used: the old one may no longer work.</li>
 * </ul>
 */
public final class AccessTokens {

    /** The one per process: what a run, a probe and a test obtain is shared, so each asks the endpoint once. */
    private static final AccessTokens SHARED = new AccessTokens();

    /** Token answers are read up to this size. */
    private static final int MAX_ANSWER = 64 * 1024;

    private final Map<String, Kept> kept = new ConcurrentHashMap<>();
    private final Map<String, Object> locks = new ConcurrentHashMap<>();

    /** The shared instance. */
    public static AccessTokens shared() {
        return SHARED;
    }

    /**
     * An access token in hand.
     *
     * @param token   the access token (a secret)
     * @param fresh   obtained from the endpoint for this request (a 401 to it is the site's refusal of the login)
     * @param rotated the credential's new fingerprint when the endpoint rotated the refresh token (stored), else
     *                {@code null}
     */
    public record Access(String token, boolean fresh, String rotated) {
        @Override
        public String toString() {
            return "Access[token=***, fresh=" + fresh + "]";
        }
    }

    /** The endpoint gave no access token: why, and what it means for the step ({@code AUTH}, {@code RETRYABLE}, …). */
    public static final class Unavailable extends Exception {
        private final transient Said words;
        private final FailureClass cls;
        private final FailureOrigin origin;
        private final Integer status;

        Unavailable(FailureClass cls, FailureOrigin origin, Said words, Integer status) {
            super(words.english());
            this.cls = cls;
            this.origin = origin;
            this.words = words;
            this.status = status;
        }

        public Said words() {
            return words;
        }

        public FailureClass cls() {
            return cls;
        }

        public FailureOrigin origin() {
            return origin;
        }

        /** The endpoint's status, or {@code null} when it gave none. */
        public Integer status() {
            return status;
        }
    }

    /** An access token and when it stops being used, for the stored value with {@code fingerprint}. */
    private record Kept(String fingerprint, String token, Instant until) {
    }

    /** Every access token this process obtained, to be masked wherever text is shown or stored. */
    private final List<String> issued = java.util.Collections.synchronizedList(new ArrayList<>());

    /** The access tokens obtained in this process for any credential (masked like the other secrets). */
    public List<String> issued() {
        synchronized (issued) {
            return List.copyOf(issued);
        }
    }

    /**
     * The access token to send with {@code credential}: the kept one, or one obtained now.
     *
     * @param timeout bounds the exchange with the token endpoint
     * @throws Unavailable when the endpoint gave none
     */
    public Access current(CredentialMaterial credential, Clock clock, Duration timeout)
            throws Unavailable, InterruptedException {
        synchronized (lock(credential.name())) {
            Kept k = kept.get(credential.name());
            if (k != null && k.fingerprint().equals(credential.fingerprint()) && clock.instant().isBefore(k.until())) {
                return new Access(k.token(), false, null);
            }
            return obtain(credential, clock, timeout);
        }
    }

    /**
     * A new access token after the site answered 401 to {@code rejected}: the kept token is forgotten and one is
     * obtained, unless another request obtained a newer one meanwhile.
     */
    public Access renew(CredentialMaterial credential, String rejected, Clock clock, Duration timeout)
            throws Unavailable, InterruptedException {
        synchronized (lock(credential.name())) {
            Kept k = kept.get(credential.name());
            if (k != null && k.fingerprint().equals(credential.fingerprint()) && !k.token().equals(rejected)
                    && clock.instant().isBefore(k.until())) {
                return new Access(k.token(), true, null);
            }
            kept.remove(credential.name());
            return obtain(credential, clock, timeout);
        }
    }

    /** A token obtained now, whatever is kept: what {@code credentials test} asks. */
    public Access fresh(CredentialMaterial credential, Clock clock, Duration timeout)
            throws Unavailable, InterruptedException {
        synchronized (lock(credential.name())) {
            return obtain(credential, clock, timeout);
        }
    }

    /** Forgets every kept token (a test's "the process ended"). */
    public void forget() {
        kept.clear();
    }

    private Object lock(String name) {
        return locks.computeIfAbsent(name, n -> new Object());
    }

    /** How long before its end a token stops being used: a tenth of its life, at most a minute. */
    static Duration margin(Duration life) {
        Duration tenth = life.dividedBy(10);
        return tenth.compareTo(Duration.ofMinutes(1)) > 0 ? Duration.ofMinutes(1) : tenth;
    }

    private Access obtain(CredentialMaterial credential, Clock clock, Duration timeout)
            throws Unavailable, InterruptedException {
        OAuthGrant grant = credential.oauth();
        Redactor redactor = Redactor.NONE.plus(credential.secretStrings());
        String endpoint = Printable.line(grant.tokenUrl());
        String form = "grant_type=refresh_token&refresh_token=" + enc(grant.refreshToken()) + "&client_id="
                + enc(grant.clientId()) + "&client_secret=" + enc(grant.clientSecret());
        HttpResponse<byte[]> resp;
        Instant asked = clock.instant();
        try {
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(timeout.compareTo(Duration.ofSeconds(10)) < 0 ? timeout : Duration.ofSeconds(10))
                    .followRedirects(HttpClient.Redirect.NEVER).build();
            HttpRequest req = HttpRequest.newBuilder(URI.create(grant.tokenUrl())).timeout(timeout)
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .header("Accept", "application/json")
                    .header("User-Agent", HttpExecutor.USER_AGENT)
                    .POST(HttpRequest.BodyPublishers.ofString(form, StandardCharsets.UTF_8)).build();
            resp = http.send(req, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException | IllegalArgumentException e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new Unavailable(FailureClass.RETRYABLE, FailureOrigin.ENVIRONMENT, Said.of(
                    "core.oauth.unreachable", credential.name(), endpoint, redactor.redact(Printable.line(why))), null);
        }
        int s = resp.statusCode();
        byte[] raw = resp.body();
        String body = new String(raw, 0, Math.min(raw.length, MAX_ANSWER), StandardCharsets.UTF_8);
        JsonNode json = parse(body);
        if (s == 400 || s == 401 || s == 403) {
            throw new Unavailable(FailureClass.AUTH, FailureOrigin.ANSWER, Said.of("core.oauth.rejected",
                    credential.name(), endpoint, Integer.toString(s), redactor.redact(error(json, body))), s);
        }
        if (s == 429 || s >= 500) {
            throw new Unavailable(FailureClass.RETRYABLE, FailureOrigin.ENVIRONMENT, Said.of("core.oauth.cannotNow",
                    credential.name(), endpoint, Integer.toString(s), redactor.redact(error(json, body))), s);
        }
        String token = json == null ? null : text(json, "access_token");
        String type = json == null ? null : text(json, "token_type");
        if (s != 200 || token == null || token.isEmpty() || type != null && !type.equalsIgnoreCase("bearer")
                || Printable.firstNotInHeader(token) >= 0 || token.chars().anyMatch(Character::isWhitespace)) {
            // the answer is not a token Keyline can send: said without the answer itself, which may hold one
            throw new Unavailable(FailureClass.FATAL, FailureOrigin.ANSWER, Said.of("core.oauth.noToken",
                    credential.name(), endpoint, Integer.toString(s)), s);
        }
        issued.add(token);
        String rotated = null;
        String next = text(json, "refresh_token");
        String fingerprint = credential.fingerprint();
        if (next != null && !next.isEmpty() && !next.equals(grant.refreshToken())) {
            issued.add(next);
            rotated = credential.rotate(grant.withRefreshToken(next));
            if (rotated != null) {
                fingerprint = rotated;
            }
        }
        long seconds = json.path("expires_in").canConvertToLong() ? json.path("expires_in").asLong() : 0;
        if (seconds > 0) {
            Duration life = Duration.ofSeconds(seconds);
            kept.put(credential.name(), new Kept(fingerprint, token, asked.plus(life).minus(margin(life))));
        } else {
            // no lifetime said: the token is used for this request only
            kept.remove(credential.name());
        }
        return new Access(token, true, rotated);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static JsonNode parse(String body) {
        try {
            JsonNode n = new ObjectMapper().readTree(body);
            return n != null && n.isObject() ? n : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static String text(JsonNode json, String field) {
        JsonNode n = json.get(field);
        return n != null && n.isTextual() ? n.asText() : null;
    }

    /** The endpoint's own words: {@code error} and {@code error_description} (RFC 6749, 5.2), else its first line. */
    private static String error(JsonNode json, String body) {
        if (json != null && json.hasNonNull("error")) {
            JsonNode e = json.get("error");
            String code = e.isTextual() ? e.asText() : e.path(".tag").asText(e.toString());
            String description = text(json, "error_description");
            String said = description == null ? code : code + ": " + description;
            return Printable.line(said.length() > 300 ? said.substring(0, 300) + "…" : said);
        }
        String first = body.strip().lines().findFirst().orElse("");
        return Printable.line(first.length() > 200 ? first.substring(0, 200) + "…" : first);
    }
}
