package io.keyline.ops;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyline.acceptance.Jobs;
import io.keyline.workspace.Workspace;
import io.keyline.core.json.Json;
import io.keyline.testing.SiteTestBase;
import io.keyline.testing.TestSite.Fault;
import io.keyline.testing.Workbench.Result;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Backup (online, restorable), export (keys and events, never a secret), prune (what it keeps). */
class BackupExportPruneTest extends SiteTestBase {

    static final String SECRET = "sid=Sup3rS3cretSessionValue0042";

    void ok(Result r, int... exits) {
        assertThat(r.exit()).as(r.toString()).isIn(exits.length == 0 ? new Object[] {0} : java.util.Arrays.stream(exits)
                .boxed().toArray());
    }

    /** Keys DONE, FAILED and NEEDS_CREDENTIAL, and a stored credential. */
    void someHistory() throws IOException {
        wb.job("pub", Jobs.publish("pub", "unsafe", false, "\"credential\": \"site-cookie\","), site.base());
        site.requireCookie(SECRET);
        ok(wb.cliWithInput("Cookie: " + SECRET + "\n", "credentials", "set", "site-cookie", "--domain", "127.0.0.1"));
        site.failPosts(Fault.STATUS_404);
        ok(wb.cli("run", "--yes", "pub", "--from", "2026-11-26", "--to", "2026-11-28"), 3);
        site.requireCookie("sid=another");
        ok(wb.cli("run", "pub", "--key", "2026-11-29"), 4);
    }

