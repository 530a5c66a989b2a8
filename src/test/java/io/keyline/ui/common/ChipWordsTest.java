package io.keyline.ui.common;

import io.keyline.domain.KeyState;
import io.keyline.domain.Trigger;
import io.keyline.text.Text;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A state's chip says what the key is, never what to do: an operator reads a chip that says "Confirm" beside a button
 * that says "Confirm…" as a second button. The chips of the states that wait for a person say so as a state, in
 * English and in Chinese, and no chip is the word of an operator's move.
 */
class ChipWordsTest {

    @Test
    void theChipsOfStatesThatWaitForAPersonReadAsStates() {
        assertThat(chips(Text.ENGLISH)).as("English chips: confirmation, review, login")
                .containsExactly("To confirm", "To review", "Needs login");
        // the same words as the states' names (common.state.*): 待 + what is awaited
        assertThat(chips(Text.CHINESE)).as("Chinese chips: confirmation, review, login")
                .containsExactly("待确认", "待审核", "待登录");
    }

    @Test
    void noChipIsTheWordOfAnOperatorsMove() {
        for (Locale language : List.of(Text.ENGLISH, Text.CHINESE)) {
            List<String> moves = new ArrayList<>();
            for (Trigger t : Trigger.values()) {
                String key = "common.move." + t.name();
                if (Text.has(key)) {
                    moves.add(bare(Text.in(language, key)));
                }
            }
            assertThat(moves).as("the moves' words in %s", language).hasSizeGreaterThanOrEqualTo(6);
            List<String> chips = new ArrayList<>();
            for (KeyState s : KeyState.values()) {
                chips.add(Text.in(language, "ui.chip." + s.name()));
            }
            chips.add(Text.in(language, "ui.chip.NEEDS_REVIEW"));
            assertThat(chips).as("chips in %s that say a move's word", language)
                    .filteredOn(c -> moves.contains(bare(c))).isEmpty();
        }
    }

    private static List<String> chips(Locale language) {
        return List.of(Text.in(language, "ui.chip.NEEDS_CONFIRMATION"), Text.in(language, "ui.chip.NEEDS_REVIEW"),
                Text.in(language, "ui.chip.NEEDS_CREDENTIAL"));
    }

    /** A move's word without the "…" that says it asks more, in lower case. */
    private static String bare(String word) {
        return word.replace("…", "").trim().toLowerCase(Locale.ROOT);
    }
}
