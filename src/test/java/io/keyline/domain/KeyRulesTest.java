package io.keyline.domain;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class KeyRulesTest {

    private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");
    private static final KeySpec DATE = new KeySpec(KeyType.DATE, SHANGHAI, null);
    private static final KeySpec WEEK = new KeySpec(KeyType.WEEK, SHANGHAI, null);
    private static final KeySpec MONTH = new KeySpec(KeyType.MONTH, SHANGHAI, null);
    private static final KeySpec MANUAL = new KeySpec(KeyType.MANUAL, SHANGHAI, null);

    private static void rejected(KeySpec spec, String raw, String message) {
        assertThatExceptionOfType(InvalidKeyException.class).isThrownBy(() -> KeyRules.normalize(spec, raw))
                .withMessage(message);
    }

    @Test
    void validKeysNormalize() {
        assertThat(KeyRules.normalize(DATE, "2026-11-29")).isEqualTo("2026-11-29");
        assertThat(KeyRules.normalize(DATE, "2024-02-29")).isEqualTo("2024-02-29");
        assertThat(KeyRules.normalize(WEEK, "2026-W48")).isEqualTo("2026-W48");
        assertThat(KeyRules.normalize(WEEK, "2026-w05")).isEqualTo("2026-W05");
        assertThat(KeyRules.normalize(MONTH, "2026-11")).isEqualTo("2026-11");
        assertThat(KeyRules.normalize(MANUAL, "INV-2026.0042_a")).isEqualTo("INV-2026.0042_a");
        assertThat(KeyRules.normalize(MANUAL, "x".repeat(128))).hasSize(128);
    }

    @Test
    void malformedOrderedKeysAreRejected() {
        rejected(DATE, "2026-13-01", "key \"2026-13-01\" is not a date (expected YYYY-MM-DD)");
        rejected(DATE, "2025-02-29", "key \"2025-02-29\" is not a date (expected YYYY-MM-DD)");
        rejected(DATE, "26-11-29", "key \"26-11-29\" is not a date (expected YYYY-MM-DD)");
        rejected(WEEK, "2026-48", "key \"2026-48\" is not a week (expected YYYY-Www, like 2026-W48)");
        rejected(WEEK, "2026-W4", "key \"2026-W4\" is not a week (expected YYYY-Www, like 2026-W48)");
        rejected(WEEK, "2026-W00", "key \"2026-W00\" is not a week: 2026 has ISO weeks W01 to W53");
        rejected(MONTH, "2026-13", "key \"2026-13\" is not a month (expected YYYY-MM)");
        rejected(MONTH, "2026-1", "key \"2026-1\" is not a month (expected YYYY-MM)");
    }

    @Test
    void week53ExistsOnlyInLongYears() {
        assertThat(KeyRules.normalize(WEEK, "2020-W53")).isEqualTo("2020-W53");
        assertThat(KeyRules.firstDay(WEEK, "2020-W53")).isEqualTo(LocalDate.of(2020, 12, 28));
        assertThat(KeyRules.next(WEEK, "2020-W53")).isEqualTo("2021-W01");
        assertThat(KeyRules.previous(WEEK, "2021-W01")).isEqualTo("2020-W53");
        assertThat(KeyRules.next(WEEK, "2021-W52")).isEqualTo("2022-W01");
        rejected(WEEK, "2021-W53", "key \"2021-W53\" is not a week: 2021 has ISO weeks W01 to W52");
    }

    @Test
    void weekKeysUseTheIsoWeekBasedYear() {
        ZonedDateTime newYear2021 = ZonedDateTime.of(2021, 1, 1, 12, 0, 0, 0, SHANGHAI);
        ZonedDateTime lateDecember2024 = ZonedDateTime.of(2024, 12, 30, 12, 0, 0, 0, SHANGHAI);

        assertThat(KeyRules.keyAt(WEEK, newYear2021)).isEqualTo("2020-W53");
        assertThat(KeyRules.keyAt(WEEK, lateDecember2024)).isEqualTo("2025-W01");
    }

    @ParameterizedTest(name = "[{index}] \"{0}\"")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
            "''                   | key is empty (expected letters, digits, \".\", \"_\" or \"-\")",
            "a/b                  | key \"a/b\" contains a path separator (\"/\" or \"\\\")",
            "a\\b                 | key \"a\\b\" contains a path separator (\"/\" or \"\\\")",
            "a..b                 | key \"a..b\" contains \"..\"",
            "..                   | key \"..\" contains \"..\"",
            ".hidden              | key \".hidden\" must start with a letter or digit (A-Z, a-z, 0-9)",
            "-x                   | key \"-x\" must start with a letter or digit (A-Z, a-z, 0-9)",
            "a b                  | key \"a b\" contains \" \" (allowed: A-Z, a-z, 0-9, \".\", \"_\", \"-\")",
            "caf\u00e9            | key \"caf\u00e9\" contains \"\u00e9\" (allowed: A-Z, a-z, 0-9, \".\", \"_\", \"-\")",
            "\u00e9t\u00e9        | key \"\u00e9t\u00e9\" must start with a letter or digit (A-Z, a-z, 0-9)",
    })
    void manualKeysAreRejectedWithTheReason(String raw, String message) {
        rejected(MANUAL, raw, message);
    }

    @Test
    void manualKeyWithAControlCharacterNamesIt() {
        rejected(MANUAL, "a\u0007b", "key \"a\\u0007b\" contains the control character \\u0007");
        rejected(MANUAL, "line\n", "key \"line\\u000A\" contains the control character \\u000A");
    }

    @Test
    void manualKeyLongerThan128CharactersIsRejected() {
        rejected(MANUAL, "k".repeat(129), "key \"" + "k".repeat(20) + "...\" is 129 characters long (at most 128)");
    }

    @Test
    void keysBeforeStartAreRejected() {
        KeySpec spec = new KeySpec(KeyType.DATE, SHANGHAI, "2026-10-01");

        assertThat(KeyRules.normalize(spec, "2026-10-01")).isEqualTo("2026-10-01");
        rejected(spec, "2026-09-30", "key \"2026-09-30\" is before the job's key.start 2026-10-01");
        rejected(new KeySpec(KeyType.WEEK, SHANGHAI, "2026-W40"), "2026-w39",
                "key \"2026-w39\" is before the job's key.start 2026-W40");
        rejected(new KeySpec(KeyType.MONTH, SHANGHAI, "2026-10"), "2026-09",
                "key \"2026-09\" is before the job's key.start 2026-10");
    }

    @Test
    void rangesCrossYearEnds() {
        assertThat(KeyRules.range(DATE, "2025-12-30", "2026-01-02"))
                .containsExactly("2025-12-30", "2025-12-31", "2026-01-01", "2026-01-02");
        assertThat(KeyRules.range(WEEK, "2020-W52", "2021-w02"))
                .containsExactly("2020-W52", "2020-W53", "2021-W01", "2021-W02");
        assertThat(KeyRules.range(MONTH, "2025-11", "2026-02"))
                .containsExactly("2025-11", "2025-12", "2026-01", "2026-02");
        assertThat(KeyRules.range(DATE, "2024-02-28", "2024-03-01"))
                .containsExactly("2024-02-28", "2024-02-29", "2024-03-01");
        assertThat(KeyRules.range(DATE, "2026-11-29", "2026-11-29")).containsExactly("2026-11-29");
    }

    @Test
    void rangeBoundsAreChecked() {
        KeySpec spec = new KeySpec(KeyType.DATE, SHANGHAI, "2026-10-01");

        assertThatExceptionOfType(InvalidKeyException.class).isThrownBy(() -> KeyRules.range(spec, "2026-09-30", "2026-10-02"))
                .withMessage("key \"2026-09-30\" is before the job's key.start 2026-10-01");
        assertThatExceptionOfType(InvalidKeyException.class).isThrownBy(() -> KeyRules.range(DATE, "2026-11-30", "2026-11-01"))
                .withMessage("key range is backwards: \"2026-11-30\" is after \"2026-11-01\"");
        assertThatExceptionOfType(InvalidKeyException.class).isThrownBy(() -> KeyRules.range(MANUAL, "a", "b"))
                .withMessage("manual keys have no order: use --key");
        assertThatExceptionOfType(InvalidKeyException.class).isThrownBy(() -> KeyRules.range(MONTH, "2026-01", "2026-13"))
                .withMessage("key \"2026-13\" is not a month (expected YYYY-MM)");
    }

    @Test
    void rangesAreCapped() {
        assertThat(KeyRules.range(DATE, "2026-01-01", "2026-01-31", 31)).hasSize(31);
        assertThatExceptionOfType(InvalidKeyException.class)
                .isThrownBy(() -> KeyRules.range(DATE, "2026-01-01", "2026-12-31", 100))
                .withMessage("key range 2026-01-01..2026-12-31 has 365 keys, more than the limit of 100");
        assertThatExceptionOfType(InvalidKeyException.class)
                .isThrownBy(() -> KeyRules.range(DATE, "0001-01-01", "9999-12-31"))
                .withMessage("key range 0001-01-01..9999-12-31 has 3652059 keys, more than the limit of 1000000");
    }

    @Test
    void keyAtUsesTheJobZone() {
        ZonedDateTime lateUtc = ZonedDateTime.of(2026, 11, 30, 20, 0, 0, 0, ZoneId.of("UTC"));

        assertThat(KeyRules.keyAt(DATE, lateUtc)).isEqualTo("2026-12-01");
        assertThat(KeyRules.keyAt(WEEK, lateUtc)).isEqualTo("2026-W49");
        assertThat(KeyRules.keyAt(MONTH, lateUtc)).isEqualTo("2026-12");
        assertThat(KeyRules.current(DATE, Clock.fixed(Instant.parse("2026-11-29T15:59:59Z"), ZoneId.of("UTC"))))
                .isEqualTo("2026-11-29");
        assertThat(KeyRules.current(DATE, Clock.fixed(Instant.parse("2026-11-29T16:00:00Z"), ZoneId.of("UTC"))))
                .isEqualTo("2026-11-30");
        assertThatIllegalArgumentException().isThrownBy(() -> KeyRules.keyAt(MANUAL, lateUtc))
                .withMessage("manual keys do not derive from time");
    }

    @Test
    void compareIsChronologicalForOrderedKeysAndLexicographicForManual() {
        assertThat(KeyRules.compare(DATE, "2026-02-01", "2026-10-01")).isNegative();
        assertThat(KeyRules.compare(WEEK, "2026-w10", "2026-W10")).isZero();
        assertThat(KeyRules.compare(WEEK, "2026-W01", "2025-W52")).isPositive();
        assertThat(KeyRules.compare(MONTH, "2026-12", "2027-01")).isNegative();
        assertThat(KeyRules.compare(MANUAL, "B-10", "B-9")).isNegative();
        assertThat(List.of("2026-W10", "2025-W52", "2026-W02").stream().sorted((a, b) -> KeyRules.compare(WEEK, a, b)))
                .containsExactly("2025-W52", "2026-W02", "2026-W10");
    }

    @Test
    void nextAndPreviousStepOnePeriod() {
        assertThat(KeyRules.next(DATE, "2025-12-31")).isEqualTo("2026-01-01");
        assertThat(KeyRules.previous(DATE, "2024-03-01")).isEqualTo("2024-02-29");
        assertThat(KeyRules.next(MONTH, "2026-12")).isEqualTo("2027-01");
        assertThat(KeyRules.previous(MONTH, "2026-01")).isEqualTo("2025-12");
        assertThat(KeyRules.next(WEEK, "2026-w48")).isEqualTo("2026-W49");
        assertThat(KeyRules.previous(new KeySpec(KeyType.DATE, SHANGHAI, "2026-10-01"), "2026-10-01")).isEqualTo("2026-09-30");
        assertThatExceptionOfType(InvalidKeyException.class).isThrownBy(() -> KeyRules.next(MANUAL, "a"))
                .withMessage("manual keys have no order: use --key");
    }

    @Test
    void firstDayOfEachType() {
        assertThat(KeyRules.firstDay(DATE, "2026-11-29")).isEqualTo(LocalDate.of(2026, 11, 29));
        assertThat(KeyRules.firstDay(WEEK, "2026-W48")).isEqualTo(LocalDate.of(2026, 11, 23));
        assertThat(KeyRules.firstDay(WEEK, "2026-W01")).isEqualTo(LocalDate.of(2025, 12, 29));
        assertThat(KeyRules.firstDay(MONTH, "2026-11")).isEqualTo(LocalDate.of(2026, 11, 1));
    }
}
