package io.keyline.ui.shell;

import io.keyline.core.SchedulerControl;
import io.keyline.core.SchedulerControl.Mode;
import io.keyline.core.SchedulerControl.Status;
import io.keyline.core.SchedulerControl.Upcoming;
import io.keyline.text.Text;
import io.keyline.ui.common.Format;
import io.keyline.ui.common.Threads;
import io.keyline.ui.common.ViewModel;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * The status bar's view of the embedded scheduler: one line ("Scheduler: on · next: daily-article
 * 2026-11-30 09:00 (in 14 h)"), the keys it is about to run (catch-ups marked) for the tooltip, and
 * the switch to pause it. The status is read in the background.
 */
public final class SchedulerViewModel extends ViewModel {

    private static final DateTimeFormatter TICK = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");
    private static final int LISTED = 20;

    private final SchedulerControl scheduler;
    private final Clock clock;
    private final ReadOnlyStringWrapper text = new ReadOnlyStringWrapper(Text.t("ui.scheduler.reading"));
    private final ReadOnlyStringWrapper detail = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<Mode> mode = new ReadOnlyObjectWrapper<>(Mode.OFF);
    private final ReadOnlyStringWrapper banner = new ReadOnlyStringWrapper("");
    private java.time.Instant lastRanAt;
    private java.util.function.Consumer<String> onRan = text -> { };
    private java.util.function.Consumer<String> onUpcoming = text -> { };
    private boolean announced;

    public SchedulerViewModel(SchedulerControl scheduler, Threads threads, Clock clock) {
        super(threads);
        this.scheduler = scheduler;
        this.clock = clock;
    }

    /** Called on the UI thread with one line after a tick that ran keys: "Scheduler: 8 keys ran: 8 done". */
    public void onRan(java.util.function.Consumer<String> listener) {
        this.onRan = listener;
    }

    /**
     * Called once, on the UI thread, when the scheduler is first seen about to start keys (the catch-up
     * after the console opens): "The scheduler will run 3 keys (2 catch-up) in 25 s".
     */
    public void onUpcoming(java.util.function.Consumer<String> listener) {
        this.onUpcoming = listener;
    }

    /** Reads the scheduler's status in the background. */
    public void refresh() {
        refresh(() -> new Read(scheduler.status(), scheduler.lastRan()), r -> {
            apply(r.status());
            ran(r.ran());
        }, e -> {
            text.set(Text.t("ui.scheduler.unavailable"));
            detail.set(String.valueOf(e.getMessage()));
        });
    }

    /** Pauses the scheduler when it is on, turns it on when it is paused; one change at a time. */
    public void toggle() {
        Mode m = mode.get();
        if (m == Mode.OFF) {
            return;
        }
        act(() -> {
            if (m == Mode.ON) {
                scheduler.disable();
            } else {
                scheduler.enable();
            }
            return scheduler.status();
        }, this::apply, e -> detail.set(String.valueOf(e.getMessage())));
    }

    private record Read(Status status, SchedulerControl.Ran ran) {
    }

    void apply(Status s) {
        if (!announced && s.mode() != Mode.OFF) {
            announced = true;
            if (s.mode() == Mode.ON && !s.dueNow().isEmpty()) {
                long catchUps = s.dueNow().stream().filter(Upcoming::catchUp).count();
                onUpcoming.accept(Text.t("ui.scheduler.willRun", s.dueNow().size(), catchUps,
                        s.nextTick() == null ? Text.t("ui.scheduler.shortly") : Format.relative(s.nextTick(), clock.instant())));
            }
        }
        mode.set(s.mode());
        text.set(line(s, clock.instant()));
        detail.set(details(s));
        banner.set(s.mode() != Mode.PAUSED ? "" : s.dueNow().isEmpty() ? Text.t("ui.scheduler.pausedBanner")
                : Text.t("ui.scheduler.pausedBannerDue", s.dueNow().size()));
    }

