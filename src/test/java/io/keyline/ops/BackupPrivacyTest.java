package io.keyline.ops;

import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code keyline backup FILE} into a folder other users can enter: while the backup is written, a
 * watcher looks at every file that appears there, again and again; none may be readable by another
 * user at any moment (its own mode, and every folder on the way from the target folder to it).
 */
class BackupPrivacyTest {

    @TempDir
    Path tmp;

    @Test
    void aBackupInProgressIsNeverReadableByOthers() throws Exception {
        Workbench wb = new Workbench(tmp.resolve("work"));
        wb.job("noop", """
                { "name": "noop", "key": { "type": "manual" },
                  "steps": [ { "id": "a", "kind": "command", "effect": "none", "command": ["true"] } ] }
                """, null);
        Result run = wb.cli("run", "noop", "--key", "k1");
        assertThat(run.exit()).as(run.toString()).isZero();
        // some megabytes of incompressible rows: the backup takes long enough to be watched
        try (var db = io.keyline.store.h2.H2Database.open(wb.state); Connection c = db.adminConnection();
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE ballast AS SELECT \"X\" AS id, SECURE_RAND(2000) AS b FROM SYSTEM_RANGE(1, 15000)");
        }
        Path shared = tmp.resolve("shared");
        Files.createDirectories(shared);
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path target = shared.resolve("keyline-backup.zip");

        Set<String> exposed = ConcurrentHashMap.newKeySet();
        AtomicInteger seen = new AtomicInteger();
        AtomicBoolean done = new AtomicBoolean();
        Thread watcher = new Thread(() -> {
            while (!done.get()) {
                try (Stream<Path> walk = Files.walk(shared)) {
                    for (Path p : walk.toList()) {
                        if (!p.equals(shared) && readableByOthers(shared, p)) {
                            exposed.add(shared.relativize(p) + " " + PosixFilePermissions.toString(
                                    Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS)));
                        }
                        seen.incrementAndGet();
                    }
                } catch (NoSuchFileException | java.io.UncheckedIOException gone) {
                    // a file that was moved or removed while looking
                } catch (IOException e) {
                    exposed.add("watcher failed: " + e);
                }
            }
        }, "backup-watcher");
        watcher.start();
        Result backup;
        try {
            backup = wb.cli("backup", target.toString());
        } finally {
            done.set(true);
            watcher.join(10_000);
        }
        assertThat(backup.exit()).as(backup.toString()).isZero();
        assertThat(seen.get()).as("the watcher looked").isPositive();
        assertThat(Files.getPosixFilePermissions(target)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(exposed).as("files others could read while the backup was written").isEmpty();
        try (Stream<Path> left = Files.list(shared)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("nothing left behind").containsExactly("keyline-backup.zip");
        }
    }

    /** Whether another user could read {@code p}: read by group or others, and every folder below {@code top} enterable. */
    static boolean readableByOthers(Path top, Path p) throws IOException {
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
        if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        boolean readable = mode.contains(PosixFilePermission.OTHERS_READ) || mode.contains(PosixFilePermission.GROUP_READ);
        for (Path dir = p.getParent(); readable && !dir.equals(top); dir = dir.getParent()) {
            Set<PosixFilePermission> d = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
            readable = d.contains(PosixFilePermission.OTHERS_EXECUTE) || d.contains(PosixFilePermission.GROUP_EXECUTE);
        }
        return readable;
    }
}
