package io.keyline.cli;

import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import io.keyline.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A command line that does not parse is told what is wrong in Chinese under zh-CN (an unknown option, a stray
 * argument with its "did you mean", a missing option, parameter or value, a value that is not a number), with the
 * option or value named; under English it says picocli's own sentence, as before. Either way it exits 64.
 */
class ParseErrorsInChineseTest {

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    @Test
    void theCommonParseErrorsSpeakChinese(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        Text.use(Text.CHINESE);
        Result unknown = wb.cli("status", "--attenton");
        assertThat(unknown.exit()).as(unknown.toString()).isEqualTo(64);
        assertThat(unknown.err()).contains("keyline: 没有这个选项：--attenton", "你是不是想输入：",
                "--attention", "试试 'keyline status --help'。");
        Result stray = wb.cli("stauts");
        assertThat(stray.err()).as(stray.toString()).contains("keyline: 多余的参数：stauts", "你是不是想输入：", "status");
        Result missingOption = wb.cli("pause", "daily");
        assertThat(missingOption.exit()).isEqualTo(64);
        assertThat(missingOption.err()).as(missingOption.toString()).contains("keyline: 缺少必需的选项：--reason");
        Result missingValue = wb.cli("run", "daily", "--key");
        assertThat(missingValue.err()).as(missingValue.toString()).contains("keyline: 选项 --key 后面缺少它的值（K）");
        Result missingParameters = wb.cli("confirm");
        assertThat(missingParameters.err()).as(missingParameters.toString())
                .contains("keyline: 缺少必需的参数：JOB、KEY");
        Result notANumber = wb.cli("sandbox", "--port", "abc");
        assertThat(notANumber.exit()).isEqualTo(64);
        assertThat(notANumber.err()).as(notANumber.toString()).contains("keyline: 选项 --port 的值“abc”无效（需要一个整数）");
        for (Result r : java.util.List.of(unknown, stray, missingOption, missingValue, missingParameters, notANumber)) {
            assertThat(r.err()).as(r.toString()).doesNotContain("Unknown", "Unmatched", "Missing", "Invalid", "Did you");
        }
    }

    @Test
    void inEnglishPicocliSaysItsOwnSentenceAsBefore(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        Result unknown = wb.cli("status", "--attenton");
        assertThat(unknown.exit()).isEqualTo(64);
        assertThat(unknown.err()).startsWith("keyline: Unknown option: '--attenton'\nDid you mean: ")
                .contains("--attention").endsWith("Try 'keyline status --help'.\n");
        assertThat(wb.cli("pause", "daily").err()).startsWith("keyline: Missing required option: '--reason=T'\n");
        assertThat(wb.cli("run", "daily", "--key").err())
                .startsWith("keyline: Missing required parameter for option '--key' (K)\n");
        assertThat(wb.cli("confirm").err()).startsWith("keyline: Missing required parameters: 'JOB', 'KEY'\n");
        assertThat(wb.cli("sandbox", "--port", "abc").err())
                .startsWith("keyline: Invalid value for option '--port': 'abc' is not an int\n");
    }
}
