package io.keyline.core;

import io.keyline.domain.RetryPolicy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class BackoffTest {

    @Test
    void growsExponentiallyAndIsCappedPerDelay() {
        RetryPolicy p = new RetryPolicy(10, Duration.ofSeconds(5), 2.0, Duration.ofSeconds(30), 0.0, Duration.ofHours(1));
        Random r = new Random(1);
        assertThat(Backoff.delay(p, 1, r)).isEqualTo(Duration.ofSeconds(5));
        assertThat(Backoff.delay(p, 2, r)).isEqualTo(Duration.ofSeconds(10));
        assertThat(Backoff.delay(p, 3, r)).isEqualTo(Duration.ofSeconds(20));
        assertThat(Backoff.delay(p, 4, r)).isEqualTo(Duration.ofSeconds(30));
        assertThat(Backoff.delay(p, 9, r)).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void jitterSpreadsWithinItsBoundsAndNeverExceedsTheCap() {
        RetryPolicy p = new RetryPolicy(10, Duration.ofSeconds(12), 2.0, Duration.ofSeconds(15), 0.5, Duration.ofHours(1));
        Random r = new Random(2);
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int i = 0; i < 2000; i++) {
            long ms = Backoff.delay(p, 1, r).toMillis();
            min = Math.min(min, ms);
            max = Math.max(max, ms);
        }
        assertThat(min).isBetween(6_000L, 6_200L); // 12 s - 50 %
        assertThat(max).isEqualTo(15_000L); // 12 s + 50 % would be 18 s: capped at 15 s
    }
}
