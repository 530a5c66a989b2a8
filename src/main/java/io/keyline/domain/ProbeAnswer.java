package io.keyline.domain;

/** What a probe said about an unsafe step's effect ("query before create"). */
public enum ProbeAnswer {
    /** The effect exists: the step is recorded done (reconciled) and not executed. */
    PRESENT,
    /** The effect does not exist: the step may run (unless its last attempt's outcome is unknown). */
    ABSENT,
    /** The probe could not answer; the unsafe step never runs on it. */
    INCONCLUSIVE,
    /**
     * The site refused the probe's question as it is asked (a 4xx such as 400 or 422): no answer, and asking again
     * gets the same. The unsafe step never runs on it, and the probe is not asked again.
     */
    REFUSED,
    /** The probe was answered with a rejected credential. */
    AUTH,
    /**
     * Not asked (a dry run with {@code --no-probes}, or a probe that needs an earlier step's output):
     * the run asks it right before the step; a plan lists the step as "its probe decides".
     */
    NOT_ASKED;

    /**
     * The answer as machine output names it ({@code timeline --json}, {@code export --json}, the run log):
     * {@code present}, {@code absent}, {@code inconclusive}, {@code refused}, {@code auth}, {@code not_asked}.
     */
    public String code() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public String word() {
        return switch (this) {
            case PRESENT -> "present";
            case ABSENT -> "absent";
            case INCONCLUSIVE -> "inconclusive";
            case REFUSED -> "refused";
            case AUTH -> "credential rejected";
            case NOT_ASKED -> "not asked";
        };
    }
}
