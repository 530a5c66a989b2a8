package io.keyline.domain;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PrintableTest {

    @Test
    void escapesWhatATerminalWouldActOn() {
        assertThat(Printable.text("a\u001b[31mb")).isEqualTo("a\\e[31mb");
        assertThat(Printable.text("title\u001b]0;x\u0007")).isEqualTo("title\\e]0;x\\x07");
        assertThat(Printable.text("c1 \u009b31m del \u007f nul \u0000 cr \r")).isEqualTo("c1 \\x9b31m del \\x7f nul \\x00 cr \\r");
        assertThat(Printable.text("bidi \u202eabc\u202c \u2066x\u2069 \u200f \u061c")).isEqualTo(
                "bidi \\u202eabc\\u202c \\u2066x\\u2069 \\u200f \\u061c");
        assertThat(Printable.text("sep \u2028 \u2029")).isEqualTo("sep \\u2028 \\u2029");
        assertThat(Printable.text("lone \ud800 surrogate")).isEqualTo("lone \\ud800 surrogate");
    }

    @Test
    void keepsLinesInTextAndEscapesThemInALine() {
        assertThat(Printable.text("one\n\ttwo")).isEqualTo("one\n\ttwo");
        assertThat(Printable.line("one\n\ttwo\r")).isEqualTo("one\\n\\ttwo\\r");
    }

    @Test
    void leavesOrdinaryTextAloneAndIsTheSameObjectThen() {
        String s = "Grüße, 日本語, emoji \ud83d\ude00, a\\eb, tab-free";
        assertThat(Printable.text(s)).isSameAs(s);
        assertThat(Printable.line(s)).isSameAs(s);
        assertThat(Printable.text(null)).isNull();
        assertThat(Printable.hasControl(s)).isFalse();
        assertThat(Printable.hasControl("x\u001b")).isTrue();
        assertThat(Printable.hasControl("x\ny")).isFalse();
        assertThat(Printable.hasAnyControl("x\ny")).isTrue();
    }
}
