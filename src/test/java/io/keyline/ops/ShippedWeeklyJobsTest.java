package io.keyline.ops;

import io.keyline.core.jobfile.JobFileLoader;
import io.keyline.domain.JobDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The weekly jobs that ship collect what their daily job made during the week: the tick that makes a week
 * due comes after the daily job's last tick of that week. A tick's due key is the key of the tick's own week,
 * so a weekly job that ticked on the week's Monday would pack one day and mark the week done for good.
 */
class ShippedWeeklyJobsTest {

    @Test
    void theExampleArchiveTicksAfterTheWeeksLastDailyReport() {
        assertWeekCollectedWhole(load(Path.of("resources/jobs/weekly-archive.json")),
                load(Path.of("resources/jobs/daily-report.json")));
    }

    @Test
    void theDemosDigestTicksAfterTheWeeksLastArticle(@TempDir Path tmp) throws Exception {
        assertWeekCollectedWhole(demo(tmp, "weekly-digest.json"), demo(tmp, "daily-article.json"));
    }

    private static void assertWeekCollectedWhole(JobDefinition weekly, JobDefinition daily) {
        // every week of a year, one after the other: a week from Monday 00:00 to the next Monday 00:00
        ZonedDateTime monday = LocalDate.of(2026, 12, 28).atStartOfDay(ZoneOffset.UTC).minusWeeks(52);
        for (int w = 0; w < 52; w++, monday = monday.plusWeeks(1)) {
            ZonedDateTime end = monday.plusWeeks(1).minusSeconds(1);
            List<ZonedDateTime> weeklyTicks = weekly.schedule().ticksBetween(monday.minusSeconds(1), end, 10);
            List<ZonedDateTime> dailyTicks = daily.schedule().ticksBetween(monday.minusSeconds(1), end, 10);
            assertThat(weeklyTicks).as(weekly.name() + " in the week of " + monday.toLocalDate()).isNotEmpty();
            assertThat(weeklyTicks.get(0)).as(weekly.name() + "'s tick in the week of " + monday.toLocalDate()
                    + " against " + daily.name() + "'s ticks " + dailyTicks).isAfter(dailyTicks.get(dailyTicks.size() - 1));
        }
    }

    private static JobDefinition load(Path file) {
        JobFileLoader.Result r = JobFileLoader.loadFile(file);
        assertThat(r.errors()).as(file.toString()).isEmpty();
        return r.job();
    }

    private static JobDefinition demo(Path tmp, String name) throws Exception {
        String text = Files.readString(Path.of("resources/demo").resolve(name))
                .replace("{{DEMO_START_WEEK}}", "2026-W01").replace("{{DEMO_START}}", "2026-01-01")
                .replace("{{SANDBOX_URL}}", "http://127.0.0.1:18777");
        Path file = tmp.resolve(name);
        Files.writeString(file, text);
        return load(file);
    }
}
