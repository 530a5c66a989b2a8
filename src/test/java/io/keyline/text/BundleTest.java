package io.keyline.text;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.text.MessageFormat;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Both languages are complete and say the same things: every key in both, with the same arguments. */
class BundleTest {

    static Properties load(String name) throws IOException {
        Properties p = new Properties();
        try (InputStream in = BundleTest.class.getResourceAsStream("/io/keyline/text/" + name)) {
            assertThat(in).as(name).isNotNull();
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        }
        return p;
    }

    static Set<Integer> arguments(String pattern) {
        Set<Integer> args = new TreeSet<>();
        Matcher m = Pattern.compile("\\{(\\d+)").matcher(pattern.replaceAll("'[^']*'", ""));
        while (m.find()) {
            args.add(Integer.parseInt(m.group(1)));
        }
        return args;
    }

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    @Test
    void everyKeyHasBothLanguagesWithTheSameArguments() throws IOException {
        int keys = 0;
        for (String area : Text.AREAS) {
            Properties en = load(area + ".properties");
            Properties zh = load(area + "_zh_CN.properties");
            assertThat(zh.stringPropertyNames()).as("%s: keys only in English", area)
                    .containsAll(en.stringPropertyNames());
            assertThat(en.stringPropertyNames()).as("%s: keys only in Chinese", area)
                    .containsAll(zh.stringPropertyNames());
            for (String key : en.stringPropertyNames()) {
                keys++;
                assertThat(key).as("a key of %s.properties starts with its area", area).startsWith(area + ".");
                String e = en.getProperty(key);
                String z = zh.getProperty(key);
                assertThat(e).as("English %s", key).isNotBlank();
                assertThat(z).as("Chinese %s", key).isNotBlank();
                // each pattern parses, and both take the same arguments
                new MessageFormat(e, Locale.ENGLISH);
                new MessageFormat(z, Locale.SIMPLIFIED_CHINESE);
                assertThat(arguments(z)).as("arguments of %s", key).isEqualTo(arguments(e));
            }
        }
        assertThat(keys).isPositive();
    }

    /**
     * Chinese sentences take full-width punctuation: an ASCII comma, colon, semicolon, parenthesis or
     * question mark next to a Chinese character reads as a typo (headers, URLs and host:port keep ASCII,
     * as they never touch a Chinese character).
     */
    @Test
    void chineseSentencesUseFullWidthPunctuation() throws IOException {
        Pattern halfWidth = Pattern.compile("[\\u4e00-\\u9fff][,;:()?!]|[,;:()?!][\\u4e00-\\u9fff]");
        // a header line ("Cookie: ***", "Location: … matches …") and host:port keep their ASCII colon
        Set<String> ascii = Set.of("core.headers.masked", "core.headers.maskedRejected", "core.cond.headerMatches",
                "core.cond.headerNotMatches", "core.store.postgres.tooOld");
        Set<String> found = new TreeSet<>();
        for (String area : Text.AREAS) {
            Properties zh = load(area + "_zh_CN.properties");
            for (String key : zh.stringPropertyNames()) {
                if (ascii.contains(key)) {
                    continue;
                }
                // an argument stands in as a Chinese word: "{0};{1}" and "Cookie:{1}" sit in Chinese sentences
                String text = zh.getProperty(key).replaceAll("\\{[^{}]*}", "字").replaceAll("\\{[^{}]*}", "字");
                if (halfWidth.matcher(text).find()) {
                    found.add(key + "=" + zh.getProperty(key));
                }
            }
        }
        assertThat(found).as("Chinese texts with half-width punctuation").isEmpty();
    }

    /**
     * Chinese names the dry run with one word, the one the Plan dialog's title and button use: the buttons that
     * open it, and the rows that tell the operator to press them, say the same word.
     */
    @Test
    void chineseCallsThePlanByTheWordItsDialogUses() throws IOException {
        Properties ui = load("ui_zh_CN.properties");
        Properties core = load("core_zh_CN.properties");
        String plan = ui.getProperty("ui.plan.plan");
        assertThat(ui.getProperty("ui.plan.title")).startsWith(plan + " ");
        assertThat(core.getProperty("core.attention.plan")).as("the review row's button").isEqualTo(plan + "…");
        assertThat(core.getProperty("core.attention.planMissing")).as("the Missing row's button").startsWith(plan + " ");
        assertThat(core.getProperty("core.attention.reason.review")).as("the review row names its button")
                .contains("“" + core.getProperty("core.attention.plan") + "”");
        Set<String> other = new TreeSet<>();
        for (String area : Text.AREAS) {
            Properties zh = load(area + "_zh_CN.properties");
            for (String key : zh.stringPropertyNames()) {
                if (zh.getProperty(key).contains("规划")) {
                    other.add(key + "=" + zh.getProperty(key));
                }
            }
        }
        assertThat(other).as("Chinese texts with another word for the plan").isEmpty();
    }

