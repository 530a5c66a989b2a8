package io.keyline.sandbox;

import io.keyline.testing.Workbench;
import io.keyline.testing.Workbench.Result;
import io.keyline.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code keyline demo} under zh-CN says what it made, what waits and the five steps in Chinese, and refuses a
 * state that already has keys in Chinese; the English words are those of before (the other tests read them).
 */
class DemoInChineseTest {

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    @Test
    void theDemoSpeaksChinese(@TempDir Path tmp) throws Exception {
        Workbench wb = new Workbench(tmp);
        Text.use(Text.CHINESE);
        Result demo = wb.cli("demo", "--port", "0");
        assertThat(demo.exit()).as(demo.toString()).isZero();
        assertThat(demo.out()).contains("演示工作区已创建", "等你处理的：", "失败", "待确认", "待登录", "六个步骤：",
                "1. 打开控制台：java -jar target/keyline.jar --state ", "网站拒绝了登录（HTTP 401）",
                "凭据：sandbox-cookie（Cookie，指纹 ", "个已完成", "补跑 daily-article")
                .doesNotContain("Six steps", "Waiting for you", "Renew the cookie", "FAILED", " keys: ", "backfilling");

        // what waits lines up in a terminal: the keys start at one column, a Chinese character taking two
        java.util.Set<Integer> keysAt = new java.util.HashSet<>();
        for (String line : demo.out().split("\\R")) {
            int key = line.indexOf("daily-article 20");
            if (line.startsWith("  ") && key > 0 && !line.contains("补跑")) {
                keysAt.add(Text.columns(line.substring(0, key)));
            }
        }
        assertThat(keysAt).as(demo.out()).hasSize(1);

        Result again = wb.cli("demo", "--port", "0");
        assertThat(again.exit()).as(again.toString()).isEqualTo(1);
        assertThat(again.err()).contains("演示需要一个空的状态", "--force").doesNotContain("already has");
    }
}
