package io.keyline.acceptance;

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
 * What is wrong with a job's list of keys, as {@code run --due} and the scheduler of a worker say it, and a typed key
 * the job does not accept read in Chinese under zh-CN; the English words are those of before.
 */
class KeySourceWordsTest {

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    @Test
    void aBadListingIsSaidInChineseByRunDueAndTheWorker(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        Files.writeString(wb.jobs.resolve("documents.list"), "[\"INV-1\", true, {}]");
        wb.job("invoices", KeySourceTest.job("invoices", "{ \"source\": { \"command\": [\"sh\", \"list.sh\"] } }"),
                null);
        Files.writeString(wb.jobs.resolve("list.sh"), KeySourceTest.LIST);

        Text.use(Text.CHINESE);
        Result due = wb.cli("run", "--due");
        assertThat(due.exit()).as(due.toString()).isEqualTo(1);
        assertThat(due.err()).contains("invoices：任务项来源的第 1 项（从 0 数起）不是有效的任务项：它是真假值",
                "invoices：任务项来源的第 2 项（从 0 数起）不是有效的任务项：它是一个对象").doesNotContain("is not a key", "keys.source");

        Files.writeString(wb.jobs.resolve("documents.list"), "not a list");
        Result worker = wb.cli("worker", "--until-idle");
        assertThat(worker.out()).as(worker.toString()).contains("工作进程：这一轮：invoices：任务项来源没有给出任务项列表")
                .doesNotContain("tick:", "gave no list");

        // a key typed on the command line that the job does not accept
        Result typed = wb.cli("run", "invoices", "--key", "a/b");
        assertThat(typed.exit()).as(typed.toString()).isEqualTo(64);
        assertThat(typed.err()).contains("任务项“a/b”含有路径分隔符").doesNotContain("path separator");

        Text.use(Text.ENGLISH);
        assertThat(wb.cli("run", "invoices", "--key", "a/b").err())
                .contains("keyline: key \"a/b\" contains a path separator (\"/\" or \"\\\")");
        assertThat(wb.cli("worker", "--until-idle").out()).contains("worker: tick: invoices: keys.source gave no list "
                + "of keys (expected a JSON array as output \"keys\")");
        Files.writeString(wb.jobs.resolve("documents.list"), "[\"INV-1\", true, {}]");
        assertThat(wb.cli("run", "--due").err()).contains("invoices: keys.source[1] is not a key: a boolean",
                "invoices: keys.source[2] is not a key: an object");
    }
}
