package io.keyline.store.h2;

import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds commits that H2's quick recovery would skip after a killed process, before H2 opens the file.
 *
 * <p>Why: an MVStore file records where its newest chunk is in a store header that it rewrites only
 * now and then; after an unclean shutdown H2 follows that header and then each chunk's prediction of
 * where the next one goes. When a chunk lands elsewhere (space of old chunks is reused), H2 2.5
 * rewrites the header before it records the new chunk as the last one ({@code FileStore.storeBuffer}
 * calls {@code writeChunk} - which may write the header from {@code lastChunk} - before
 * {@code lastChunk = c}), so the header still names the chunk before it. Until the header is written
 * again (about 20 commits later) nothing on disk leads to the newer chunks, and a process killed in
 * that window leaves commits that were written (WRITE_DELAY=0: handed to the OS) but that the next
 * open does not find: it goes back to the older version and writes over them. Under load, with short
 * runs killed mid-way, whole runs' commits vanished that way, and an unsafe POST was sent again.
 *
 * <p>The fix: when the file was not closed cleanly, compare H2's quick recovery with a full scan
 * (MVStore's recovery mode, which reads every block); when the scan finds a newer complete version,
 * open the file once in recovery mode and close it, which writes a header that names that version.
 * Only when no other process holds the file (then it is theirs, and they serve it to us).
 */
final class Recovery {

    private Recovery() {
    }

    /**
     * Repairs {@code file} when it was not closed cleanly and a full scan finds a newer complete version
     * than H2's quick recovery. The caller holds the state's open lock.
     *
     * @return true when the file was repaired
     */
    static boolean repairIfUnclean(Path file) {
        if (!Files.isRegularFile(file) || closedCleanly(file)) {
            return false;
        }
        String name = file.toString();
        long quick;
        long full;
        try {
            try (MVStore s = new MVStore.Builder().fileName(name).readOnly().open()) {
                quick = s.getCurrentVersion();
            }
            try (MVStore s = new MVStore.Builder().fileName(name).readOnly().recoveryMode().open()) {
                full = s.getCurrentVersion();
            }
            if (full <= quick) {
                return false;
            }
            // open once in recovery mode and close it: the header then names the newest complete version
            MVStore s = new MVStore.Builder().fileName(name).recoveryMode().autoCommitDisabled().open();
            s.close(0);
            return true;
        } catch (MVStoreException | IllegalStateException e) {
            // locked by a live process (it serves the state), or unreadable: H2's own open says why
            return false;
        }
    }

    /** Whether the store header says the file was closed cleanly (H2 then trusts it as it is). */
    static boolean closedCleanly(Path file) {
        byte[] head = new byte[4096];
        try (InputStream in = Files.newInputStream(file)) {
            int n = in.readNBytes(head, 0, head.length);
            String text = new String(head, 0, Math.max(0, n), StandardCharsets.ISO_8859_1);
            int end = text.indexOf('\n');
            String header = end < 0 ? text : text.substring(0, end);
            return header.contains(",clean:1") || header.startsWith("clean:1");
        } catch (IOException e) {
            return false;
        }
    }
}
