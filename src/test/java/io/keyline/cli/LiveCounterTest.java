package io.keyline.cli;

import io.keyline.domain.KeyState;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The live counter of a run on a terminal: its words, and trace lines never mixed into the status line. */
class LiveCounterTest {

    private final ByteArrayOutputStream terminal = new ByteArrayOutputStream();
    /** The redraw clock: each reading is a second after the last, so every change is drawn (no timing). */
    private final java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong();
    private final LiveCounter counter = new LiveCounter(terminal, () -> nanos.addAndGet(1_000_000_000L));

    @Test
    void countsKeysAsTheyEnd() {
        counter.runStarted("a", 1000);
        for (int i = 0; i < 412; i++) {
            counter.keyStarted("a", "k" + i);
            counter.keyEnded("a", "k" + i, KeyState.DONE);
        }
        counter.keyEnded("a", "x1", KeyState.NEEDS_CONFIRMATION);
        counter.keyEnded("a", "x2", KeyState.RETRY_WAIT);
        counter.keyStarted("a", "x3");
        counter.keyEnded("a", "x3", KeyState.NEEDS_CREDENTIAL);
        counter.keyEnded("a", "x4", KeyState.FAILED);
        for (int i = 0; i < 16; i++) {
            counter.keyStarted("a", "r" + i);
        }
        counter.keyEnded("a", "n1", null);

        assertThat(counter.text()).isEqualTo("412/1000 done, 3 waiting, 1 failed, 16 running, 1 not started");
    }

    @Test
    void aTraceLineTakesTheStatusLineAwayAndPutsItBackBelow() {
        counter.runStarted("a", 3);
        PrintStream trace = new PrintStream(counter.lines(), true, StandardCharsets.UTF_8);
        counter.keyStarted("a", "k1");
        trace.println("09:00:01  a k1  put #1  ok (3 ms)");
        counter.keyEnded("a", "k1", KeyState.DONE);
        counter.runEnded("a");

        String shown = terminal.toString(StandardCharsets.UTF_8);
        String clear = "\r\033[K";
        assertThat(shown).contains(clear + "0/3 done, 1 running" + clear + "09:00:01  a k1  put #1  ok (3 ms)\n"
                + clear + "0/3 done, 1 running");
        assertThat(shown).endsWith(clear + "1/3 done" + clear);
        assertThat(shown).doesNotContain("running09:00").doesNotContain("done09:00");
    }

    @Test
    void keysEndingFasterThanTheRedrawIntervalAreDrawnOnceTheIntervalHasPassed() {
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
        LiveCounter still = new LiveCounter(terminal, now::get);
        still.runStarted("a", 3);
        still.keyStarted("a", "k1");
        still.keyEnded("a", "k1", KeyState.DONE);
        assertThat(terminal.toString(StandardCharsets.UTF_8)).as("not redrawn within the interval")
                .isEqualTo("\r\033[K0/3 done");
        now.set(150_000_000L);
        still.keyStarted("a", "k2");
        assertThat(terminal.toString(StandardCharsets.UTF_8)).isEqualTo("\r\033[K0/3 done\r\033[K1/3 done, 1 running");
    }
}
