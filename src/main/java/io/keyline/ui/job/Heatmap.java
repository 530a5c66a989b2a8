package io.keyline.ui.job;

import io.keyline.core.operations.Calendar;
import io.keyline.domain.KeyType;
import io.keyline.text.Text;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Palette;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.geometry.Insets;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.Region;
import javafx.scene.text.Font;
import javafx.util.Duration;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A job's calendar drawn on one Canvas, its cells sized to the width it is given: days as a
 * week-by-weekday grid (weeks are columns), weeks and months as one row. Month labels sit over the
 * first cell of each month (a week belongs to the month of its Thursday, as ISO weeks do). Keys that
 * should exist but never ran are outlined in the missing colour. Cells can be selected (outlined): a
 * click selects one, a drag selects a run of keys; selecting missing keys asks for their plan.
 */
public final class Heatmap extends Region {

    static final double MAX_CELL = 36;
    static final double MIN_CELL = 10;
    static final double GAP = 3;
    private static final double LEFT = 32;
    private static final double TOP = 18;

    /**
     * A month label as drawn.
     *
     * @param text  "Dec", or "Dec 2026" at the first label and each January
     * @param cell  the index of the cell it sits over
     * @param x     its left edge
     */
    public record MonthLabel(String text, int cell, double x) {
    }

    private final Canvas canvas = new Canvas();
    private final Tooltip tip = new Tooltip();
    private final ObjectProperty<Calendar.View> view = new SimpleObjectProperty<>(Calendar.View.NONE);
    private final Set<String> selected = new LinkedHashSet<>();
    private final List<MonthLabel> labels = new ArrayList<>();
    private double cell = 14;
    private int anchor = -1;
    private Consumer<String> onPick = k -> { };
    private Consumer<List<String>> onPlanGaps = k -> { };

    public Heatmap() {
        getChildren().add(canvas);
        getStyleClass().add("heatmap");
        maxHeightProperty().addListener((o, a, b) -> requestLayout());
        setPadding(new Insets(0));
        tip.setShowDelay(Duration.millis(150));
        Tooltip.install(canvas, tip);
        view.addListener((o, a, b) -> {
            selected.retainAll(b.cells().stream().map(Calendar.Cell::key).toList());
            requestLayout();
            draw();
        });
        canvas.setOnMouseMoved(this::hover);
        canvas.setOnMousePressed(e -> {
            anchor = index(e);
            if (anchor >= 0) {
                select(anchor, anchor);
            }
        });
        canvas.setOnMouseDragged(e -> {
            int i = index(e);
            if (anchor >= 0 && i >= 0) {
                select(Math.min(anchor, i), Math.max(anchor, i));
            }
        });
        canvas.setOnMouseReleased(e -> finish());
        Palette.darkProperty().addListener((o, a, b) -> draw());
    }

    /** The calendar shown. */
    public ObjectProperty<Calendar.View> viewProperty() {
        return view;
    }

    /** Called with the key of one clicked cell that is not missing (the key table then shows it). */
    public void onPick(Consumer<String> handler) {
        onPick = handler;
    }

    /** Called with the missing keys of a selection (one clicked gap, or the gaps of a drag): plan exactly those. */
    public void onPlanGaps(Consumer<List<String>> handler) {
        onPlanGaps = handler;
    }

    /** Outlines exactly these keys (e.g. the key table's selection). */
    public void select(java.util.Collection<String> keys) {
        selected.clear();
        selected.addAll(keys);
        draw();
    }

    /** The keys outlined now, oldest first. */
    public List<String> selectedKeys() {
        return view.get().cells().stream().map(Calendar.Cell::key).filter(selected::contains).toList();
    }

    /** The month labels as drawn (for tests and the eye). */
    public List<MonthLabel> labels() {
        return List.copyOf(labels);
    }

    /** The width and height of one cell now. */
    public double cellSize() {
        return cell;
    }

    private void select(int from, int to) {
        selected.clear();
        List<Calendar.Cell> cells = view.get().cells();
        for (int i = from; i <= to && i < cells.size(); i++) {
            selected.add(cells.get(i).key());
        }
        draw();
    }

    private void finish() {
        if (anchor < 0) {
            return;
        }
        anchor = -1;
        List<Calendar.Cell> sel = view.get().cells().stream().filter(c -> selected.contains(c.key())).toList();
        List<String> gaps = sel.stream().filter(Calendar.Cell::gap).map(Calendar.Cell::key).toList();
        if (!gaps.isEmpty()) {
            onPlanGaps.accept(gaps);
        } else if (sel.size() == 1) {
            onPick.accept(sel.get(0).key());
        }
    }

