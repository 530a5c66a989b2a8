package io.keyline.core.match;

import java.time.Duration;

/**
 * The moment by which reading an answer must end: a step's or probe's timeout bounds the whole exchange,
 * conditions and extraction included, whatever the answer holds. Work that reads an answer checks it
 * between conditions and rules, and text that a pattern scans is {@linkplain #guard guarded}: a scan still
 * running when the time is up stops with {@link Exceeded}.
 */
public final class Deadline {

    /** No bound (tests and previews that read a fixed text). */
    public static final Deadline NONE = new Deadline(Long.MAX_VALUE, Duration.ZERO);

    /** How many characters a guarded scan reads between two looks at the clock. */
    private static final int CHECK_EVERY = 4096;

    private final long nanos;
    private final Duration budget;

    private Deadline(long nanos, Duration budget) {
        this.nanos = nanos;
        this.budget = budget;
    }

    /** A deadline at {@code nanoTime} (as {@link System#nanoTime()} counts). */
    public static Deadline at(long nanoTime, Duration budget) {
        return new Deadline(nanoTime, budget);
    }

    public boolean passed() {
        return this != NONE && System.nanoTime() - nanos >= 0;
    }

    /** @throws Exceeded when the time is up */
    public void check() {
        if (passed()) {
            throw new Exceeded(budget);
        }
    }

    /** {@code text} as a scan reads it: every few thousand characters the deadline is checked. */
    public CharSequence guard(CharSequence text) {
        return this == NONE ? text : new Guarded(text, this);
    }

    /** Reading an answer did not end within its timeout. */
    public static final class Exceeded extends RuntimeException {
        public Exceeded(Duration budget) {
            super("reading the answer did not end within " + budget.toString().substring(2).toLowerCase(java.util.Locale.ROOT)
                    + " (timeout)", null, false, false);
        }
    }

    private static final class Guarded implements CharSequence {
        private final CharSequence text;
        private final Deadline deadline;
        private int reads;

        Guarded(CharSequence text, Deadline deadline) {
            this.text = text;
            this.deadline = deadline;
        }

        @Override
        public int length() {
            return text.length();
        }

        @Override
        public char charAt(int index) {
            if (++reads >= CHECK_EVERY) {
                reads = 0;
                deadline.check();
            }
            return text.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new Guarded(text.subSequence(start, end), deadline);
        }

        @Override
        public String toString() {
            return text.toString();
        }
    }
}
