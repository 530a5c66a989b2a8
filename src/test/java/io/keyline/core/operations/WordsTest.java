package io.keyline.core.operations;

import io.keyline.domain.EventType;
import io.keyline.domain.FailureClass;
import io.keyline.domain.KeyState;
import io.keyline.domain.KeyType;
import io.keyline.domain.ProbeAnswer;
import io.keyline.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/** The engine's messages in an operator's words (Attention, Confirm and the timeline show them). */
class WordsTest {

    @Test
    void anAmbiguousFailureWithTheProbesAnswerReadsAsSentences() {
        String engine = "outcome of publish unknown (no answer within 1s (timeout; the request may have been sent));"
                + " probe: /total = 0 (absent)";
        assertThat(Words.message(engine)).isEqualTo("Outcome of publish unknown: no answer within 1s (timeout; the "
                + "request may have been sent). The probe found no effect (it checked /total = 0).")
                .doesNotContain("))").doesNotContain("probe:").doesNotContain("(absent)");
        assertThat(Words.message("outcome of publish unknown (HTTP 502); probe: /total = 1 (present)"))
                .isEqualTo("Outcome of publish unknown: HTTP 502. The probe found the effect already there "
                        + "(it checked /total = 1).");
        assertThat(Words.message("x failed; probe: HTTP 500 (inconclusive)"))
                .isEqualTo("x failed. The probe gave no clear answer (it checked HTTP 500).");
    }

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    @Test
    void inChineseTheWordsAroundAStoredMessageAreChineseAndTheMessageStaysAsStored() {
        Text.use(Text.CHINESE);
        String engine = "outcome of publish unknown (no answer within 1s (timeout; the request may have been sent));"
                + " probe: /total = 0 (absent)";
        assertThat(Words.message(engine)).isEqualTo("publish 的结果未知：no answer within 1s (timeout; the request may "
                + "have been sent)。检查没有发现结果（它查看了 /total = 0）。");
        assertThat(Words.message("stored before (TRANSIENT_AFTER_SEND)")).isEqualTo("stored before (没有完整答复)");
        assertThat(Words.probe("absent - probe: /total = 0 (absent)")).isEqualTo("不存在：结果还没有产生（检查读到的是 /total = 0）");
    }

    @Test
    void schedulesAndCountsInBothLanguages() {
        ZoneId utc = ZoneId.of("UTC");
        assertThat(Words.schedule("0 7 * * *", null)).isEqualTo("daily at 07:00");
        assertThat(Words.schedule("30 7 * * MON,WED,5", utc)).isEqualTo("Mondays, Wednesdays and Fridays at 07:30 (UTC)");
        assertThat(Words.schedule("0 9 1 * *", null)).isEqualTo("on day 1 of each month at 09:00");
        assertThat(Words.schedule("0 9 * 1 *", null)).isEqualTo("cron 0 9 * 1 *");
        assertThat(Words.counts(java.util.Map.of(KeyState.DONE, 8, KeyState.NEEDS_CREDENTIAL, 3,
                KeyState.NEEDS_CONFIRMATION, 1))).isEqualTo("8 done, 1 needs confirmation, 3 need login");
        Text.use(Text.CHINESE);
        assertThat(Words.schedule("0 7 * * *", null)).isEqualTo("每天 07:00");
        assertThat(Words.schedule("30 7 * * MON,WED,5", utc)).isEqualTo("每逢周一、周三和周五 07:30（UTC）");
        assertThat(Words.schedule("0 9 * * 1-5", null)).isEqualTo("每逢工作日 09:00");
        assertThat(Words.counts(java.util.Map.of(KeyState.DONE, 8, KeyState.NEEDS_CREDENTIAL, 3,
                KeyState.NEEDS_CONFIRMATION, 1))).isEqualTo("8 个已完成、1 个待确认、3 个待登录");
        assertThat(Words.counts(java.util.Map.of())).isEqualTo("没有任务项");
    }

    /** The words chosen by a value (a failure class, an event, a state, a probe's answer) exist for every value. */
    @Test
    void everyValueHasItsWordsInBothLanguages() {
        for (Locale l : List.of(Text.ENGLISH, Text.CHINESE)) {
            Text.use(l);
            List<String> keys = new ArrayList<>();
            for (FailureClass c : FailureClass.values()) {
                keys.add("core.failure." + c.name());
            }
            for (EventType t : EventType.values()) {
                keys.add("core.event." + t.name());
            }
            for (KeyState s : KeyState.values()) {
                keys.add("core.count." + s.name());
            }
            for (ProbeAnswer a : ProbeAnswer.values()) {
                keys.add("core.probeAnswer." + a.name());
            }
            for (KeyType t : KeyType.values()) {
                keys.add("core.calendar.count." + t.name());
            }
            for (ConfirmAndRun.Reason r : ConfirmAndRun.Reason.values()) {
                keys.add("core.confirm.reason." + r.name());
            }
            for (int d = 0; d < 7; d++) {
                keys.add("core.schedule.day." + d);
            }
            for (int exit = 0; exit <= 5; exit++) {
                keys.add("core.outcome." + exit);
            }
            for (String answer : List.of("present", "absent", "inconclusive")) {
                keys.addAll(List.of("core.probe." + answer, "core.message.probe." + answer,
                        "core.message.probe." + answer + "Checked"));
            }
            assertThat(keys).as("keys missing in %s", l).allMatch(Text::has);
        }
        Text.use(Text.ENGLISH);
        // the English answers are the engine's words for them, as plan --json has always shown them
        for (ProbeAnswer a : ProbeAnswer.values()) {
            assertThat(Text.t("core.probeAnswer." + a.name())).isEqualTo(a.word());
        }
    }

    @Test
    void otherMessagesStayAsTheyAreOnOneLine() {
        assertThat(Words.message("HTTP 422: {\"error\":\"refused\"}")).isEqualTo("HTTP 422: {\"error\":\"refused\"}");
        assertThat(Words.message("line one\nline two")).doesNotContain("\n");
        assertThat(Words.message(null)).isEmpty();
    }
}
