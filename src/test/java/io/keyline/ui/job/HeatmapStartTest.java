package io.keyline.ui.job;

import io.keyline.acceptance.Jobs;
import io.keyline.core.operations.Calendar;
import io.keyline.domain.KeyState;
import io.keyline.text.Text;
import io.keyline.ui.ConsoleFixture;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;

import static io.keyline.testing.Fx.fxValue;
import static io.keyline.testing.Fx.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

/** A job's heatmap, on its page in a real window, begins where the job does. */
@ExtendWith(ApplicationExtension.class)
class HeatmapStartTest {

    @TempDir
    Path tmp;
    final JobPage page = new JobPage();

    @Start
    void start(Stage s) {
        page.start(s);
    }

    @AfterEach
    void tearDown(FxRobot robot) throws Exception {
        page.close(robot);
    }

    /**
     * A daily job that starts on Friday 2026-11-06, seen on 2026-11-29: its heatmap's first column is the week of
     * its first day, and its first month is November; no empty weeks of September and October before it.
     */
    @Test
    void aYoungJobsHeatmapBeginsAtTheWeekOfItsFirstKey(FxRobot robot) throws Exception {
        ConsoleFixture fx = page.open(tmp);
        fx.wb.job("c", Jobs.command("c", "none", "exit 0", "PT5S").replace("2026-01-01", "2026-11-06"), null);
        assertThat(fx.wb.cli("run", "--yes", "c", "--from", "2026-11-06", "--to", "2026-11-29").exit()).isZero();
        page.themed().size(1024, 680).show(robot, "c", 24);
        Heatmap heat = robot.lookup("#heatmap").queryAs(Heatmap.class);
        waitUntil(() -> !heat.viewProperty().get().cells().isEmpty() && !heat.labels().isEmpty());

        List<Calendar.Cell> cells = fxValue(robot, () -> heat.viewProperty().get().cells());
        assertThat(cells.get(0).firstDay()).as("the first cell: the Monday of the first key's week")
                .isEqualTo(LocalDate.of(2026, 11, 2));
        assertThat(cells.get(cells.size() - 1).key()).isEqualTo("2026-11-29");
        assertThat(cells).filteredOn(c -> c.state() == KeyState.DONE).hasSize(24);
        assertThat(fxValue(robot, () -> heat.labels().get(0).text())).as("the first month label")
                .isEqualTo(Text.t("ui.heatmap.monthYear", "Nov", "2026"));
    }
}
