package io.keyline.core.exec;

import io.keyline.domain.RateLimit;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The token bucket and the Retry-After pause per job and host, on a clock the test moves (no sleeps). */
class HostLimitsTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final List<Long> parks = new ArrayList<>();
    private final HostLimits limits = new HostLimits(now::get, nanos -> {
        parks.add(nanos);
        now.addAndGet(nanos);
    });
    private static final URI SITE = URI.create("http://127.0.0.1:8080/api/articles");
    private static final Duration MINUTE = Duration.ofMinutes(1);

    @Test
    void requestsToOneHostAreSpacedByTheRate() throws Exception {
        RateLimit fifty = RateLimit.parse("50/s");
        List<Long> sentAt = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            limits.acquire("job", fifty, SITE, MINUTE);
            sentAt.add(now.get());
        }
        for (int i = 1; i < sentAt.size(); i++) {
            assertThat(sentAt.get(i) - sentAt.get(i - 1)).isEqualTo(20_000_000L);
        }
        assertThat(parks).hasSize(9).allSatisfy(p -> assertThat(p).isEqualTo(20_000_000L));
    }

    @Test
    void callersThatComeTogetherGetSuccessiveSlots() throws Exception {
        // sixteen keys ask at the same instant (the clock does not move between their reservations)
        HostLimits together = new HostLimits(now::get, parks::add);
        for (int i = 0; i < 16; i++) {
            together.acquire("job", RateLimit.parse("10/s"), SITE, MINUTE);
        }
        assertThat(parks).hasSize(15);
        for (int i = 0; i < 15; i++) {
            assertThat(parks.get(i)).isEqualTo((i + 1) * 100_000_000L);
        }
    }

    @Test
    void aCallerThatWokeLateDoesNotLeaveWithTheOnesOnTime() throws Exception {
        // 2/s: slots at 0, 0.5 s, 1.0 s, 1.5 s; the second caller is woken 0.4 s late (a busy machine)
        AtomicLong clock = new AtomicLong(0);
        List<Long> left = new ArrayList<>();
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        HostLimits late = new HostLimits(clock::get, nanos -> clock.addAndGet(nanos
                + (calls.incrementAndGet() == 1 ? 400_000_000L : 0)));
        RateLimit two = RateLimit.parse("2/s");
        for (int i = 0; i < 4; i++) {
            late.acquire("job", two, SITE, MINUTE);
            left.add(clock.get());
        }
        // without the window the third and fourth would leave at 1.0 s and 1.5 s: three within [0.9 s, 1.9 s)
        assertThat(left).containsExactly(0L, 900_000_000L, 1_000_000_000L, 1_900_000_000L);
        for (int i = 2; i < left.size(); i++) {
            assertThat(left.get(i) - left.get(i - 2)).as("two departures at most per second")
                    .isGreaterThanOrEqualTo(1_000_000_000L);
        }
    }

    @Test
    void anIdleHostDoesNotSaveUpABurst() throws Exception {
        RateLimit two = RateLimit.parse("2/s");
        limits.acquire("job", two, SITE, MINUTE);
        now.addAndGet(Duration.ofSeconds(10).toNanos());
        limits.acquire("job", two, SITE, MINUTE);
        limits.acquire("job", two, SITE, MINUTE);
        assertThat(parks).containsExactly(500_000_000L);
    }

    @Test
    void jobsAndHostsHaveTheirOwnGates() throws Exception {
        RateLimit one = RateLimit.parse("1/s");
        limits.acquire("a", one, SITE, MINUTE);
        limits.acquire("b", one, SITE, MINUTE);
        limits.acquire("a", one, URI.create("http://127.0.0.1:8081/x"), MINUTE);
        limits.acquire("a", one, URI.create("https://127.0.0.1:8080/x"), MINUTE);
        assertThat(parks).isEmpty();
        limits.acquire("a", one, URI.create("HTTP://127.0.0.1:8080/other?q=1"), MINUTE);
        assertThat(parks).containsExactly(1_000_000_000L);
    }

    @Test
    void aRetryAfterPausesTheHostForEveryKeyOfTheJob() throws Exception {
        limits.pause("job", SITE, Duration.ofSeconds(3));
        limits.acquire("job", null, URI.create("http://127.0.0.1:8080/api/articles?date=2026-11-02"), MINUTE);
        assertThat(parks).containsExactly(3_000_000_000L);
        // over: the next request goes at once; another job was never held
        limits.acquire("job", null, SITE, MINUTE);
        limits.acquire("other", null, SITE, MINUTE);
        assertThat(parks).hasSize(1);
    }

    @Test
    void aPauseEndsTheRateSlotsToo() throws Exception {
        RateLimit ten = RateLimit.parse("10/s");
        limits.acquire("job", ten, SITE, MINUTE);
        limits.pause("job", SITE, Duration.ofSeconds(2));
        limits.acquire("job", ten, SITE, MINUTE);
        limits.acquire("job", ten, SITE, MINUTE);
        assertThat(parks).containsExactly(2_000_000_000L, 100_000_000L);
    }

    @Test
    void aPauseLongerThanTheCallerWaitsIsReportedNotWaited() throws Exception {
        limits.pause("job", SITE, Duration.ofMinutes(10));
        now.addAndGet(Duration.ofMinutes(1).toNanos());

        Duration d = limits.acquire("job", RateLimit.parse("5/s"), SITE, MINUTE);

        assertThat(d).isEqualTo(Duration.ofMinutes(-9));
        assertThat(parks).isEmpty();
        assertThat(limits.pausedFor("job", SITE)).isEqualTo(Duration.ofMinutes(9));
        // a shorter Retry-After never shortens a pause that is on
        limits.pause("job", SITE, Duration.ofSeconds(1));
        assertThat(limits.pausedFor("job", SITE)).isEqualTo(Duration.ofMinutes(9));
    }

    @Test
    void anInterruptedWaitGivesUp() {
        HostLimits real = new HostLimits(System::nanoTime, nanos -> {
            throw new InterruptedException();
        });
        real.pause("job", SITE, Duration.ofSeconds(5));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> real.acquire("job", null, SITE, MINUTE))
                .isInstanceOf(InterruptedException.class);
    }
}
