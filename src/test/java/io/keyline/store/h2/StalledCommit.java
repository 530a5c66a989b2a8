package io.keyline.store.h2;

import io.keyline.core.RunOptions;
import io.keyline.workspace.Workspace;
import org.h2.mvstore.MVStore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A child process for {@code SeenBeforeWrittenTest}: opens the state as the console does (it serves the state to
 * the others) and registers on it while another of its threads holds H2's store lock - what a chunk write that the
 * disk holds up, or a compaction of the file, does to every commit of the process meanwhile. The registration's
 * commit is then visible to other sessions and not yet in the file. Prints {@code store held} once the lock is
 * held and {@code registered} once the registration returned; the lock goes when the file {@code release}
 * appears in the folder given (or after two minutes). Arguments: state dir, jobs dir, folder.
 */
public final class StalledCommit {
    private StalledCommit() {
    }

    public static void main(String[] a) throws Exception {
        H2Lockdown.apply();
        Path release = Path.of(a[2]).resolve("release");
        Workspace ws = new Workspace(Path.of(a[0]), Path.of(a[1]), RunOptions.standard(), System.getenv());
        ws.kind("console");
        MVStore store;
        try (Connection c = ws.database().connection()) {
            store = Compaction.localStore(c);
        }
        CountDownLatch held = new CountDownLatch(1);
        Thread holder = new Thread(() -> store.executeFilestoreOperation(() -> {
            held.countDown();
            long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (!Files.exists(release) && System.nanoTime() < until) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }), "holds-the-store-lock");
        holder.setDaemon(true);
        holder.start();
        held.await();
        System.out.println("store held");
        ws.leases().start();
        System.out.println("registered");
        Thread.sleep(TimeUnit.MINUTES.toMillis(2)); // until killed
    }
}
