package io.keyline.ui.job;

import io.keyline.domain.KeyState;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Palette;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.Pane;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.util.Duration;

import java.time.DayOfWeek;
import java.time.format.TextStyle;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * A calendar heatmap of a job's keys drawn on one Canvas: days as a week-by-weekday grid, weeks and
 * months as rows of cells. Gaps (keys that should exist but never ran) are outlined empty cells.
 */
public final class Heatmap extends Pane {

    static final double CELL = 14;
    static final double GAP = 3;
    private static final double LEFT = 30;
    private static final double TOP = 16;

    private final Canvas canvas = new Canvas();
    private final Tooltip tip = new Tooltip();
    private List<HeatCell> cells = List.of();
    private boolean daily;
    private Consumer<HeatCell> onPick = c -> { };

    public Heatmap(ObservableList<HeatCell> source) {
        getChildren().add(canvas);
        getStyleClass().add("heatmap");
        tip.setShowDelay(Duration.millis(150));
        Tooltip.install(canvas, tip);
        source.addListener((ListChangeListener<HeatCell>) c -> show(List.copyOf(source)));
        canvas.setOnMouseMoved(this::hover);
        canvas.setOnMouseClicked(e -> {
            HeatCell c = at(e);
            if (c != null) {
                onPick.accept(c);
            }
        });
        Palette.darkProperty().addListener((o, a, b) -> draw());
        show(List.copyOf(source));
    }

    /** Called when the operator clicks a cell. */
    public void onPick(Consumer<HeatCell> handler) {
        onPick = handler;
    }

    public List<HeatCell> cells() {
        return cells;
    }

    private void show(List<HeatCell> next) {
        cells = next;
        daily = !next.isEmpty() && next.size() == 90;
        int cols = columns();
        int rows = rows();
        canvas.setWidth(LEFT + cols * (CELL + GAP) + 4);
        canvas.setHeight(TOP + rows * (CELL + GAP) + 4);
        setPrefSize(canvas.getWidth(), canvas.getHeight());
        setMinHeight(canvas.getHeight());
        draw();
    }

    private int rows() {
        if (cells.isEmpty()) {
            return 0;
        }
        return daily ? 7 : 2;
    }

    private int columns() {
        if (cells.isEmpty()) {
            return 0;
        }
        if (daily) {
            int offset = cells.get(0).firstDay().getDayOfWeek().getValue() - 1;
            return (offset + cells.size() + 6) / 7;
        }
        return (cells.size() + 1) / 2;
    }

    /** Column and row of cell {@code i}. */
    private int[] position(int i) {
        if (daily) {
            int offset = cells.get(0).firstDay().getDayOfWeek().getValue() - 1;
            return new int[] {(offset + i) / 7, (offset + i) % 7};
        }
        int perRow = columns();
        return new int[] {i % perRow, i / perRow};
    }

    private void draw() {
        GraphicsContext g = canvas.getGraphicsContext2D();
        g.clearRect(0, 0, canvas.getWidth(), canvas.getHeight());
        g.setFont(Font.font(10));
        g.setFill(Palette.muted());
        if (daily) {
            for (DayOfWeek d : new DayOfWeek[] {DayOfWeek.MONDAY, DayOfWeek.WEDNESDAY, DayOfWeek.FRIDAY}) {
                g.fillText(d.getDisplayName(TextStyle.SHORT, Locale.ENGLISH), 0, TOP + (d.getValue() - 1) * (CELL + GAP) + 11);
            }
        }
        String lastMonth = "";
        for (int i = 0; i < cells.size(); i++) {
            HeatCell c = cells.get(i);
            int[] p = position(i);
            double x = LEFT + p[0] * (CELL + GAP);
            double y = TOP + p[1] * (CELL + GAP);
            String month = c.firstDay().getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH);
            if ((daily && p[1] == 0 || !daily && p[1] == 0) && !month.equals(lastMonth)) {
                g.setFill(Palette.muted());
                g.fillText(month, x, TOP - 4);
                lastMonth = month;
            }
            if (c.beforeStart()) {
                g.setFill(Palette.gap().deriveColor(0, 1, 1, 0.4));
                g.fillRoundRect(x, y, CELL, CELL, 4, 4);
            } else if (c.state() == null) {
                g.setFill(Palette.gap());
                g.fillRoundRect(x, y, CELL, CELL, 4, 4);
                g.setStroke(Palette.gapBorder());
                g.setLineDashes(2, 2);
                g.strokeRoundRect(x + 0.5, y + 0.5, CELL - 1, CELL - 1, 4, 4);
                g.setLineDashes();
            } else {
                g.setFill(Palette.of(c.state()));
                g.fillRoundRect(x, y, CELL, CELL, 4, 4);
            }
        }
    }

    private HeatCell at(MouseEvent e) {
        for (int i = 0; i < cells.size(); i++) {
            int[] p = position(i);
            double x = LEFT + p[0] * (CELL + GAP);
            double y = TOP + p[1] * (CELL + GAP);
            if (e.getX() >= x && e.getX() < x + CELL && e.getY() >= y && e.getY() < y + CELL) {
                return cells.get(i);
            }
        }
        return null;
    }

    private void hover(MouseEvent e) {
        HeatCell c = at(e);
        if (c == null) {
            tip.setText("");
            return;
        }
        String what = c.beforeStart() ? "before key.start" : c.state() == null ? "never ran (gap)" : Format.state(c.state());
        tip.setText(c.key() + "  ·  " + what);
    }

    /** The colour a cell is drawn in (for tests and the legend). */
    public static Color colour(KeyState s) {
        return Palette.of(s);
    }
}
