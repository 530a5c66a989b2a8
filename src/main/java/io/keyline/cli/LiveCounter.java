package io.keyline.cli;

import io.keyline.core.RunProgress;
import io.keyline.domain.KeyState;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import static io.keyline.text.Text.t;

/**
 * The live counter of a run on a terminal ({@code 412/1000 done, 3 waiting, 16 running}): one status
 * line under the trace, redrawn as keys end. Trace lines go through {@link #lines()}, which takes the
 * status line away before a line and puts it back after it, so the two never mix; the status line
 * is written straight to the terminal (it holds only our own words and numbers).
 */
final class LiveCounter implements RunProgress {

    private static final byte[] CLEAR = "\r\033[K".getBytes(StandardCharsets.US_ASCII);
    /** Redraws at most this often while keys end; a trace line redraws at once. */
    private static final long REDRAW_NANOS = 100_000_000L;

    private final OutputStream terminal;
    private final java.util.function.LongSupplier nanoTime;
    private int runs;
    private int total;
    private int done;
    private int waiting;
    private int failed;
    private int notStarted;
    private final java.util.Set<String> inFlight = new java.util.HashSet<>();
    private boolean shown;
    private boolean atLineStart = true;
    private long lastDraw;

    LiveCounter(OutputStream terminal) {
        this(terminal, System::nanoTime);
    }

    /** With the clock that spaces redraws (tests inject one). */
    LiveCounter(OutputStream terminal, java.util.function.LongSupplier nanoTime) {
        this.terminal = terminal;
        this.nanoTime = nanoTime;
    }

    /** The stream the trace writes to: lines pass through, the status line moves below them. */
    OutputStream lines() {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                synchronized (LiveCounter.this) {
                    for (int i = off; i < off + len; i++) {
                        if (atLineStart) {
                            hide();
                        }
                        terminal.write(b[i]);
                        atLineStart = b[i] == '\n';
                        if (atLineStart) {
                            draw();
                        }
                    }
                }
            }

            @Override
            public void flush() throws IOException {
                terminal.flush();
            }
        };
    }

    @Override
    public synchronized void runStarted(String job, int keys) {
        runs++;
        total += keys;
        drawSoon();
    }

    @Override
    public synchronized void keyStarted(String job, String key) {
        inFlight.add(job + "\n" + key);
        drawSoon();
    }

    @Override
    public synchronized void keyEnded(String job, String key, KeyState state) {
        inFlight.remove(job + "\n" + key);
        if (state == null) {
            notStarted++;
        } else {
            switch (state) {
                case DONE, SKIPPED -> done++;
                case FAILED -> failed++;
                default -> waiting++;
            }
        }
        drawSoon();
    }

    @Override
    public synchronized void runEnded(String job) {
        runs--;
        if (runs == 0) {
            try {
                hide();
                terminal.flush();
            } catch (IOException ignored) {
                // the terminal went away: nothing to show
            }
        }
    }

    /** The status line's text. */
    synchronized String text() {
        StringBuilder sb = new StringBuilder(t("cli.live.done", done, total));
        String comma = t("common.listSeparator");
        if (waiting > 0) {
            sb.append(comma).append(t("cli.live.waiting", waiting));
        }
        if (failed > 0) {
            sb.append(comma).append(t("cli.live.failed", failed));
        }
        if (!inFlight.isEmpty()) {
            sb.append(comma).append(t("cli.live.running", inFlight.size()));
        }
        if (notStarted > 0) {
            sb.append(comma).append(t("cli.live.notStarted", notStarted));
        }
        return sb.toString();
    }

    private void drawSoon() {
        long now = nanoTime.getAsLong();
        if (atLineStart && (!shown || now - lastDraw >= REDRAW_NANOS)) {
            try {
                draw();
            } catch (IOException ignored) {
                // the terminal went away: the run goes on
            }
        }
    }

    private void draw() throws IOException {
        if (runs == 0) {
            return;
        }
        terminal.write(CLEAR);
        terminal.write(text().getBytes(StandardCharsets.UTF_8));
        terminal.flush();
        shown = true;
        lastDraw = nanoTime.getAsLong();
    }

    private void hide() throws IOException {
        if (shown) {
            terminal.write(CLEAR);
            shown = false;
        }
    }
}
