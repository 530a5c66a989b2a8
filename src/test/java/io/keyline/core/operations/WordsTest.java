package io.keyline.core.operations;

import org.junit.jupiter.api.Test;

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

    @Test
    void otherMessagesStayAsTheyAreOnOneLine() {
        assertThat(Words.message("HTTP 422: {\"error\":\"refused\"}")).isEqualTo("HTTP 422: {\"error\":\"refused\"}");
        assertThat(Words.message("line one\nline two")).doesNotContain("\n");
        assertThat(Words.message(null)).isEmpty();
    }
}
