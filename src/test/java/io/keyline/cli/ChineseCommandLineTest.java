package io.keyline.cli;

import io.keyline.testing.Workbench;
import io.keyline.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In Chinese, the command line's human output speaks Chinese: {@code jobs} on an empty jobs folder, a dry
 * {@code prune} and a bad duration print no English sentence of the cli bundle (its words between the
 * arguments, more than three letters, where the Chinese differs).
 */
class ChineseCommandLineTest {

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    @Test
    void jobsPruneAndABadDurationSpeakChinese(@TempDir Path tmp) throws IOException {
        Workbench wb = new Workbench(tmp);
        Text.use(Text.CHINESE);
        Workbench.Result jobs = wb.cli("jobs");
        assertThat(jobs.exit()).isEqualTo(1);
        assertThat(jobs.out()).contains("中没有有效的作业");
        Workbench.Result prune = wb.cli("prune", "--events-older-than", "P90D", "--dry-run");
        assertThat(prune.exit()).as(prune.toString()).isZero();
        assertThat(prune.out()).contains("将删除 0 个早于");
        Workbench.Result bad = wb.cli("prune", "--events-older-than", "PT1H");
        assertThat(bad.exit()).isEqualTo(64);
        assertThat(bad.err()).contains("短于一天");

        List<String> english = englishPieces();
        assertThat(english).hasSizeGreaterThan(20);
        List<String> found = new ArrayList<>();
        for (String out : List.of(jobs.out(), jobs.err(), prune.out(), prune.err(), bad.out(), bad.err())) {
            for (String p : english) {
                if (Pattern.compile("(?<![\\p{L}\\p{N}_-])" + Pattern.quote(p) + "(?![\\p{L}\\p{N}_-])").matcher(out)
                        .find()) {
                    found.add(out.strip() + " ⊃ " + p);
                }
            }
        }
        assertThat(found).as("English in the Chinese output").isEmpty();

        Text.use(Text.ENGLISH);
        assertThat(wb.cli("prune", "--events-older-than", "P90D", "--dry-run").out()).contains("would delete 0 events");
    }

    private static List<String> englishPieces() throws IOException {
        Properties en = load("cli.properties");
        Properties zh = load("cli_zh_CN.properties");
        List<String> pieces = new ArrayList<>();
        for (String key : en.stringPropertyNames()) {
            String e = en.getProperty(key);
            if (e.equals(zh.getProperty(key))) {
                continue;
            }
            for (String piece : e.replace("''", "'").split("\\{(?:[^{}]|\\{[^{}]*\\})*\\}")) {
                String p = piece.strip();
                if (p.codePoints().filter(Character::isLetter).count() > 3 && !pieces.contains(p)) {
                    pieces.add(p);
                }
            }
        }
        return pieces;
    }

    private static Properties load(String name) throws IOException {
        Properties p = new Properties();
        try (InputStream in = ChineseCommandLineTest.class.getResourceAsStream("/io/keyline/text/" + name)) {
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        }
        return p;
    }
}
