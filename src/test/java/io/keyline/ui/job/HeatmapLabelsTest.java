package io.keyline.ui.job;

import io.keyline.core.operations.Calendar;
import io.keyline.domain.KeyState;
import io.keyline.domain.KeyType;
import javafx.scene.Scene;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The daily heatmap's month labels and cell size, drawn in a real (headless) window. */
@ExtendWith(ApplicationExtension.class)
class HeatmapLabelsTest {

    Stage stage;

    @Start
    void start(Stage s) {
        stage = s;
    }

    private Heatmap shown(FxRobot robot, LocalDate from, LocalDate to, double width) {
        List<Calendar.Cell> cells = new ArrayList<>();
        for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
            cells.add(new Calendar.Cell(d.toString(), d, KeyState.DONE, false, false, null));
        }
        Heatmap heat = new Heatmap();
        robot.interact(() -> {
            heat.viewProperty().set(new Calendar.View(KeyType.DATE, to.toString(), cells, List.of()));
            stage.setScene(new Scene(new StackPane(heat), width, 500));
            stage.show();
        });
        WaitForAsyncUtils.waitForFxEvents();
        return heat;
    }

    /** Seen: the week of 1 December (a Tuesday, in the last column) had no month label. */
    @Test
    void aMonthStartingMidWeekInTheLastColumnIsLabelled(FxRobot robot) {
        Heatmap heat = shown(robot, LocalDate.of(2026, 11, 2), LocalDate.of(2026, 12, 1), 1100);
        List<Heatmap.MonthLabel> labels = heat.labels();
        assertThat(labels).extracting(Heatmap.MonthLabel::text).containsExactly("Nov 2026", "Dec");
        // each label is over the column its month's first day is in (or the first column)
        List<Calendar.Cell> cells = heat.viewProperty().get().cells();
        Heatmap.MonthLabel dec = labels.get(1);
        assertThat(cells.get(dec.cell()).firstDay()).isEqualTo(LocalDate.of(2026, 12, 1));
        assertThat(dec.x()).isEqualTo(labels.get(0).x() + 4 * (heat.cellSize() + 3), org.assertj.core.data.Offset.offset(0.5));
    }

    /** A month of days (five columns) fills more of a wide page: cells grow past 30 px, to their maximum. */
    @Test
    void cellsGrowToTheirMaximumWhenThereIsRoom(FxRobot robot) {
        Heatmap heat = shown(robot, LocalDate.of(2026, 11, 2), LocalDate.of(2026, 12, 1), 1100);
        assertThat(heat.cellSize()).isEqualTo(Heatmap.MAX_CELL).isGreaterThan(30);
        // a year at the same width: smaller cells, still filling the width
        Heatmap year = shown(robot, LocalDate.of(2025, 12, 2), LocalDate.of(2026, 12, 1), 1100);
        assertThat(year.cellSize()).isLessThan(Heatmap.MAX_CELL).isGreaterThanOrEqualTo(Heatmap.MIN_CELL);
        javafx.scene.Node canvas = year.getChildrenUnmodifiable().get(0);
        assertThat(canvas.getLayoutBounds().getWidth()).isGreaterThan(1100 * 0.9);
    }

    /** Seen in Chinese at 1440 px: "2025年12月" and "2026年1月" ran into each other over a year of weeks. */
    @Test
    void chineseMonthLabelsDoNotRunIntoEachOther(FxRobot robot) throws Exception {
        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            Heatmap heat = aYearOfWeeks(robot, 1100);
            List<Heatmap.MonthLabel> labels = heat.labels();
            assertThat(labels).extracting(Heatmap.MonthLabel::text).contains("2026年1月");
            for (int i = 1; i < labels.size(); i++) {
                Heatmap.MonthLabel a = labels.get(i - 1);
                double drawn = io.keyline.ui.login.ChineseScreensTest.fx(() -> {
                    javafx.scene.text.Text t = new javafx.scene.text.Text(a.text());
                    t.setFont(javafx.scene.text.Font.font(11));
                    return t.getLayoutBounds().getWidth();
                });
                assertThat(labels.get(i).x() - a.x()).as("after %s", a.text()).isGreaterThan(drawn);
            }
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
    }

    private Heatmap aYearOfWeeks(FxRobot robot, double width) {
        List<Calendar.Cell> cells = new ArrayList<>();
        LocalDate monday = LocalDate.of(2025, 12, 8);
        for (int w = 0; w < 52; w++) {
            LocalDate d = monday.plusWeeks(w);
            String key = d.get(java.time.temporal.IsoFields.WEEK_BASED_YEAR) + "-W"
                    + String.format("%02d", d.get(java.time.temporal.IsoFields.WEEK_OF_WEEK_BASED_YEAR));
            cells.add(new Calendar.Cell(key, d, KeyState.DONE, false, false, null));
        }
        Heatmap heat = new Heatmap();
        robot.interact(() -> {
            heat.viewProperty().set(new Calendar.View(KeyType.WEEK, cells.get(51).key(), cells, List.of()));
            stage.setScene(new Scene(new StackPane(heat), width, 200));
            stage.show();
        });
        WaitForAsyncUtils.waitForFxEvents();
        return heat;
    }

    /** Seen at 1024 px: a year of weeks showed "Dec 2025", then "Feb": January and its year were dropped. */
    @Test
    void aYearOfWeeksNamesJanuaryWithItsYearAndKeepsTheLastLabelInside(FxRobot robot) {
        Heatmap heat = aYearOfWeeks(robot, 700);
        List<String> texts = heat.labels().stream().map(Heatmap.MonthLabel::text).toList();
        assertThat(texts).contains("Jan 2026");
        assertThat(texts.get(0)).as("the first label names its year").matches("[A-Z][a-z]{2} 20\\d\\d");
        javafx.scene.Node canvas = heat.getChildrenUnmodifiable().get(0);
        Heatmap.MonthLabel last = heat.labels().get(heat.labels().size() - 1);
        assertThat(last.x() + last.text().length() * 6.5).as("the last label ends inside the canvas")
                .isLessThanOrEqualTo(canvas.getLayoutBounds().getWidth());
        // labels never overlap
        for (int i = 1; i < heat.labels().size(); i++) {
            Heatmap.MonthLabel a = heat.labels().get(i - 1);
            assertThat(heat.labels().get(i).x() - a.x()).as("after %s", a.text())
                    .isGreaterThanOrEqualTo(a.text().length() * 6.5 + 6);
        }
    }
}
