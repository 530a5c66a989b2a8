package io.keyline.ui.plan;

import io.keyline.text.Text;
import io.keyline.core.OperatorException;
import io.keyline.core.operations.KeySelection;
import io.keyline.domain.InvalidKeyException;
import io.keyline.domain.JobDefinition;
import io.keyline.domain.KeyType;
import io.keyline.ui.ConsoleServices;
import io.keyline.ui.common.Threads;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.beans.value.ChangeListener;

import java.util.List;
import java.util.function.Consumer;

/**
 * The key choice of the Plan dialog: job, target (today, a range, the due keys, keys named one by
 * one) with its own input each, and "run ahead of schedule". It turns the inputs into the core's
 * {@link KeySelection.Choice}, checked as they are typed with the command line's messages.
 */
public final class PlanChoice {

    /** Which keys a plan targets. */
    public enum Target {
        TODAY, RANGE, DUE, KEYS;

        /** The target's name on its button. */
        public String label() {
            return Text.t("ui.plan.target." + name().toLowerCase(java.util.Locale.ROOT));
        }
    }

    private final ConsoleServices services;
    private final Threads threads;
    private final StringProperty job = new SimpleStringProperty(this, "job");
    private final ObjectProperty<Target> target = new SimpleObjectProperty<>(this, "target", Target.TODAY);
    private final StringProperty from = new SimpleStringProperty(this, "from", "");
    private final StringProperty to = new SimpleStringProperty(this, "to", "");
    private final StringProperty keysText = new SimpleStringProperty(this, "keys", "");
    private final BooleanProperty ahead = new SimpleBooleanProperty(this, "ahead", false);
    private final ReadOnlyStringWrapper validation = new ReadOnlyStringWrapper(this, "validation", "");
    /** Whether the operator typed into the current target's input since choosing it. */
    private boolean touched;
    private final ReadOnlyBooleanWrapper manualKeys = new ReadOnlyBooleanWrapper(this, "manualKeys");
    private JobDefinition definition;

    /**
     * @param changed called (on the UI thread) whenever the choice changed: the plan on screen is stale
     * @param failed  gets a message when the job cannot be read
     */
    PlanChoice(ConsoleServices services, Threads threads, Runnable changed, Consumer<String> failed) {
        this.services = services;
        this.threads = threads;
        ChangeListener<Object> choiceChanged = (o, a, b) -> {
            changed.run();
            validate();
        };
        // the inputs are checked as the operator types; a target just chosen (nothing typed yet) shows no
        // error until Plan is pressed
        ChangeListener<Object> typed = (o, a, b) -> {
            touched = true;
            choiceChanged.changed(o, a, b);
        };
        target.addListener((o, a, b) -> {
            touched = false;
            choiceChanged.changed(o, a, b);
        });
        from.addListener(typed);
        to.addListener(typed);
        keysText.addListener(typed);
        ahead.addListener(choiceChanged);
        job.addListener((o, a, b) -> {
            if (b != null && !b.equals(a)) {
                definition = null;
                changed.run();
                load(b, failed);
            }
        });
    }

    private void load(String name, Consumer<String> failed) {
        threads.submit(() -> services.job(name), d -> {
            if (name.equals(job.get())) {
                definition = d;
                manualKeys.set(d.key().type() == KeyType.MANUAL);
                if (manualKeys.get() && (target.get() == Target.TODAY || target.get() == Target.RANGE)) {
                    target.set(Target.KEYS);
                }
                validate();
            }
        }, e -> failed.accept(e.getMessage()));
    }

    /** Checks the inputs against the job's key rules as they are typed (no state access). */
    void validate() {
        if (definition == null || !touched) {
            validation.set("");
            return;
        }
        try {
            choice(definition);
            validation.set("");
        } catch (IllegalArgumentException | OperatorException e) {
            validation.set(io.keyline.ui.common.Format.problem(e));
        }
    }

    /** Shows why the chosen keys could not be planned. */
    void invalid(String message) {
        validation.set(message == null ? "" : message);
    }

    /**
     * What the inputs choose, as the command line's options would; checked except for the due keys,
     * which are read when planning.
     */
    KeySelection.Choice choice(JobDefinition d) {
        KeySelection.Choice c = switch (target.get()) {
            case TODAY -> KeySelection.Choice.current();
            case RANGE -> {
                if (from.get() == null || from.get().isBlank()) {
                    throw new InvalidKeyException(Text.t("ui.plan.needFrom"));
                }
                yield KeySelection.Choice.range(from.get().strip(), to.get() == null || to.get().isBlank() ? null
                        : to.get().strip());
            }
            case DUE -> KeySelection.Choice.dueKeys();
            case KEYS -> {
                List<String> raw = KeySelection.split(keysText.get());
                if (raw.isEmpty()) {
                    throw new InvalidKeyException(Text.t("ui.plan.needKeys"));
                }
                yield KeySelection.Choice.keys(raw);
            }
        };
        c = c.withAhead(ahead.get());
        if (!c.due()) {
            services.operations().select(d, c, null);
        }
        return c;
    }

    /** Chooses exactly these keys. */
    void keys(List<String> keys) {
        target.set(Target.KEYS);
        keysText.set(String.join(" ", keys));
    }

    public StringProperty jobProperty() {
        return job;
    }

    public ObjectProperty<Target> targetProperty() {
        return target;
    }

    public StringProperty fromProperty() {
        return from;
    }

    public StringProperty toProperty() {
        return to;
    }

    /** Explicit keys, separated by spaces, commas or new lines. */
    public StringProperty keysTextProperty() {
        return keysText;
    }

    /** Run ahead of schedule: keys later than the current one are planned (and applied) too. */
    public BooleanProperty aheadProperty() {
        return ahead;
    }

    /** What is wrong with the inputs (shown inline), or empty. */
    public ReadOnlyStringProperty validationProperty() {
        return validation.getReadOnlyProperty();
    }

    /** The job has manual keys: only named keys (and due) make sense. */
    public ReadOnlyBooleanProperty manualKeysProperty() {
        return manualKeys.getReadOnlyProperty();
    }
}
