package io.keyline.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** A brief reader's output: nothing reaches stdout or stderr before release, then all of it in order. */
class HeldOutputTest {

    @Test
    void nothingLeavesBeforeReleaseThenStdoutAndStderrInTheOrderTheyWerePrinted() {
        ByteArrayOutputStream both = new ByteArrayOutputStream(); // as with 2>&1
        OutputStream stdout = tee(both, "");
        OutputStream stderr = tee(both, "E:");
        HeldOutput held = new HeldOutput();
        PrintStream out = new PrintStream(held.to(stdout), true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(held.to(stderr), true, StandardCharsets.UTF_8);
        out.println("row 1");
        err.println("warning");
        out.println("row 2 ✓");
        out.flush();
        assertThat(both.size()).as("held until release").isZero();

        held.release();
        assertThat(both.toString(StandardCharsets.UTF_8)).isEqualTo("row 1\nE:warning\nrow 2 ✓\n");
        out.println("after");
        assertThat(both.toString(StandardCharsets.UTF_8)).endsWith("row 2 ✓\nafter\n");
        held.release(); // a second release writes nothing again
        assertThat(both.toString(StandardCharsets.UTF_8)).isEqualTo("row 1\nE:warning\nrow 2 ✓\nafter\n");
    }

    /** Writes to {@code sink}, each write prefixed with {@code tag}. */
    private static OutputStream tee(ByteArrayOutputStream sink, String tag) {
        return new OutputStream() {
            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                sink.writeBytes(tag.getBytes(StandardCharsets.UTF_8));
                sink.write(b, off, len);
            }
        };
    }
}
