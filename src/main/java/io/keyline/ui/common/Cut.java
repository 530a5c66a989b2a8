package io.keyline.ui.common;

import javafx.scene.Node;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.Tooltip;
import javafx.scene.text.Text;
import javafx.util.Callback;

import java.util.function.Function;

/**
 * Texts that the layout may cut short with an ellipsis show their whole text on hover. The tooltip is
 * there only while the text is cut, so a text that fits shows no second copy of itself.
 */
public final class Cut {

    private static final String INSTALLED = "keyline.cut";

    private Cut() {
    }

    /**
     * Gives {@code labeled} a tooltip with its whole text whenever the layout cuts it. The tooltip is made the
     * first time the text is cut: a tooltip is a popup window with a scene of its own, and a page of labels that
     * fit would otherwise build dozens of them before its first frame.
     */
    public static <T extends Labeled> T tip(T labeled) {
        if (labeled.getProperties().containsKey(INSTALLED)) {
            return labeled;
        }
        labeled.getProperties().put(INSTALLED, Boolean.TRUE);
        Tooltip[] made = new Tooltip[1];
        Runnable check = () -> {
            boolean cut = isCut(labeled);
            Tooltip tip = made[0];
            if (cut && tip == null) {
                tip = new Tooltip();
                tip.setWrapText(true);
                tip.setMaxWidth(640);
                tip.textProperty().bind(labeled.textProperty());
                made[0] = tip;
            }
            if (cut && labeled.getTooltip() != tip) {
                labeled.setTooltip(tip);
            } else if (!cut && tip != null && labeled.getTooltip() == tip) {
                labeled.setTooltip(null);
            }
        };
        // the drawn text is the skin's Text child: it changes whenever the layout cuts the text differently
        labeled.needsLayoutProperty().addListener((o, was, is) -> {
            if (!is) {
                check.run();
            }
        });
        labeled.textProperty().addListener((o, a, b) -> check.run());
        return labeled;
    }

    /** Whether the text drawn is shorter than the labeled's text (cut with an ellipsis). */
    public static boolean isCut(Labeled labeled) {
        String text = labeled.getText();
        Node drawn = labeled.lookup(".text");
        return text != null && !text.isEmpty() && drawn instanceof Text t && t.getText() != null
                && !t.getText().equals(text);
    }

    /** A cell factory of plain text cells that show their whole text on hover when it is cut. */
    public static <S> Callback<TableColumn<S, String>, TableCell<S, String>> cells(String... styleClasses) {
        return column -> {
            TableCell<S, String> cell = new TableCell<>() {
                @Override
                protected void updateItem(String item, boolean empty) {
                    super.updateItem(item, empty);
                    setText(empty ? null : item);
                }
            };
            cell.getStyleClass().addAll(styleClasses);
            return tip(cell);
        };
    }

    /**
     * A text column of {@code width} whose title is never cut (the column does not shrink below it) and whose
     * cells show their whole text on hover when cut.
     */
    public static <S> TableColumn<S, String> column(String title, double width, Function<S, String> value,
                                                    String... styleClasses) {
        TableColumn<S, String> c = new TableColumn<>(title);
        c.setCellValueFactory(d -> new javafx.beans.property.ReadOnlyStringWrapper(
                d.getValue() == null ? null : value.apply(d.getValue())));
        c.setCellFactory(cells(styleClasses));
        c.setPrefWidth(width);
        c.setMinWidth(titleWidth(title));
        return c;
    }

    /** The width a column needs to show {@code title} whole (its padding and sort arrow included). */
    public static double titleWidth(String title) {
        Text t = new Text(title);
        t.setStyle("-fx-font-weight: bold");
        return Math.ceil(t.getLayoutBounds().getWidth()) + 30;
    }
}
