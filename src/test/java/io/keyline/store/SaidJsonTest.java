package io.keyline.store;

import io.keyline.text.Said;
import io.keyline.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** An event's words as the state keeps them: a key and its arguments, nested words as objects, numbers as numbers. */
class SaidJsonTest {

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    @Test
    void wordsKeepTheirKeyTheirNestedWordsAndTheirNumbers() {
        Instant at = Instant.parse("2026-11-29T09:00:00Z");
        Said said = Said.of("core.event.retryScheduled", Said.of("core.event.stepFailed", "publish", "HTTP 503"), 2,
                3, at);
        String json = SaidJson.write(said);
        assertThat(json).isEqualTo("{\"key\":\"core.event.retryScheduled\",\"args\":[{\"key\":\"core.event.stepFailed\","
                + "\"args\":[\"publish\",\"HTTP 503\"]},2,3,\"2026-11-29T09:00:00Z\"]}");
        Said back = SaidJson.read(json);
        assertThat(back.key()).isEqualTo("core.event.retryScheduled");
        assertThat(back.args().get(0)).isEqualTo(Said.of("core.event.stepFailed", "publish", "HTTP 503"));
        assertThat(back.args().subList(1, 3)).containsExactly(2, 3);
        assertThat(back.english()).isEqualTo(said.english())
                .isEqualTo("publish failed: HTTP 503; attempt 2 of 3 at 2026-11-29T09:00:00Z");
        Text.use(Text.CHINESE);
        assertThat(back.text()).isEqualTo(said.text()).startsWith("publish 失败：HTTP 503；第 2 次尝试（共 3 次）");
    }

    @Test
    void aTextShownAsItIsHasNoKey() {
        String json = SaidJson.write(Said.plain("probe: /total = 0 (absent)"));
        assertThat(json).isEqualTo("{\"args\":[\"probe: /total = 0 (absent)\"]}");
        assertThat(SaidJson.read(json)).isEqualTo(Said.plain("probe: /total = 0 (absent)"));
    }

    @Test
    void wordsTooLargeForTheColumnOrUnreadableAreNotKept() {
        String huge = "x".repeat(2500);
        Said big = Said.of("core.event.rewind.and", Said.of("core.event.stepFailed", huge, huge),
                Said.of("core.event.stepFailed", huge, huge));
        assertThat(SaidJson.write(big)).as("four arguments of 2,000 characters each, cut from 2,500").isNull();
        assertThat(SaidJson.write(Said.of("core.event.stepFailed", "work", huge))).hasSizeLessThan(2100)
                .contains("x…\"]}");
        assertThat(SaidJson.write(null)).isNull();
        assertThat(SaidJson.read(null)).isNull();
        assertThat(SaidJson.read("not json")).isNull();
        assertThat(SaidJson.read("{\"key\":\"core.event.skipped\"}")).as("no arguments array").isNull();
        assertThat(SaidJson.read("{\"key\":\"core.event.skipped\",\"args\":[]}"))
                .isEqualTo(new Said("core.event.skipped", List.of()));
    }
}
