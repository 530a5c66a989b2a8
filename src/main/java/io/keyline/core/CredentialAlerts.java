package io.keyline.core;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.keyline.text.Text.t;

/** Why a person should look at a credential: expired, expiring soon, rejected, or missing with keys parked on it. */
public final class CredentialAlerts {

    /** Default warning window before a cookie expires. */
    public static final Duration DEFAULT_WARN = Duration.ofDays(3);
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")
            .withZone(ZoneId.systemDefault());

    private CredentialAlerts() {
    }

    /**
     * One alert. {@code name} is the credential; {@code message} says it whole, {@code status} the same without the
     * credential's name, for a place that shows the name beside it.
     */
    public record Alert(String name, Kind kind, String message, String status) {
    }

    public enum Kind { EXPIRED, EXPIRES_SOON, REJECTED, MISSING }

    /** The warning window from {@code KEYLINE_CREDENTIAL_WARN_DAYS}, or the default. */
    public static Duration warnWindow(Map<String, String> env) {
        String v = env.get("KEYLINE_CREDENTIAL_WARN_DAYS");
        if (v == null || v.isBlank()) {
            return DEFAULT_WARN;
        }
        try {
            return Duration.ofDays(Long.parseLong(v.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(t("core.credential.badWarnDays", "KEYLINE_CREDENTIAL_WARN_DAYS", v));
        }
    }

    public static List<Alert> of(CredentialStore store, Instant now, Duration warn) {
        return of(store.list(), store.parkedOnMissing(), now, warn);
    }

    /** The alerts of {@code credentials} and of the keys parked on credentials that are not stored. */
    public static List<Alert> of(List<CredentialInfo> credentials, Map<String, Integer> parkedOnMissing, Instant now,
                                 Duration warn) {
        List<Alert> out = new ArrayList<>();
        for (CredentialInfo i : credentials) {
            boolean login = i.loginUrl() != null;
            if (i.earliestExpiry() != null && !i.earliestExpiry().isAfter(now)) {
                out.add(alert(i.name(), Kind.EXPIRED, login ? "core.credential.expiredLogin"
                        : "core.credential.expired", i.name(), WHEN.format(i.earliestExpiry()), i.loginUrl()));
            } else if (i.expiresWithin(now, warn)) {
                out.add(alert(i.name(), Kind.EXPIRES_SOON, "core.credential.expiresSoon", i.name(),
                        WHEN.format(i.earliestExpiry())));
            }
            if (i.parkedKeys() > 0) {
                out.add(alert(i.name(), Kind.REJECTED, login ? "core.credential.rejectedLogin"
                        : "core.credential.rejected", i.name(), i.parkedKeys(), i.loginUrl()));
            }
        }
        new java.util.TreeMap<>(parkedOnMissing).forEach((name, n) -> out.add(alert(name, Kind.MISSING,
                "core.credential.missing", name, n)));
        return out;
    }

    /**
     * The alert said by message {@code key} and, without the credential's name, by the same key under
     * {@code core.credential.status}.
     */
    private static Alert alert(String name, Kind kind, String key, Object... args) {
        return new Alert(name, kind, t(key, args), t(key.replace("core.credential.", "core.credential.status."), args));
    }
}
