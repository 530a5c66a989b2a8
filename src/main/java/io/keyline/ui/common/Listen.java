package io.keyline.ui.common;

import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableValue;
import javafx.beans.value.WeakChangeListener;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.collections.WeakListChangeListener;
import javafx.scene.Node;

import java.util.ArrayList;
import java.util.List;

/**
 * Listening to a model that outlives the view: the model holds the listener weakly and the view strongly, so a
 * view that is let go (the console built again in another language) is not kept alive by the models it listened
 * to, and goes on hearing them as long as it lives.
 */
public final class Listen {

    private static final String HELD = "keyline.listeners";

    private Listen() {
    }

    /** {@code listener} hears {@code list} as long as {@code view} lives. */
    public static <T> void toList(Node view, ObservableList<T> list, ListChangeListener<T> listener) {
        hold(view, listener);
        list.addListener(new WeakListChangeListener<>(listener));
    }

    /** {@code listener} hears {@code value} as long as {@code view} lives. */
    public static <T> void toValue(Node view, ObservableValue<T> value, ChangeListener<T> listener) {
        hold(view, listener);
        value.addListener(new WeakChangeListener<>(listener));
    }

    private static void hold(Node view, Object listener) {
        ((Held) view.getProperties().computeIfAbsent(HELD, k -> new Held())).listeners.add(listener);
    }

    /** The listeners a view holds (in its properties). */
    private static final class Held {
        final List<Object> listeners = new ArrayList<>();
    }
}
