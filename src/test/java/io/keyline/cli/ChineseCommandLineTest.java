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
        assertThat(prune.out()).contains("将删除早于").contains("的 0 个事件和 0 个已保存的计划");
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
        assertThat(wb.cli("prune", "--events-older-than", "P90D", "--dry-run").out()).contains("would delete 0 events and 0 plans");
    }

    @Test
    void aFailedRunAndStatusSpeakChinese(@TempDir Path tmp) throws IOException {
        Workbench wb = new Workbench(tmp);
        failingJob(wb);
        Text.use(Text.CHINESE);
        Workbench.Result run = wb.cli("run", "no", "--key", "2026-11-29");
        assertThat(run.exit()).as(run.toString()).isEqualTo(2);
        assertThat(run.out()).contains("no：失败 1", "下一步：keyline timeline no 2026-11-29", "退出码 2（失败）");
        Workbench.Result status = wb.cli("status");
        assertThat(status.exit()).as(status.toString()).isZero();
        assertThat(status.out()).contains("状态：", "任务项", "尝试次数", "失败");
        Workbench.Result doctor = wb.cli("doctor");
        assertThat(doctor.out()).as(doctor.toString()).contains("主密钥：", "有任务项等人处理时会通知谁：", "1 个有效的作业文件");
        Workbench.Result plan = wb.cli("plan", "no", "--key", "2026-11-29");
        assertThat(plan.exit()).as(plan.toString()).isZero();
        assertThat(plan.out()).contains("1 个任务项", "原样执行这个计划：keyline apply");
        Workbench.Result none = wb.cli("credentials", "list");
        assertThat(none.out()).as(none.toString()).contains("没有凭据");
        Workbench.Result set = wb.cliWithInput("Cookie: sid=s3cr3t-value-123456\n", "credentials", "set",
                "site-cookie", "--domain", "127.0.0.1", "--login-url", "https://example.org/login");
        assertThat(set.exit()).as(set.toString()).isZero();
        assertThat(set.out()).contains("凭据 site-cookie 已保存", "在 https://example.org/login 登录");
        Workbench.Result list = wb.cli("credentials", "list");
        assertThat(list.out()).as(list.toString()).contains("名称", "指纹", "site-cookie：在 https://example.org/login 登录");
        Workbench.Result unknown = wb.cli("run", "nosuchjob");
        assertThat(unknown.exit()).isEqualTo(64);
        assertThat(unknown.err()).contains("未知的作业 \"nosuchjob\"");
        // the key's message is the engine's and what a renewal resumed the core's: not the command line's
        assertNoEnglish(List.of("exit 65: 输入有误", "0 parked keys resumed"), run, status, doctor,
                plan, none, set, list, unknown);

        Text.use(Text.ENGLISH);
        Workbench.Result again = wb.cli("run", "no", "--key", "2026-11-29");
        assertThat(again.out()).contains("no: 1 FAILED", "exit 2 (failed)");
    }

    /**
     * The help of the command line and of {@code run}, a retry (alone and with {@code --run}) and a state that is
     * not found speak Chinese: no three English words in a row outside the commands an operator types, and no
     * English sentence of the cli or core bundle, also where the help wraps it over lines.
     */
    @Test
    void theHelpARetryAndAMissingStateSpeakChinese(@TempDir Path tmp, @TempDir Path elsewhere) throws IOException {
        Workbench wb = new Workbench(tmp);
        failingJob(wb);
        Text.use(Text.CHINESE);
        Workbench.Result help = wb.cli("--help");
        assertThat(help.exit()).as(help.toString()).isZero();
        Workbench.Result runHelp = wb.cli("run", "--help");
        assertThat(runHelp.exit()).as(runHelp.toString()).isZero();
        Workbench.Result failed = wb.cli("run", "no", "--key", "2026-11-29");
        assertThat(failed.exit()).as(failed.toString()).isEqualTo(2);
        Workbench.Result retryRun = wb.cli("retry", "no", "2026-11-29", "--run");
        assertThat(retryRun.exit()).as(retryRun.toString()).isEqualTo(2);
        Workbench.Result retry = wb.cli("retry", "no", "2026-11-29", "--from-step", "work");
        assertThat(retry.exit()).as(retry.toString()).isZero();
        Workbench.Result notFound = wb.cliIn(elsewhere, "status");
        assertThat(notFound.exit()).as(notFound.toString()).isEqualTo(1);
        Workbench.Result notNamed = wb.cliIn(elsewhere, "--state", elsewhere.resolve("s").toString(), "status");
        assertThat(notNamed.exit()).as(notNamed.toString()).isEqualTo(1);
        assertThat(help.out()).contains("用法：keyline", "命令：", "从这里开始：", "这里使用：");
        assertThat(help.out().replaceAll("\\s+", "")).contains("状态：没有找到（", "'keylineinit'会创建" + wb.state,
                "作业：" + tmp.resolve("jobs") + "（--jobs）");
        assertThat(runHelp.out()).contains("执行一个作业的任务项", "要处理的任务项（可以重复）。", "显示这份帮助并退出。");
        assertThat(retryRun.out()).contains("work #1  失败 [FATAL] （0 毫秒）", "no  运行 （", "失败 1；退出码 2");
        assertThat(retry.out()).contains("no 2026-11-29 已从步骤 work 重新启用（待运行）",
                "运行它：keyline run no --key 2026-11-29");
        assertThat(notFound.err()).contains("没有找到 Keyline 状态。在这些位置找过 state/keyline.mv.db：",
                elsewhere.resolve("state").toString());
        assertThat(notNamed.err()).contains("中没有 Keyline 状态（由 --state 指定）");

        List<String> data = List.of("exit 65: 输入有误", "failed at work: retry it to run again");
        List<String> english = new ArrayList<>();
        for (Workbench.Result r : List.of(help, runHelp, retry, retryRun, notFound, notNamed)) {
            for (String printed : List.of(r.out(), r.err())) {
                String out = printed;
                for (String d : data) {
                    out = out.replace(d, "");
                }
                english.addAll(englishWords(out));
            }
        }
        assertThat(english).as("English words in the Chinese output").isEmpty();
        assertNoEnglish(data, retry, retryRun, notFound, notNamed);
        // the help names commands, states and JSON fields as they are typed and printed: single words are names there
        assertNoEnglishPhrase(help, runHelp);

        Text.use(Text.ENGLISH);
        assertThat(wb.cli("run", "--help").out()).contains("Executes a job's keys");
    }

    /** Commands as the operator types them: {@code keyline} and the words after it. */
    private static final Pattern TYPED = Pattern.compile("keyline(?: [a-z][a-z-]*)*");

    /** Three English words in a row (Latin words in lower case, or capitalised, separated by single spaces). */
    private static final Pattern WORDS = Pattern.compile("(?<![\\p{L}\\p{N}_./:$-])[A-Za-z][a-z]+(?: [A-Za-z][a-z]+){2,}(?![\\p{L}\\p{N}_-])");

    /** The runs of three or more English words in {@code printed}, lines joined, commands taken out. */
    static List<String> englishWords(String printed) {
        String text = TYPED.matcher(printed.replaceAll("\\s+", " ")).replaceAll("");
        List<String> found = new ArrayList<>();
        java.util.regex.Matcher m = WORDS.matcher(text);
        while (m.find()) {
            found.add(m.group());
        }
        return found;
    }

    /** No English sentence of the cli or core bundle in the outputs (in Chinese). */
    private static void assertNoEnglish(List<String> data, Workbench.Result... results) throws IOException {
        assertNoEnglish(data, false, results);
    }

    /** No English piece of the cli or core bundle of more than one word in the outputs (in Chinese). */
    private static void assertNoEnglishPhrase(Workbench.Result... results) throws IOException {
        assertNoEnglish(List.of(), true, results);
    }

    private static void assertNoEnglish(List<String> data, boolean phrases, Workbench.Result... results)
            throws IOException {
        List<String> english = englishPieces();
        List<String> found = new ArrayList<>();
        for (Workbench.Result r : results) {
            for (String printed : List.of(r.out(), r.err())) {
                String out = printed;
                for (String d : data) {
                    out = out.replace(d, "");
                }
                // the help wraps a sentence over lines, also inside a word ("postgresql:" / "//HOST")
                String joined = out.replaceAll("\\s+", "");
                for (String p : english) {
                    if (phrases && !p.contains(" ")) {
                        continue;
                    }
                    // a whole piece, not a part of a name or an address ("login" in https://example.org/login)
                    if (p.contains(" ") ? joined.contains(p.replaceAll("\\s+", ""))
                            : Pattern.compile("(?<![\\p{L}\\p{N}_/-])" + Pattern.quote(p) + "(?![\\p{L}\\p{N}_/-])")
                            .matcher(out).find()) {
                        found.add(out.strip() + " ⊃ " + p);
                    }
                }
            }
        }
        assertThat(found).as("English in the Chinese output").isEmpty();
    }

    @Test
    void theEnglishWordsCheckFindsASentenceAndPassesACommand() {
        assertThat(englishWords("no 2026-11-29 re-armed (PENDING); run it with: keyline run no --key 2026-11-29"))
                .containsExactly("run it with");
        assertThat(englishWords("Shows keys and their\n                 states")).containsExactly("Shows keys and their states");
        assertThat(englishWords("已重新启用；运行它：keyline credentials set site-cookie --from-file cookies.txt"))
                .isEmpty();
        assertThat(englishWords("状态:/srv/keyline/state 和 $XDG_DATA_HOME/keyline/logs 或 postgresql://host/db"))
                .isEmpty();
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

    /** A job whose one step fails with exit 65 and a Chinese line on stderr. */
    private static void failingJob(Workbench wb) throws IOException {
        wb.job("no", """
                {
                  "name": "no",
                  "key": { "type": "date", "zone": "UTC" },
                  "steps": [ { "id": "work", "kind": "command", "effect": "none",
                               "command": ["sh", "-c", "echo 输入有误 >&2; exit 65"] } ]
                }
                """, null);
    }
}
