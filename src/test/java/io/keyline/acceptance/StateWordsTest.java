package io.keyline.acceptance;

import io.keyline.testing.TestPostgres;
import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import io.keyline.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the state says when it cannot be used (a state file that is not one, a copy into a database that is not
 * empty, a process with another master key) reads in Chinese under zh-CN; the English words are those of before.
 */
class StateWordsTest {

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    @Test
    void anUnreadableStateFileIsSaidInChinese(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        wb.init = false;
        Path broken = tmp.resolve("broken");
        Files.createDirectories(broken);
        Files.writeString(broken.resolve("keyline.mv.db"), "garbage\n");
        wb.stateArg = broken.toString();
        Text.use(Text.CHINESE);
        Result zh = wb.cli("status");
        assertThat(zh.exit()).as(zh.toString()).isEqualTo(1);
        assertThat(zh.err()).contains("状态文件 " + broken.resolve("keyline.mv.db") + " 无法读取")
                .doesNotContain("is unreadable", "restore it");
        Text.use(Text.ENGLISH);
        assertThat(wb.cli("status").err()).contains("keyline: the state file " + broken.resolve("keyline.mv.db")
                + " is unreadable (corrupt, truncated or not a Keyline state): it ends before the data it describes - "
                + "restore it from a backup (SCRIPT/BACKUP) or move it aside");
    }

    @Test
    void aCopyIntoADatabaseInUseAndAnotherMasterKeyAreSaidInChinese(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        assertThat(wb.cliWithInput("tok3n-value\n", "credentials", "set", "api", "--type", "bearer").exit()).isZero();
        String url = TestPostgres.newDatabase();
        Result copy = wb.cli("migrate-state", "--to", url);
        assertThat(copy.exit()).as(copy.toString()).isZero();

        Text.use(Text.CHINESE);
        Result again = wb.cli("migrate-state", "--to", url);
        assertThat(again.exit()).as(again.toString()).isEqualTo(1);
        assertThat(again.err()).contains("数据库 ").contains("不是空的").doesNotContain("is not empty");
        Workbench wrong = new Workbench(tmp.resolve("wrong"));
        wrong.stateArg = url;
        wrong.env().put("XDG_STATE_HOME", tmp.resolve("wrong-xdg").toString());
        wrong.env().put("KEYLINE_MASTER_KEY", Workbench.TEST_MASTER_KEY);
        Result refused = wrong.cli("worker", "--until-idle");
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).contains("不是状态").doesNotContain("is not the key of the state");

        Text.use(Text.ENGLISH);
        assertThat(wb.cli("migrate-state", "--to", url).err()).containsPattern("keyline: the database .* is not empty "
                + "\\(\\w+ has \\d+ rows?\\): migrate-state copies into an empty database only");
        assertThat(wrong.cli("worker", "--until-idle").err()).containsPattern("this process's master key "
                + "\\(fingerprint \\w+\\) is not the key of the state .* \\(fingerprint \\w+\\): set the same "
                + "KEYLINE_MASTER_KEY or --master-key-file on every machine");
    }
}
