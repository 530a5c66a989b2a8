package io.keyline.cli;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Text#time} formats by hand (DateTimeFormatter was a third of building a 10,000-row status table);
 * it must print exactly what the formatter printed, in this machine's zone, across offsets,
 * daylight-saving changes and the years it hands back to the formatter.
 */
class TextTimeTest {

    private static final DateTimeFormatter FORMATTER = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    @Test
    void printsWhatTheFormatterPrints() {
        SplittableRandom random = new SplittableRandom(14);
        long from = Instant.parse("1000-01-01T00:00:00Z").getEpochSecond();
        long to = Instant.parse("9999-12-30T00:00:00Z").getEpochSecond();
        for (int i = 0; i < 200_000; i++) {
            Instant t = Instant.ofEpochSecond(random.nextLong(from, to), random.nextInt(1_000_000_000));
            assertThat(Text.time(t)).as("%s", t).isEqualTo(FORMATTER.format(t));
        }
        for (String edge : new String[] {"1970-01-01T00:00:00Z", "2026-03-29T01:00:00Z", "2026-10-25T00:59:59Z",
                "2026-12-31T23:59:59.999Z", "0999-12-31T23:59:59Z", "+10000-01-01T00:00:00Z"}) {
            Instant t = Instant.parse(edge);
            assertThat(Text.time(t)).as(edge).isEqualTo(FORMATTER.format(t));
        }
        assertThat(Text.time(null)).isEqualTo("-");
    }
}
