package io.keyline.core;

import io.keyline.domain.ConfirmExpiry;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyRecord;
import io.keyline.domain.KeyState;
import io.keyline.domain.StepDefinition;

import java.time.Duration;
import java.time.Instant;

/**
 * How long a key has waited for a person, and when its wait for a confirmation expires: one rule for the
 * command line, the console and the reminders. A key that waits (FAILED, NEEDS_CONFIRMATION,
 * NEEDS_CREDENTIAL) is not changed until a person acts or its wait expires, so it has waited since its
 * last change.
 */
public final class Waiting {

    private Waiting() {
    }

    /** When the key started waiting for a person, or {@code null} when it does not wait. */
    public static Instant since(KeyRecord r) {
        return r != null && r.state().needsAttention() ? r.updatedAt() : null;
    }

    /** How long the key has waited at {@code now}, or {@code null} when it does not wait. */
    public static Duration age(KeyRecord r, Instant now) {
        Instant since = since(r);
        return since == null ? null : Duration.between(since, now).isNegative() ? Duration.ZERO
                : Duration.between(since, now);
    }

    /** "3 d 4 h", "5 h 10 min", "12 min", "under a minute". */
    public static String text(Duration d) {
        if (d == null) {
            return "";
        }
        long minutes = d.toMinutes();
        if (minutes < 1) {
            return io.keyline.text.Text.t("core.waiting.underAMinute");
        }
        if (minutes < 60) {
            return io.keyline.text.Text.t("core.waiting.minutes", minutes);
        }
        long hours = d.toHours();
        if (hours < 24) {
            long m = minutes % 60;
            return m == 0 ? io.keyline.text.Text.t("core.waiting.hours", hours)
                    : io.keyline.text.Text.t("core.waiting.hoursMinutes", hours, m);
        }
        long h = hours % 24;
        return h == 0 ? io.keyline.text.Text.t("core.waiting.days", d.toDays())
                : io.keyline.text.Text.t("core.waiting.daysHours", d.toDays(), h);
    }

    /** "waiting 3 d 4 h", or empty when the key does not wait. */
    public static String text(KeyRecord r, Instant now) {
        Duration age = age(r, now);
        return age == null ? "" : io.keyline.text.Text.t("core.waiting.waiting", text(age));
    }

    /** The expiry rule of the step a NEEDS_CONFIRMATION key waits at, or {@code null}. */
    public static ConfirmExpiry expiry(JobDefinition job, KeyRecord r) {
        if (job == null || r == null || r.state() != KeyState.NEEDS_CONFIRMATION || r.step() == null) {
            return null;
        }
        StepDefinition s = job.step(r.step());
        return s == null ? null : s.expiry();
    }

    /** When the key's wait for a confirmation expires, or {@code null} when it does not wait for one or never expires. */
    public static Instant expiresAt(JobDefinition job, KeyRecord r) {
        ConfirmExpiry e = expiry(job, r);
        return e == null || r.updatedAt() == null ? null : e.expiresAt(r.updatedAt());
    }
}
