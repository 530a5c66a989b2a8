package io.keyline.cli;

import io.keyline.acceptance.ChildProcess;
import io.keyline.store.h2.H2Database;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import io.keyline.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * When the store fails, the command line says so in the operator's language: a state locked for longer than the run
 * may wait, a backup to a place that cannot be written or a folder that does not exist, an export, a prune, a list of
 * credentials and a run whose tables cannot be read. The database's own words and the paths stay as they are; the
 * English is that of before. A real H2 file in a temp folder, the real command line (in-process, and as child
 * processes for the lock, which a process cannot wait for against itself).
 */
class StoreFailuresInChineseTest {

    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
        children.forEach(Process::destroyForcibly);
    }

    @Test
    void aStateLockedTooLongIsSaidInChinese(@TempDir Path tmp) throws Exception {
        Path state = tmp.resolve("state");
        Path jobs = Files.createDirectories(tmp.resolve("jobs"));
        Files.writeString(jobs.resolve("quick.json"), """
            { "name": "quick", "key": { "type": "manual" },
              "steps": [ { "id": "a", "kind": "command", "effect": "none", "command": ["true"] } ] }
            """);
        H2Database.open(state).close();
        long me = ProcessHandle.current().pid();
        Path zhLog = tmp.resolve("zh.log");
        Path enLog = tmp.resolve("en.log");
        H2Database reader = H2Database.openToRead(state); // holds the open lock until it closes
        try {
            Process zh = ChildProcess.start(state.toString(), jobs, zhLog, env("zh-CN"), "run", "quick", "--key", "k1");
            children.add(zh);
            Process en = ChildProcess.start(state.toString(), jobs, enLog, env("en"), "run", "quick", "--key", "k1");
            children.add(en);
            assertThat(zh.waitFor(90, TimeUnit.SECONDS)).as("the run gives up").isTrue();
            assertThat(en.waitFor(90, TimeUnit.SECONDS)).as("the run gives up").isTrue();
            String zhOut = Files.readString(zhLog, StandardCharsets.UTF_8);
            String enOut = Files.readString(enLog, StandardCharsets.UTF_8);
            assertThat(zh.exitValue()).as(zhOut).isEqualTo(1);
            assertThat(en.exitValue()).as(enOut).isEqualTo(1);
            assertThat(zhOut).contains("keyline: " + state.toAbsolutePath() + " 中的状态被 进程 " + me + "（keyline，")
                    .contains(" 锁定了 2 秒：什么都没有做（keyline.state.openWait=PT2S）。")
                    .doesNotContain("stayed locked", "nothing was done", "process " + me, "Exception");
            assertThat(enOut).contains("keyline: the state in " + state.toAbsolutePath() + " stayed locked for 2 s by "
                    + "process " + me + " (keyline, since ").contains("): nothing was done "
                    + "(keyline.state.openWait=PT2S).").doesNotContain("Exception");
        } finally {
            reader.close();
        }
    }

    /** The environment of a child {@code keyline} in {@code lang} that waits 2 s for the state, with UTF-8 output. */
    private static Map<String, String> env(String lang) {
        return Map.of("KEYLINE_LANG", lang, "LANG", "C.UTF-8", "JAVA_TOOL_OPTIONS",
                "-Dkeyline.state.openWait=PT2S -Dsun.stdout.encoding=UTF-8 -Dsun.stderr.encoding=UTF-8");
    }

    @Test
    void aBackupThatCannotBeWrittenIsSaidInChinese(@TempDir Path tmp) throws Exception {
        // a folder nobody can create files in, whoever runs the test (root too)
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "Linux's /proc");
        Workbench wb = new Workbench(tmp);
        assertThat(wb.cli("status").exit()).isZero();
        Path nowhere = tmp.resolve("nowhere");
        Text.use(Text.CHINESE);
        Result unwritable = wb.cli("backup", "/proc/keyline-backup.zip");
        assertThat(unwritable.exit()).as(unwritable.toString()).isEqualTo(1);
        assertThat(unwritable.err()).contains("keyline: 备份到 /proc/keyline-backup.zip 失败：无法在 /proc 中创建私有文件夹：")
                .doesNotContain("failed", "cannot create");
        Result missing = wb.cli("backup", nowhere.resolve("backups/b.zip").toString());
        assertThat(missing.exit()).as(missing.toString()).isEqualTo(1);
        assertThat(missing.err()).contains("备份：文件夹 " + nowhere.resolve("backups") + " 不存在，用来创建它的 "
                + nowhere + " 也不存在").doesNotContain("does not exist");
        Result folder = wb.cli("backup", tmp.toString());
        assertThat(folder.exit()).as(folder.toString()).isEqualTo(64);
        assertThat(folder.err()).contains("备份：" + tmp + " 是一个文件夹；请给一个文件名，例如 keyline-backup.zip");

        Text.use(Text.ENGLISH);
        assertThat(wb.cli("backup", "/proc/keyline-backup.zip").err())
                .contains("keyline: backup to /proc/keyline-backup.zip failed: cannot create a private folder in /proc: ");
        assertThat(wb.cli("backup", nowhere.resolve("backups/b.zip").toString()).err())
                .contains("keyline: backup: folder " + nowhere.resolve("backups") + " does not exist, and neither does "
                        + nowhere + " to make it in");
        assertThat(wb.cli("backup", tmp.toString()).err())
                .contains("keyline: backup: " + tmp + " is a folder; give a file name like keyline-backup.zip");
    }

    @Test
    void anExportAPruneAndAListOfCredentialsThatFailAreSaidInChinese(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        assertThat(wb.cli("status").exit()).isZero();
        // the state's own tables, changed behind its back: the reads of the events and the credentials fail
        try (H2Database db = H2Database.open(wb.state); Connection c = db.adminConnection();
             Statement st = c.createStatement()) {
            st.execute("ALTER TABLE key_event DROP COLUMN evidence");
            st.execute("ALTER TABLE credential DROP COLUMN login_url");
        }
        Text.use(Text.CHINESE);
        Result export = wb.cli("export");
        assertThat(export.exit()).as(export.toString()).isEqualTo(1);
        assertThat(export.err()).as("the database's own words stay as they are").contains("keyline: 导出失败：")
                .containsIgnoringCase("evidence").doesNotContain("export failed");
        Result list = wb.cli("credentials", "list");
        assertThat(list.exit()).as(list.toString()).isEqualTo(1);
        assertThat(list.err()).contains("keyline: 无法列出凭据：").containsIgnoringCase("login_url")
                .doesNotContain("cannot list");

        Text.use(Text.ENGLISH);
        assertThat(wb.cli("export").err()).containsPattern("keyline: export failed: .*(?i)evidence");
        assertThat(wb.cli("credentials", "list").err()).containsPattern("keyline: cannot list credentials: .*(?i)login_url");
    }

    @Test
    void aPostgreSQLServerThatCannotBeReachedIsSaidInChinese(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.stateArg = "postgresql://127.0.0.1:1/keyline?user=kl&connectTimeout=2";
        wb.env().put("XDG_STATE_HOME", tmp.resolve("xdg").toString());
        Text.use(Text.CHINESE);
        Result zh = wb.cli("status");
        assertThat(zh.exit()).as(zh.toString()).isEqualTo(1);
        assertThat(zh.err()).contains("keyline: 连不上 127.0.0.1:1 上的 PostgreSQL（")
                .contains("）：服务器在运行吗？它接受来自这台机器的连接吗？").doesNotContain("cannot reach");
        Text.use(Text.ENGLISH);
        assertThat(wb.cli("status").err()).contains("keyline: cannot reach PostgreSQL at 127.0.0.1:1 (")
                .contains("): is the server running, and does it accept connections from this machine?");
    }

    @Test
    void aStateValueKeylineCannotUseIsSaidInChinese(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        String known = "(known: user, password, ApplicationName, connectTimeout, sslcert, sslkey, sslmode, sslrootcert)";
        // each value, what the command line says of it in English (as before) and in Chinese
        Map<String, String[]> said = new java.util.LinkedHashMap<>();
        said.put("jdbc:postgresql://h/d", new String[] {
                "keyline: --state jdbc:postgresql://h/d: give the database as postgresql://HOST[:PORT]/DB, not as a "
                        + "JDBC URL",
                "keyline: --state jdbc:postgresql://h/d：请把数据库写成 postgresql://HOST[:PORT]/DB，不要写成 JDBC URL"});
        said.put("mysql://h/d", new String[] {
                "keyline: --state mysql://h/d: unknown kind of state; a folder, or postgresql://HOST[:PORT]/DB for a "
                        + "shared database",
                "keyline: --state mysql://h/d：不认识的状态类型；应是一个文件夹，或者共享数据库 postgresql://HOST[:PORT]/DB"});
        said.put("postgresql://kl:hunter2@h/d?colour=red", new String[] {
                "keyline: --state postgresql://***@h/d?colour=red: unknown setting after password= (a \"&\" in a "
                        + "password must be written %26) in the URL " + known,
                "keyline: --state postgresql://***@h/d?colour=red：URL 中 password= 之后有不认识的设置（密码中的 \"&\" "
                        + "必须写成 %26）（已知：user, password, ApplicationName, connectTimeout, sslcert, sslkey, sslmode, "
                        + "sslrootcert）"});
        said.put("postgresql://h/d?col%1Bour=x", new String[] {
                "keyline: --state postgresql://h/d?col%1Bour=x: unknown setting \"col\\eour\" in the URL " + known,
                "keyline: --state postgresql://h/d?col%1Bour=x：URL 中有不认识的设置 \"col\\eour\"（已知：user, password, "
                        + "ApplicationName, connectTimeout, sslcert, sslkey, sslmode, sslrootcert）"});
        said.put("postgresql:///d", new String[] {
                "keyline: --state postgresql:///d: the URL names no host (postgresql://HOST[:PORT]/DB)",
                "keyline: --state postgresql:///d：URL 没有指明主机（postgresql://HOST[:PORT]/DB）"});
        said.put("postgresql://h/a/b", new String[] {
                "keyline: --state postgresql://h/a/b: the URL must name one database after the host "
                        + "(postgresql://HOST[:PORT]/DB)",
                "keyline: --state postgresql://h/a/b：URL 必须在主机之后指明一个数据库（postgresql://HOST[:PORT]/DB）"});
        said.put("postgresql://h/d#x", new String[] {
                "keyline: --state postgresql://h/d#***: a PostgreSQL URL has no #… part (a \"#\" in a password must "
                        + "be written %23)",
                "keyline: --state postgresql://h/d#***：PostgreSQL URL 没有 #… 部分（密码中的 \"#\" 必须写成 %23）"});
        said.put("postgresql://h d/x", new String[] {
                "keyline: --state postgresql://h d/x is not a valid URL: Illegal character in authority at index 13",
                "keyline: --state postgresql://h d/x 不是有效的 URL：Illegal character in authority（位置 13）"});
        for (Map.Entry<String, String[]> e : said.entrySet()) {
            wb.stateArg = e.getKey();
            Text.use(Text.ENGLISH);
            Result en = wb.cli("status");
            assertThat(en.exit()).as(en.toString()).isEqualTo(64);
            assertThat(en.err().strip()).isEqualTo(e.getValue()[0]);
            Text.use(Text.CHINESE);
            Result zh = wb.cli("status");
            assertThat(zh.exit()).as(zh.toString()).isEqualTo(64);
            assertThat(zh.err().strip()).isEqualTo(e.getValue()[1]);
            assertThat(zh.err() + en.err()).doesNotContain("hunter2");
        }
        // the same words name the option they came from
        wb.stateArg = tmp.resolve("state").toString();
        assertThat(wb.cli("status").exit()).isZero();
        Result migrate = wb.cli("migrate-state", "--to", "jdbc:postgresql://h/d");
        assertThat(migrate.err().strip()).as(migrate.toString())
                .isEqualTo("keyline: --to jdbc:postgresql://h/d：请把数据库写成 postgresql://HOST[:PORT]/DB，不要写成 JDBC URL");
    }

    @Test
    void aPruneThatFailsIsSaidInChinese(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        assertThat(wb.cli("status").exit()).isZero();
        try (H2Database db = H2Database.open(wb.state); Connection c = db.adminConnection();
             Statement st = c.createStatement()) {
            st.execute("ALTER TABLE key_event DROP COLUMN ts");
        }
        Text.use(Text.CHINESE);
        Result prune = wb.cli("prune", "--events-older-than", "P90D");
        assertThat(prune.exit()).as(prune.toString()).isEqualTo(1);
        assertThat(prune.err()).contains("keyline: 清理失败：").doesNotContain("prune failed");
        Text.use(Text.ENGLISH);
        assertThat(wb.cli("prune", "--events-older-than", "P90D").err()).contains("keyline: prune failed: ");
    }
}
