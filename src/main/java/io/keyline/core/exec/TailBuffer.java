package io.keyline.core.exec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Drains a stream on its own thread and keeps only its last {@code capacity} bytes. */
public final class TailBuffer {
    private final byte[] ring;
    private long total;
    private final Thread reader;

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
            ring[(int) (total++ % ring.length)] = buf[i];
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
}
