package io.keyline.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What a brief reader ({@code status}, {@code jobs}, {@code timeline} in their own process) prints to
 * stdout and stderr, kept in memory in the order it was printed until the process has closed the state,
 * then written out. Such a process may hold the state alone while it has it open
 * ({@link io.keyline.store.Database#openToRead}); writing to a pipe nobody reads ({@code keyline status |
 * less}, left on screen) would otherwise keep every other process out of the state for as long as the
 * pipe is full.
 */
final class HeldOutput {
    /** What was printed, in order: runs of bytes for one stream each. */
    private final List<Run> runs = new ArrayList<>();
    private boolean released;

    private record Run(OutputStream target, ByteArrayOutputStream bytes) {
    }

    /** A stream that goes to {@code target} through this hold. */
    OutputStream to(OutputStream target) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                synchronized (HeldOutput.this) {
                    if (released) {
                        target.write(b, off, len);
                        return;
                    }
                    Run last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
                    if (last == null || last.target() != target) {
                        last = new Run(target, new ByteArrayOutputStream());
                        runs.add(last);
                    }
                    last.bytes().write(b, off, len);
                }
            }

            @Override
            public void flush() throws IOException {
                synchronized (HeldOutput.this) {
                    if (released) {
                        target.flush();
                    }
                }
            }
        };
    }

    /** Writes what was kept, in the order it was printed, and lets everything after it through. */
    synchronized void release() {
        if (released) {
            return;
        }
        released = true;
        try {
            for (Run r : runs) {
                r.bytes().writeTo(r.target());
                r.target().flush(); // stderr and stdout interleave as printed when both go to one place
            }
        } catch (IOException e) {
            // the reader went away (a closed pipe): nothing else to do with the output
        } finally {
            runs.clear();
        }
    }
}