    /** A tick that ran keys, said once. */
    void ran(SchedulerControl.Ran r) {
        if (r == null || r.at().equals(lastRanAt)) {
            return;
        }
        lastRanAt = r.at();
        java.util.Map<io.keyline.domain.KeyState, Integer> counts = new java.util.EnumMap<>(io.keyline.domain.KeyState.class);
        r.states().forEach(st -> counts.merge(st, 1, Integer::sum));
        int n = r.keys().size();
        String separator = Text.t("common.listSeparator");
        onRan.accept(Text.t("ui.scheduler.ran", n, io.keyline.core.operations.Words.counts(counts),
                String.join(separator, r.keys().stream().limit(5).toList()) + (n > 5 ? separator + "…" : "")));
    }

    /** "The scheduler is paused: …" while it is paused, else empty. */
    public ReadOnlyStringProperty bannerProperty() {
        return banner.getReadOnlyProperty();
    }

    static String line(Status s, Instant now) {
        if (s.mode() == Mode.OFF) {
            return Text.t("ui.scheduler.off");
        }
        StringBuilder sb = new StringBuilder(Text.t(s.mode() == Mode.ON ? "ui.scheduler.on" : "ui.scheduler.paused"));
        if (s.running() != null) {
            sb.append(" · ").append(Text.t("ui.scheduler.running", s.running()));
        }
        List<Upcoming> due = s.dueNow();
        if (!due.isEmpty()) {
            long catchUps = due.stream().filter(Upcoming::catchUp).count();
            String caughtUp = catchUps > 0 ? Text.t("ui.scheduler.catchUps", catchUps) : null;
            String when = s.mode() == Mode.ON && s.nextTick() != null && s.running() == null
                    ? Format.relative(s.nextTick(), now) : null;
            // the time is part of the sentence: each language puts it where it belongs ("马上运行 2 个任务项")
            String said;
            if (when != null) {
                said = caughtUp == null ? Text.t("ui.scheduler.aboutToRunAt", due.size(), when)
                        : Text.t("ui.scheduler.aboutToRunCatchUpsAt", due.size(), caughtUp, when);
            } else {
                said = Text.t(s.mode() == Mode.ON ? "ui.scheduler.aboutToRun" : "ui.scheduler.due", due.size());
                if (caughtUp != null) {
                    said += ' ' + caughtUp;
                }
            }
            sb.append(" · ").append(said);
        }
        if (s.next() != null) {
            sb.append(" · ").append(Text.t("ui.scheduler.next", s.next().job(), TICK.format(s.next().tick()),
                    Format.relative(s.next().tick().toInstant(), now)));
        } else if (due.isEmpty()) {
            sb.append(" · ").append(Text.t("ui.scheduler.nothingNext"));
        }
        return sb.toString();
    }

    static String details(Status s) {
        StringBuilder sb = new StringBuilder();
        if (s.mode() == Mode.OFF) {
            return Text.t("ui.scheduler.none");
        }
        if (s.dueNow().isEmpty()) {
            sb.append(Text.t("ui.scheduler.nothingDue"));
        } else {
            sb.append(Text.t(s.mode() == Mode.ON ? "ui.scheduler.aboutToRunList" : "ui.scheduler.dueList"));
            s.dueNow().stream().limit(LISTED).forEach(u -> sb.append("\n  ").append(u.job()).append(' ').append(u.key())
                    .append(u.note() != null ? "  (" + u.note() + ")" : u.tick() == null ? "  " + Text.t("ui.scheduler.pendingOrRetry") : ""));
            if (s.dueNow().size() > LISTED) {
                sb.append("\n  … ").append(Text.t("common.andMore", s.dueNow().size() - LISTED));
            }
            sb.append('\n').append(Text.t("ui.scheduler.seePlan"));
        }
        sb.append('\n').append(Text.t("ui.scheduler.window", human(s.window())));
        if (s.problem() != null) {
            sb.append('\n').append(Text.t("ui.scheduler.problem", s.problem()));
        }
        return sb.toString();
    }

    private static String human(Duration d) {
        return d.toHours() % 24 == 0 && d.toMinutesPart() == 0 ? Text.t("ui.scheduler.days", d.toDays()) : d.toString();
    }

    public ReadOnlyStringProperty textProperty() {
        return text.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty detailProperty() {
        return detail.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Mode> modeProperty() {
        return mode.getReadOnlyProperty();
    }
}
