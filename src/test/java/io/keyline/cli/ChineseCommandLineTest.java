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
 * {@code prune}, a bad duration, a failed {@code run} and its {@code status}, {@code doctor}, {@code plan},
 * {@code credentials} and an unknown job print no English sentence of the cli or core bundle (its words between
 * the arguments, more than three letters, where the Chinese differs).
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

    @Test
    void aFailedRunAndStatusSpeakChinese(@TempDir Path tmp) throws IOException {
        Workbench wb = new Workbench(tmp);
        wb.job("no", """
                {
                  "name": "no",
                  "key": { "type": "date", "zone": "UTC" },
                  "steps": [ { "id": "work", "kind": "command", "effect": "none",
                               "command": ["sh", "-c", "echo 输入有误 >&2; exit 65"] } ]
                }
                """, null);
        Text.use(Text.CHINESE);
        Workbench.Result run = wb.cli("run", "no", "--key", "2026-11-29");
        assertThat(run.exit()).as(run.toString()).isEqualTo(2);
        assertThat(run.out()).contains("no:失败 1", "下一步:keyline timeline no 2026-11-29", "退出码 2(失败)");
        Workbench.Result status = wb.cli("status");
        assertThat(status.exit()).as(status.toString()).isZero();
        assertThat(status.out()).contains("状态:", "任务项", "尝试次数", "失败");
        Workbench.Result doctor = wb.cli("doctor");
        assertThat(doctor.out()).as(doctor.toString()).contains("主密钥:", "有任务项等人处理时会通知谁:", "1 个有效的作业文件");
        Workbench.Result plan = wb.cli("plan", "no", "--key", "2026-11-29");
        assertThat(plan.exit()).as(plan.toString()).isZero();
        assertThat(plan.out()).contains("1 个任务项", "原样执行这个计划:keyline apply");
        Workbench.Result none = wb.cli("credentials", "list");
        assertThat(none.out()).as(none.toString()).contains("没有凭据");
        Workbench.Result set = wb.cliWithInput("Cookie: sid=s3cr3t-value-123456\n", "credentials", "set",
                "site-cookie", "--domain", "127.0.0.1", "--login-url", "https://example.org/login");
        assertThat(set.exit()).as(set.toString()).isZero();
        assertThat(set.out()).contains("凭据 site-cookie 已保存", "在 https://example.org/login 登录");
        Workbench.Result list = wb.cli("credentials", "list");
        assertThat(list.out()).as(list.toString()).contains("名称", "指纹", "site-cookie:在 https://example.org/login 登录");
        Workbench.Result unknown = wb.cli("run", "nosuchjob");
        assertThat(unknown.exit()).isEqualTo(64);
        assertThat(unknown.err()).contains("未知的作业 \"nosuchjob\"");
        // the run's progress lines (HH:MM:SS …) are the run trace's words, the key's message the engine's and
        // what a renewal resumed the core's: not the command line's
        assertNoEnglish(List.of("exit 65: 输入有误", "0 parked keys resumed"), run, status, doctor,
                plan, none, set, list, unknown);

        Text.use(Text.ENGLISH);
        Workbench.Result again = wb.cli("run", "no", "--key", "2026-11-29");
        assertThat(again.out()).contains("no: 1 FAILED", "exit 2 (failed)");
    }

    /** A progress line of a run. */
    private static final Pattern PROGRESS = Pattern.compile("(?m)^\\d\\d:\\d\\d:\\d\\d  .*$");

    /** No English sentence of the cli or core bundle in the outputs (in Chinese). */
    private static void assertNoEnglish(List<String> data, Workbench.Result... results) throws IOException {
        List<String> english = englishPieces();
        List<String> found = new ArrayList<>();
        for (Workbench.Result r : results) {
            for (String printed : List.of(r.out(), r.err())) {
                String out = PROGRESS.matcher(printed).replaceAll("");
                for (String d : data) {
                    out = out.replace(d, "");
                }
                for (String p : english) {
                    // a whole piece, not a part of a name or an address ("login" in https://example.org/login)
                    if (Pattern.compile("(?<![\\p{L}\\p{N}_/-])" + Pattern.quote(p) + "(?![\\p{L}\\p{N}_/-])")
                            .matcher(out).find()) {
                        found.add(out.strip() + " ⊃ " + p);
                    }
                }
            }
        }
        assertThat(found).as("English in the Chinese output").isEmpty();
    }

    private static List<String> englishPieces() throws IOException {
        List<String> pieces = new ArrayList<>();
        for (String area : List.of("cli", "core")) {
            pieces(load(area + ".properties"), load(area + "_zh_CN.properties"), pieces);
        }
        return pieces;
    }

    private static void pieces(Properties en, Properties zh, List<String> pieces) {
        for (String key : en.stringPropertyNames()) {
            String e = en.getProperty(key);
            if (e.equals(zh.getProperty(key))) {
                continue;
            }
            for (String piece : e.replace("''", "'").split("\\{(?:[^{}]|\\{[^{}]*\\})*\\}")) {
                String p = piece.strip();
                // what the Chinese keeps as it is (a command the operator types) is no English sentence
                if (p.codePoints().filter(Character::isLetter).count() > 3 && !pieces.contains(p)
                        && !zh.getProperty(key).contains(p)) {
                    pieces.add(p);
                }
            }
        }
    }

    private static Properties load(String name) throws IOException {
        Properties p = new Properties();
        try (InputStream in = ChineseCommandLineTest.class.getResourceAsStream("/io/keyline/text/" + name)) {
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        }
        return p;
    }
}
