package io.keyline.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** A table lines up in a terminal: a Chinese character takes two columns, a Latin letter one. */
class TableWidthTest {

    @Test
    void chineseCellsTakeTwoColumnsEach() {
        assertThat(Text.Table.width("作业")).isEqualTo(4);
        assertThat(Text.Table.width("状态:失败")).as("a Latin colon takes one").isEqualTo(9);
        assertThat(Text.Table.width("JOB")).isEqualTo(3);

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        new Text.Table("作业", "状态").row("daily-report", "失败").row("a", "已完成").print(out);
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\\R");
        // the second column starts at the same terminal column on every line
        assertThat(lines).hasSize(3);
        for (String line : lines) {
            int second = line.indexOf(line.contains("daily-report") ? "失败" : line.contains("a ") ? "已完成" : "状态");
            assertThat(Text.Table.width(line.substring(0, second))).as(line).isEqualTo("daily-report".length() + 2);
        }
    }

    @Test
    void anEnglishTableIsAsBefore() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        new Text.Table("JOB", "STATE").row("daily-report", "FAILED").print(out);
        assertThat(bytes.toString(StandardCharsets.UTF_8).split("\\R"))
                .containsExactly("JOB           STATE", "daily-report  FAILED");
    }
}
