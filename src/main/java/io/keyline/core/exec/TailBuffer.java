package io.keyline.core.exec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Drains a stream on its own thread and keeps only its last {@code capacity} bytes, and the first bytes of its last
 * line that is not blank: a line longer than what is kept loses its start, which says what the line is.
 */
public final class TailBuffer {
    /** How much of a line's start is kept beside the tail. */
    static final int HEAD = 256;
    private final byte[] ring;
    private long total;
    private final Thread reader;
    /** The line being read: where it starts, its first bytes, whether it has more than white space. */
    private long lineStart;
    private final java.io.ByteArrayOutputStream lineHead = new java.io.ByteArrayOutputStream();
    private boolean lineBlank = true;
    /** The last line read whole that was not blank: where it started, its first bytes. */
    private long lastStart = -1;
    private byte[] lastHead = new byte[0];

    public TailBuffer(InputStream in, int capacity, String name) {
        this.ring = new byte[capacity];
        this.reader = new Thread(() -> drain(in), name);
        reader.setDaemon(true);
        reader.start();
    }

    private void drain(InputStream in) {
        byte[] buf = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buf)) > 0) {
                append(buf, n);
            }
        } catch (IOException ignored) {
            // the process went away; what we have is what there is
        }
    }

    private synchronized void append(byte[] buf, int n) {
        for (int i = 0; i < n; i++) {
            byte b = buf[i];
            ring[(int) (total++ % ring.length)] = b;
            if (b == '\n') {
                if (!lineBlank) {
                    lastStart = lineStart;
                    lastHead = lineHead.toByteArray();
                }
                lineStart = total;
                lineHead.reset();
                lineBlank = true;
            } else {
                if (lineHead.size() < HEAD) {
                    lineHead.write(b);
                }
                lineBlank &= b == ' ' || b == '\t' || b == '\r';
            }
        }
    }

    /** Waits (bounded) for the stream to end; a grandchild holding the pipe must not hang us. */
    public void finish(long millis) throws InterruptedException {
        reader.join(millis);
    }

    public synchronized String text() {
        int len = (int) Math.min(total, ring.length);
        byte[] out = new byte[len];
        long start = total - len;
        for (int i = 0; i < len; i++) {
            out[i] = ring[(int) ((start + i) % ring.length)];
        }
        String s = new String(out, StandardCharsets.UTF_8);
        return total > ring.length ? "…" + s : s;
    }

    /**
     * The first bytes ({@value #HEAD} at most) of the last line that is not blank, when that line began before what
     * is kept, so that {@link #text()} holds only its end; {@code null} when the last line is kept whole.
     */
    public synchronized String cutLastLineHead() {
        long start = lineBlank ? lastStart : lineStart;
        if (start < 0 || start >= total - ring.length) {
            return null;
        }
        return new String(lineBlank ? lastHead : lineHead.toByteArray(), StandardCharsets.UTF_8);
    }
}
