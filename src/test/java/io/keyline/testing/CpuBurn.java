package io.keyline.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/** Threads that keep CPUs busy beside a crash, race or timing test, until closed. */
public final class CpuBurn implements AutoCloseable {

    private final AtomicBoolean burning = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    /** Written so that the loop is not optimised away. */
    private volatile long sink;

    private CpuBurn() {
    }

    /** Starts {@code threads} daemon threads that spin until {@link #close}. */
    public static CpuBurn start(int threads) {
        CpuBurn b = new CpuBurn();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                long x = 0;
                while (b.burning.get()) {
                    x += System.nanoTime() % 7;
                }
                b.sink = x;
            }, "cpu-burner-" + i);
            t.setDaemon(true);
            t.start();
            b.threads.add(t);
        }
        return b;
    }

    /** How many threads burn. */
    public int threads() {
        return threads.size();
    }

    @Override
    public void close() throws InterruptedException {
        burning.set(false);
        for (Thread t : threads) {
            t.join(5_000);
        }
    }
}