    static void unzip(Path zip, Path dir) throws IOException {
        Files.createDirectories(dir);
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                Path to = dir.resolve(e.getName()).normalize();
                assertThat(to.startsWith(dir)).isTrue();
                Files.copy(in, to);
            }
        }
    }

    @Test
    void backupWhileInUseRestoresToTheSameStatus() throws IOException {
        someHistory();
        Result before = wb.cli("status", "--json");
        ok(before);
        Path zip = tmp.resolve("backups/keyline.zip");
        Files.createDirectories(zip.getParent());
        // another process keeps the state open (as the console does) while the backup is made
        try (Workspace console = new Workspace(wb.state, wb.jobs, wb.options(), wb.env())) {
            console.store().keys("pub");
            Result b = wb.cli("backup", zip.toString());
            ok(b);
            assertThat(b.out()).contains("written to " + zip);
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(zip))).isEqualTo("rw-------");
        // the entries as they unpack: H2 compresses the database file, so the zip's own bytes hold no text
        Map<String, String> entries = new LinkedHashMap<>();
        try (ZipFile in = new ZipFile(zip.toFile())) {
            for (ZipEntry e : Collections.list(in.entries())) {
                try (InputStream content = in.getInputStream(e)) {
                    entries.put(e.getName(), new String(content.readAllBytes(), StandardCharsets.ISO_8859_1));
                }
            }
        }
        assertThat(entries.keySet()).containsExactly("keyline.mv.db", "database.secret");
        assertThat(entries.get("keyline.mv.db")).as("the database's text can be read").contains("2026-11-26");
        List<String> leaks = new ArrayList<>();
        entries.forEach((name, text) -> {
            for (String secret : List.of(SECRET, SECRET.substring("sid=".length()))) {
                if (text.contains(secret)) {
                    leaks.add(name + " holds " + secret);
                }
            }
        });
        assertThat(leaks).isEmpty();

        // restore as docs/operations.md says: unzip into an empty state folder, next to the master key
        io.keyline.testing.Workbench other = new io.keyline.testing.Workbench(tmp.resolve("restored"));
        Path restored = other.state;
        unzip(zip, restored);
        Files.copy(wb.state.resolve("secret.key"), restored.resolve("secret.key"));
        // chmod 600 restored/*, as docs/operations.md says
        try (var files = Files.list(restored)) {
            for (Path f : files.toList()) {
                Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
            }
        }
        Files.copy(wb.jobs.resolve("pub.json"), other.jobs.resolve("pub.json"));
        Result after = other.cli("status", "--json");
        ok(after);
        assertThat(after.out()).isEqualTo(before.out());
        assertThat(Json.read(after.out(), JsonNode.class)).hasSize(4);
        // the restored state works: its credential decrypts, timelines are there
        Result list = other.cli("credentials", "list");
        ok(list);
        assertThat(list.out()).contains("site-cookie");
        Result tl = other.cli("timeline", "pub", "2026-11-26", "--json");
        assertThat(tl.out()).isEqualTo(wb.cli("timeline", "pub", "2026-11-26", "--json").out());
    }

    /** A nightly backup into a folder nobody made yet (the first night): the folder is made, private, as the state's. */
    @Test
    void backupIntoAMissingFolderMakesItPrivateAndWritesTheBackup() throws IOException {
        Path folder = tmp.resolve("backups");
        Path zip = folder.resolve("keyline.zip");
        Result r = wb.cli("backup", zip.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("written to " + zip);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(zip))).isEqualTo("rw-------");
        try (ZipFile in = new ZipFile(zip.toFile())) {
            assertThat(Collections.list(in.entries())).extracting(ZipEntry::getName).contains("keyline.mv.db");
        }
        try (var left = Files.list(folder)) {
            assertThat(left).as("no private work folder is left").containsExactly(zip);
        }
    }

    /** A target written as a folder ("backups/") is a folder, existing or not: no file named "backups" is written. */
    @Test
    void backupToATargetWrittenAsAFolderAsksForAFileName() throws IOException {
        Path folder = tmp.resolve("backups");
        Result r = wb.cli("backup", folder + "/");
        assertThat(r.exit()).as(r.toString()).isEqualTo(64);
        assertThat(r.err()).contains(folder + " is a folder", "keyline-backup.zip");
        assertThat(folder).as("nothing was written at " + folder).doesNotExist();
    }

    /**
     * A folder whose own parent is missing too (a backup disk that is not mounted, a typo) is not made: nothing is
     * written in a place the operator did not name, and the message names the folder. The command line was fine.
     */
    @Test
    void backupWhoseFolderCannotBeMadeSaysWhichFolderAndExits1() throws IOException {
        Path deep = tmp.resolve("mnt/usb/backups");
        Result r = wb.cli("backup", deep.resolve("b.zip").toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains(deep.toString(), "does not exist");
        assertThat(tmp.resolve("mnt")).doesNotExist();

        Path file = Files.writeString(tmp.resolve("notes.txt"), "not a folder");
        Result underAFile = wb.cli("backup", file.resolve("backups/b.zip").toString());
        assertThat(underAFile.exit()).as(underAFile.toString()).isEqualTo(1);
        assertThat(underAFile.err()).contains(file.resolve("backups").toString());
    }

    @Test
    void exportHasKeysAndEventsAndNoSecret() throws IOException {
        someHistory();
        Result r = wb.cli("export", "--json");
        ok(r);
        JsonNode doc = Json.read(r.out(), JsonNode.class);
        assertThat(doc.get("keys")).hasSize(4);
        assertThat(doc.get("keys").get(0).get("job").asText()).isEqualTo("pub");
        assertThat(doc.get("events").size()).isGreaterThan(8);
        JsonNode failed = null;
        for (JsonNode e : doc.get("events")) {
            if ("KEY_FAILED".equals(e.get("type").asText())) {
                failed = e;
            }
        }
        assertThat(failed).isNotNull();
        assertThat(failed.get("evidence").get("status").asInt()).isEqualTo(404);
        assertThat(r.out()).doesNotContain(SECRET).doesNotContain("Sup3rS3cret");
        assertThat(wb.cli("export", "pub", "--json").out()).contains("\"job\" : \"pub\"");
        assertThat(wb.cli("export", "nope").exit()).isEqualTo(64);
    }

    @Test
    void pruneKeepsLatestRunsAndAttentionEvidence() throws IOException {
        wb.job("pub", Jobs.publish("pub", "unsafe", false, null), site.base());
        site.failPosts(Fault.STATUS_404, Fault.STATUS_404);
        ok(wb.cli("run", "pub", "--key", "2026-11-20"), 2);      // FAILED, stays FAILED: evidence kept
        ok(wb.cli("run", "pub", "--key", "2026-11-21"), 2);      // FAILED, then retried and done: first run pruned
        ok(wb.cli("retry", "pub", "2026-11-21"));
        wb.clock.advance(Duration.ofDays(1));
        ok(wb.cli("run", "pub", "--key", "2026-11-21"));
        ok(wb.cli("run", "pub", "--key", "2026-11-22"));          // DONE in one run: all kept
        List<String> failedBefore = types("2026-11-20");
        List<String> doneBefore = types("2026-11-22");
        wb.clock.advance(Duration.ofDays(100));

        Result dry = wb.cli("prune", "--events-older-than", "P90D", "--dry-run");
        ok(dry);
        // the first run and the operator's retry, but the event of a step done (it names the next redo's key)
        List<String> firstRun = types("2026-11-21").subList(0, types("2026-11-21").lastIndexOf("CLAIMED"));
        assertThat(firstRun).containsOnlyOnce("STEP_SUCCEEDED");
        int expected = firstRun.size() - 1;
        assertThat(expected).isPositive();
        assertThat(dry.out()).contains("would delete " + expected + " events");
        assertThat(types("2026-11-21").get(0)).isEqualTo("CLAIMED");

        Result p = wb.cli("prune", "--events-older-than", "P90D");
        ok(p);
        assertThat(p.out()).contains("deleted " + expected + " events");
        assertThat(types("2026-11-20")).isEqualTo(failedBefore);
        assertThat(types("2026-11-22")).isEqualTo(doneBefore);
        List<String> retried = types("2026-11-21");
        assertThat(retried).startsWith("STEP_SUCCEEDED", "CLAIMED");
        assertThat(retried).doesNotContain("KEY_FAILED", "RETRIED").endsWith("KEY_DONE");
        assertThat(wb.cli("prune", "--events-older-than", "P90D").out()).contains("deleted 0 events");
        assertThat(wb.cli("prune", "--events-older-than", "PT1H").exit()).isEqualTo(64);
    }

    @Test
    void pruneDeletesPlansOlderThanTheCutoffAndKeepsTheNewerOnesApplicable() throws IOException {
        wb.job("pub", Jobs.publish("pub", "unsafe", false, null), site.base());
        String old = planId(wb.cli("plan", "pub", "--key", "2026-11-20"));
        wb.clock.advance(Duration.ofDays(100));
        String fresh = planId(wb.cli("plan", "pub", "--key", "2026-11-21"));

        Result dry = wb.cli("prune", "--events-older-than", "P90D", "--dry-run");
        ok(dry);
        assertThat(dry.out()).contains("would delete 0 events and 1 plan older than");

        Result p = wb.cli("prune", "--events-older-than", "P90D");
        ok(p);
        assertThat(p.out()).contains("deleted 0 events and 1 plan older than");
        Result gone = wb.cli("apply", old);
        assertThat(gone.exit()).as(gone.toString()).isEqualTo(1);
        assertThat(gone.err()).contains("no plan " + old);
        Result applied = wb.cli("apply", fresh);
        assertThat(applied.exit()).as(applied.toString()).isZero();
        assertThat(site.posts()).isEqualTo(1L);
        assertThat(wb.cli("prune", "--events-older-than", "P90D").out()).contains("deleted 0 events and 0 plans");
    }

    static String planId(Result plan) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Plan ([0-9a-f]{16}) ").matcher(plan.out());
        assertThat(m.find()).as(plan.toString()).isTrue();
        return m.group(1);
    }

    List<String> types(String key) {
        Result r = wb.cli("timeline", "pub", key, "--json");
        List<String> out = new ArrayList<>();
        Json.read(r.out(), JsonNode.class).forEach(e -> out.add(e.get("type").asText()));
        return out;
    }
}
