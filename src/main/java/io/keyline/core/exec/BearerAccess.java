package io.keyline.core.exec;

import io.keyline.credentials.OAuthGrant;
import io.keyline.credentials.Redactor;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An OAuth 2.0 credential with the access token obtained for one request: sent as {@code Authorization: Bearer
 * TOKEN}, and masked with the credential's other secrets.
 */
record BearerAccess(CredentialMaterial credential, String token) implements CredentialMaterial {

    /** {@code ctx} with the access token: its credential sends it, and its redaction masks it; all else is kept. */
    static StepContext in(StepContext ctx, String token) {
        Redactor also = Redactor.of(List.of(token));
        return new StepContext(ctx.job(), ctx.step(), ctx.key(), ctx.runId(), ctx.attempt(), ctx.outputs(),
                new BearerAccess(ctx.credential(), token), s -> s == null ? null : also.redact(ctx.redact().apply(s)),
                ctx.redo());
    }

    @Override
    public String name() {
        return credential.name();
    }

    @Override
    public String fingerprint() {
        return credential.fingerprint();
    }

    @Override
    public String renewalFingerprint() {
        return credential.renewalFingerprint();
    }

    @Override
    public Map<String, String> httpHeaders(URI uri, Instant now) {
        return Map.of("Authorization", "Bearer " + token);
    }

    @Override
    public Map<String, String> environment(Instant now) {
        return Map.of();
    }

    @Override
    public List<String> secretStrings() {
        List<String> all = new ArrayList<>(credential.secretStrings());
        all.add(token);
        return List.copyOf(all);
    }

    @Override
    public String loginUrl() {
        return credential.loginUrl();
    }

    @Override
    public OAuthGrant oauth() {
        return credential.oauth();
    }

    @Override
    public String toString() {
        return credential.toString();
    }
}
