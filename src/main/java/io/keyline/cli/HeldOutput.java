package io.keyline.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * What a brief reader ({@code status}, {@code jobs}, {@code timeline} in their own process) prints, kept
 * in memory until it has closed the state, then written out. Such a process may hold the state alone
 * while it has it open ({@link io.keyline.store.Database#openToRead}); writing to a pipe nobody reads
 * ({@code keyline status | less}, left on screen) would otherwise keep every other process out of the
 * state for as long as the pipe is full.
 */
final class HeldOutput extends OutputStream {
    private final OutputStream target;
    private ByteArrayOutputStream held = new ByteArrayOutputStream();

    HeldOutput(OutputStream target) {
        this.target = target;
    }

    @Override
    public synchronized void write(int b) throws IOException {
        if (held != null) {
            held.write(b);
        } else {
            target.write(b);
        }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        if (held != null) {
            held.write(b, off, len);
        } else {
            target.write(b, off, len);
        }
    }

    @Override
    public synchronized void flush() throws IOException {
        if (held == null) {
            target.flush();
        }
    }

    /** Writes what was kept and lets everything after it through. */
    synchronized void release() {
        if (held == null) {
            return;
        }
        try {
            held.writeTo(target);
            target.flush();
        } catch (IOException e) {
            // the reader went away (a closed pipe): nothing else to do with the output
        } finally {
            held = null;
        }
    }
}