    /**
     * Chinese keeps the dry run and the job's schedule apart: 计划 is the plan's word only (its English says plan),
     * and a job's schedule (its cron, its ticks) is 定时 wherever the English names it; "ahead of schedule" is said
     * as 提前, never as ahead of a plan.
     */
    @Test
    void chineseSaysPlanOnlyForThePlanAndTimingForTheSchedule() throws IOException {
        Pattern plan = Pattern.compile("(?i)\\bplan");
        Pattern schedule = Pattern.compile("(?i)\\bschedules?\\b");
        Set<String> planForSchedule = new TreeSet<>();
        Set<String> scheduleUnnamed = new TreeSet<>();
        for (String area : Text.AREAS) {
            Properties en = load(area + ".properties");
            Properties zh = load(area + "_zh_CN.properties");
            for (String key : zh.stringPropertyNames()) {
                String e = en.getProperty(key, "");
                String z = zh.getProperty(key);
                if (z.contains("计划") && !plan.matcher(e).find()) {
                    planForSchedule.add(key + "=" + z);
                }
                if (z.contains("提前于计划")) {
                    planForSchedule.add(key + "=" + z);
                }
                boolean named = schedule.matcher(e.replaceAll("(?i)ahead of schedule", "")).find();
                if (named && !z.contains("定时")) {
                    scheduleUnnamed.add(key + "=" + z);
                }
            }
        }
        assertThat(planForSchedule).as("计划 where the English says no plan").isEmpty();
        assertThat(scheduleUnnamed).as("a job's schedule not called 定时").isEmpty();
    }

    @Test
    void theLanguageFollowsKeylineLangThenTheSystem() {
        assertThat(Text.initial("zh", Locale.US)).isEqualTo(Text.CHINESE);
        assertThat(Text.initial("zh-CN", Locale.US)).isEqualTo(Text.CHINESE);
        assertThat(Text.initial("en", Locale.CHINA)).isEqualTo(Text.ENGLISH);
        assertThat(Text.initial(null, Locale.CHINA)).isEqualTo(Text.CHINESE);
        assertThat(Text.initial("", new Locale("zh", "TW"))).isEqualTo(Text.CHINESE);
        assertThat(Text.initial(null, Locale.GERMANY)).isEqualTo(Text.ENGLISH);
    }

    @Test
    void aMessageIsInTheLanguageInUse() {
        Text.use(Text.CHINESE);
        assertThat(Text.t("ui.language.switch")).isEqualTo("语言");
        Text.use(Text.ENGLISH);
        assertThat(Text.t("ui.language.switch")).isEqualTo("Language");
        assertThat(Text.t("no.such.key")).isEqualTo("no.such.key");
    }

    /**
     * In Chinese a key's state has one name wherever it shows: the command line's tables, its run trace, the
     * demo's counts, the plan's stops and the console's chips and counts (English keeps the state's own name on
     * the command line, a contract word, and says it in words on screen).
     */
    @Test
    void chineseNamesAStateWithTheSameWordsOnTheCommandLineAndInTheConsole() {
        Text.use(Text.CHINESE);
        for (io.keyline.domain.KeyState s : io.keyline.domain.KeyState.values()) {
            String chip = Text.t("common.state." + s.name());
            assertThat(Text.t("cli.state." + s.name())).as("the command line's %s", s).isEqualTo(chip);
            assertThat(Text.t("core.trace.state." + s.name())).as("the run trace's %s", s).isEqualTo(chip);
            assertThat(Text.t("core.demo.state." + s.name(), 2)).as("the demo's count of %s", s).endsWith(chip);
            assertThat(Text.t("core.count." + s.name(), 2)).as("the console's count of %s", s).endsWith(chip);
        }
        assertThat(Text.t("core.stopKind.NEEDS_CONFIRMATION")).isEqualTo(Text.t("common.state.NEEDS_CONFIRMATION"));
        assertThat(Text.t("core.stopKind.NEEDS_CREDENTIAL")).isEqualTo(Text.t("common.state.NEEDS_CREDENTIAL"));
    }
}