    private boolean daily() {
        return view.get().type() == KeyType.DATE;
    }

    private int rows() {
        return view.get().cells().isEmpty() ? 0 : daily() ? 7 : 1;
    }

    private int offset() {
        List<Calendar.Cell> cells = view.get().cells();
        return daily() && !cells.isEmpty() ? cells.get(0).firstDay().getDayOfWeek().getValue() - 1 : 0;
    }

    private int columns() {
        int n = view.get().cells().size();
        if (n == 0) {
            return 0;
        }
        return daily() ? (offset() + n + 6) / 7 : n;
    }

    /** The cells fill the width, as large as {@link #MAX_CELL} and as the height the parent allows (its max height). */
    private double cellFor(double width) {
        int cols = columns();
        if (cols == 0) {
            return MIN_CELL;
        }
        double c = (width - LEFT - 4) / cols - GAP;
        double most = getMaxHeight();
        if (most > 0 && most < Double.MAX_VALUE) {
            c = Math.min(c, (most - TOP - 4) / rows() - GAP);
        }
        return Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor(c)));
    }

    @Override
    protected double computePrefWidth(double height) {
        return LEFT + columns() * (MAX_CELL + GAP) + 4;
    }

    @Override
    protected double computeMinWidth(double height) {
        return LEFT + columns() * (MIN_CELL + GAP) + 4;
    }

    /** Its height follows its width (the cells are square and fill the width): parents ask with a width. */
    @Override
    public javafx.geometry.Orientation getContentBias() {
        return javafx.geometry.Orientation.HORIZONTAL;
    }

    @Override
    protected double computePrefHeight(double width) {
        // without a width, the height at the preferred width (never the last drawn cell: that clipped 7 rows)
        double c = cellFor(width > 0 ? width : computePrefWidth(-1));
        return TOP + rows() * (c + GAP) + 4;
    }

    @Override
    protected double computeMinHeight(double width) {
        return computePrefHeight(width);
    }

    @Override
    protected void layoutChildren() {
        double w = getWidth();
        double c = cellFor(w);
        if (c != cell) {
            cell = c;
            requestParentLayout(); // the height follows the cell size
        }
        canvas.setWidth(Math.max(0, Math.min(w, LEFT + columns() * (cell + GAP) + 4)));
        canvas.setHeight(TOP + rows() * (cell + GAP) + 4);
        draw();
    }

    /** Column and row of cell {@code i}. */
    private int[] position(int i) {
        if (daily()) {
            return new int[] {(offset() + i) / 7, (offset() + i) % 7};
        }
        return new int[] {i, 0};
    }

    /** The month a cell belongs to: a week's is the month of its Thursday. */
    private static LocalDate monthDay(Calendar.Cell c, KeyType type) {
        return type == KeyType.WEEK ? c.firstDay().plusDays(3) : c.firstDay();
    }

    private void draw() {
        GraphicsContext g = canvas.getGraphicsContext2D();
        g.clearRect(0, 0, canvas.getWidth(), canvas.getHeight());
        List<Calendar.Cell> cells = view.get().cells();
        labels.clear();
        g.setFont(Font.font(11));
        g.setFill(Palette.muted());
        if (daily()) {
            for (DayOfWeek d : new DayOfWeek[] {DayOfWeek.MONDAY, DayOfWeek.WEDNESDAY, DayOfWeek.FRIDAY}) {
                g.fillText(d.getDisplayName(TextStyle.SHORT, Text.locale()), 0,
                        TOP + (d.getValue() - 1) * (cell + GAP) + cell * 0.7);
            }
        }
        int lastMonth = -1;
        for (int i = 0; i < cells.size(); i++) {
            Calendar.Cell c = cells.get(i);
            int[] p = position(i);
            double x = LEFT + p[0] * (cell + GAP);
            double y = TOP + p[1] * (cell + GAP);
            LocalDate m = monthDay(c, view.get().type());
            int month = m.getYear() * 12 + m.getMonthValue();
            // a label over the first cell of a month (daily: over the column its 1st is in, so that a month
            // starting mid-week in the last column - December on the 1st - is named too)
            if (month != lastMonth && (!daily() || m.getDayOfMonth() == 1 || i == 0)) {
                label(m, i, x);
                lastMonth = month;
            }
            drawCell(g, c, x, y);
        }
        g.setFill(Palette.muted());
        for (MonthLabel l : labels) {
            g.fillText(l.text(), l.x(), TOP - 5);
        }
    }

    /**
     * Adds the label of month {@code m} over cell {@code i} where it does not run into the one before it.
     * The first label and each January carry the year, so a January never gives way to the month before
     * it (that one goes instead, and the year moves to the label that is first now); a label that would
     * run past the right edge is drawn ending at it.
     */
    private void label(LocalDate m, int i, double x) {
        boolean january = m.getMonthValue() == 1;
        if (!labels.isEmpty() && x - labels.get(labels.size() - 1).x() < textWidth(labels.get(labels.size() - 1).text())) {
            if (!january && labels.size() > 1) {
                return;
            }
            labels.remove(labels.size() - 1);
        }
        String month = m.getMonth().getDisplayName(TextStyle.SHORT, Text.locale());
        String text = labels.isEmpty() || january ? Text.t("ui.heatmap.monthYear", month, String.valueOf(m.getYear()))
                : month;
        double right = canvas.getWidth() - 2;
        double at = right > 0 ? Math.min(x, right - textWidth(text) + 6) : x;
        if (!labels.isEmpty() && at - labels.get(labels.size() - 1).x() < textWidth(labels.get(labels.size() - 1).text())) {
            return;
        }
        labels.add(new MonthLabel(text, i, at));
    }

    /** The width of a month label as drawn (11 px), with a gap: measured, as a Chinese month is twice as wide. */
    static double textWidth(String s) {
        javafx.scene.text.Text t = new javafx.scene.text.Text(s);
        t.setFont(Font.font(11));
        return Math.ceil(t.getLayoutBounds().getWidth()) + 6;
    }

    private void drawCell(GraphicsContext g, Calendar.Cell c, double x, double y) {
        double r = Math.max(3, cell / 5);
        if (c.beforeStart()) {
            g.setFill(Palette.beforeStart());
            g.fillRoundRect(x, y, cell, cell, r, r);
        } else if (c.state() == null && c.notYetDue()) {
            g.setFill(Palette.gap());
            g.fillRoundRect(x, y, cell, cell, r, r);
            g.setStroke(Palette.gapBorder());
            g.setLineWidth(1);
            g.strokeRoundRect(x + 0.5, y + 0.5, cell - 1, cell - 1, r, r);
        } else if (c.state() == null) {
            g.setFill(Palette.gap());
            g.fillRoundRect(x, y, cell, cell, r, r);
            g.setStroke(Palette.missing());
            g.setLineWidth(1.5);
            g.setLineDashes(3, 2);
            g.strokeRoundRect(x + 1, y + 1, cell - 2, cell - 2, r, r);
            g.setLineDashes();
        } else {
            g.setFill(Palette.of(c.state(), c.waitReason()));
            g.fillRoundRect(x, y, cell, cell, r, r);
        }
        if (selected.contains(c.key())) {
            g.setStroke(Palette.selectedBorder());
            g.setLineWidth(2.5);
            g.strokeRoundRect(x - 1.5, y - 1.5, cell + 3, cell + 3, r + 2, r + 2);
            g.setLineWidth(1);
        }
    }

    private int index(MouseEvent e) {
        List<Calendar.Cell> cells = view.get().cells();
        for (int i = 0; i < cells.size(); i++) {
            int[] p = position(i);
            double x = LEFT + p[0] * (cell + GAP);
            double y = TOP + p[1] * (cell + GAP);
            if (e.getX() >= x && e.getX() < x + cell + GAP && e.getY() >= y && e.getY() < y + cell + GAP) {
                return i;
            }
        }
        return -1;
    }

    private void hover(MouseEvent e) {
        int i = index(e);
        if (i < 0) {
            tip.setText("");
            return;
        }
        Calendar.Cell c = view.get().cells().get(i);
        String what = c.beforeStart() ? Text.t("ui.heatmap.beforeStart") : c.state() == null && c.notYetDue()
                ? Text.t("ui.heatmap.notYetDue") : c.state() == null
                ? Text.t("ui.heatmap.missing") : Format.state(c.state(), c.waitReason());
        tip.setText(c.key() + "  ·  " + what);
    }

    /** The pixel position of a cell's centre (tests drive the mouse with it). */
    public javafx.geometry.Point2D centreOf(String key) {
        List<Calendar.Cell> cells = view.get().cells();
        for (int i = 0; i < cells.size(); i++) {
            if (cells.get(i).key().equals(key)) {
                int[] p = position(i);
                return new javafx.geometry.Point2D(LEFT + p[0] * (cell + GAP) + cell / 2,
                        TOP + p[1] * (cell + GAP) + cell / 2);
            }
        }
        throw new IllegalArgumentException(Text.t("ui.heatmap.noCell", key));
    }
}
