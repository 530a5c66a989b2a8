package io.keyline.ui.shell;

import io.keyline.core.SchedulerControl;
import io.keyline.core.SchedulerControl.Mode;
import io.keyline.core.SchedulerControl.Status;
import io.keyline.core.SchedulerControl.Upcoming;
import io.keyline.testing.MutableClock;
import io.keyline.ui.common.Threads;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The status bar line and tooltip of the embedded scheduler, and its pause switch (plain JUnit). */
class SchedulerViewModelTest {

    static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");
    final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T11:00:00Z")); // 19:00 in Shanghai

    /** A scheduler whose status the test sets. */
    static final class FakeScheduler implements SchedulerControl {
        boolean enabled = true;
        List<Upcoming> due = List.of();
        Upcoming next;

        @Override
        public Status status() {
            return new Status(enabled ? Mode.ON : Mode.PAUSED, null, due, next, Instant.parse("2026-11-29T11:00:25Z"),
                    Duration.ofDays(7), null);
        }

        @Override
        public void enable() {
            enabled = true;
        }

        @Override
        public void disable() {
            enabled = false;
        }
    }

    @Test
    void showsTheNextTickAndWhatItIsAboutToCatchUp() {
        FakeScheduler s = new FakeScheduler();
        s.next = new Upcoming("daily-article", "2026-11-30", ZonedDateTime.of(2026, 11, 30, 9, 0, 0, 0, SHANGHAI), false,
                null);
        SchedulerViewModel vm = new SchedulerViewModel(s, Threads.direct(), clock);
        vm.refresh();
        assertThat(vm.textProperty().get()).isEqualTo("Scheduler: on · next: daily-article 2026-11-30 09:00 (in 14 h)");
        assertThat(vm.detailProperty().get()).startsWith("Nothing is due.").contains("Catch-up window: 7 days");

        s.due = List.of(
                new Upcoming("daily-article", "2026-11-27", ZonedDateTime.of(2026, 11, 27, 9, 0, 0, 0, SHANGHAI), true,
                        io.keyline.text.Said.of("core.plan.catchUp", "2026-11-27 09:00")),
                new Upcoming("daily-article", "2026-11-29", ZonedDateTime.of(2026, 11, 29, 9, 0, 0, 0, SHANGHAI), false,
                        null));
        vm.refresh();
        assertThat(vm.textProperty().get()).startsWith("Scheduler: on · about to run 2 keys (1 catch-up) in a moment");
        assertThat(vm.detailProperty().get()).contains("About to run:")
                .contains("daily-article 2026-11-27  (catch-up: missed tick 2026-11-27 09:00)")
                .contains("daily-article 2026-11-29\n");
    }

    @Test
    void inChineseTheTimeStandsBeforeWhatIsAboutToRun() {
        FakeScheduler s = new FakeScheduler();
        s.next = new Upcoming("daily-article", "2026-11-30", ZonedDateTime.of(2026, 11, 30, 9, 0, 0, 0, SHANGHAI), false,
                null);
        s.due = List.of(new Upcoming("daily-article", "2026-11-29", ZonedDateTime.of(2026, 11, 29, 9, 0, 0, 0, SHANGHAI),
                false, null));
        SchedulerViewModel vm = new SchedulerViewModel(s, Threads.direct(), clock);
        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            vm.refresh();
            assertThat(vm.textProperty().get()).isEqualTo("调度器：开启 · 马上运行 1 个任务项 · 下一次：daily-article "
                    + "2026-11-30 09:00（14 小时后）");
            s.due = List.of(new Upcoming("daily-article", "2026-11-27",
                    ZonedDateTime.of(2026, 11, 27, 9, 0, 0, 0, SHANGHAI), true, null), s.due.get(0));
            vm.refresh();
            assertThat(vm.textProperty().get()).startsWith("调度器：开启 · 马上运行 2 个任务项（其中 1 个补跑） · ");
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
        vm.refresh();
        assertThat(vm.textProperty().get()).isEqualTo("Scheduler: on · about to run 2 keys (1 catch-up) in a moment · "
                + "next: daily-article 2026-11-30 09:00 (in 14 h)");
    }

    @Test
    void theStartupNoteSaysItForOneKeyAndThemForMore() {
        List<String> said = new java.util.ArrayList<>();
        for (int keys : new int[] {1, 2}) {
            for (java.util.Locale lang : List.of(io.keyline.text.Text.ENGLISH, io.keyline.text.Text.CHINESE)) {
                FakeScheduler s = new FakeScheduler();
                s.due = java.util.stream.IntStream.rangeClosed(1, keys).mapToObj(d -> new Upcoming("daily-article",
                        "2026-11-2" + d, ZonedDateTime.of(2026, 11, 20 + d, 9, 0, 0, 0, SHANGHAI), false, null)).toList();
                SchedulerViewModel vm = new SchedulerViewModel(s, Threads.direct(), clock);
                vm.onUpcoming(said::add);
                io.keyline.text.Text.use(lang);
                try {
                    vm.refresh();
                } finally {
                    io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
                }
            }
        }
        assertThat(said).hasSize(4);
        assertThat(said.get(0)).startsWith("The scheduler will run 1 key ").endsWith(". Pause the scheduler to hold it.");
        assertThat(said.get(1)).startsWith("调度器将在").contains("运行 1 个任务项。").endsWith("暂停调度器可以让它等待。");
        assertThat(said.get(2)).startsWith("The scheduler will run 2 keys ").endsWith(". Pause the scheduler to hold them.");
        assertThat(said.get(3)).contains("运行 2 个任务项。").endsWith("暂停调度器可以让它们等待。");
    }

    @Test
    void aTickThatRanManyKeysListsThemWithTheLanguagesListWords() {
        SchedulerViewModel vm = new SchedulerViewModel(new FakeScheduler(), Threads.direct(), clock);
        List<String> said = new java.util.ArrayList<>();
        vm.onRan(said::add);
        List<String> keys = List.of("a 1", "a 2", "a 3", "a 4", "a 5", "a 6");
        List<io.keyline.domain.KeyState> done = keys.stream().map(k -> io.keyline.domain.KeyState.DONE).toList();
        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            vm.ran(new SchedulerControl.Ran(Instant.parse("2026-11-29T11:00:00Z"), keys, done));
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
        vm.ran(new SchedulerControl.Ran(Instant.parse("2026-11-29T11:05:00Z"), keys, done));
        assertThat(said).hasSize(2);
        assertThat(said.get(0)).endsWith("（a 1、a 2、a 3、a 4、a 5、…）");
        assertThat(said.get(1)).endsWith(" (a 1, a 2, a 3, a 4, a 5, …)");
    }

    @Test
    void whenNoTickWillStartAKeyItSaysSoInsteadOfClaimingThereAreNoScheduledJobs() {
        // the job is scheduled, but every key its next ticks would name waits for a person
        SchedulerViewModel vm = new SchedulerViewModel(new FakeScheduler(), Threads.direct(), clock);
        vm.refresh();
        assertThat(vm.textProperty().get()).isEqualTo("Scheduler: on · nothing scheduled to start");
        io.keyline.text.Text.use(io.keyline.text.Text.CHINESE);
        try {
            vm.refresh();
            assertThat(vm.textProperty().get()).isEqualTo("调度器：开启 · 没有要定时启动的任务项");
        } finally {
            io.keyline.text.Text.use(io.keyline.text.Text.ENGLISH);
        }
    }

    @Test
    void theSwitchPausesAndResumesTheScheduler() {
        FakeScheduler s = new FakeScheduler();
        SchedulerViewModel vm = new SchedulerViewModel(s, Threads.direct(), clock);
        vm.refresh();
        assertThat(vm.modeProperty().get()).isEqualTo(Mode.ON);
        vm.toggle();
        assertThat(s.enabled).isFalse();
        assertThat(vm.modeProperty().get()).isEqualTo(Mode.PAUSED);
        assertThat(vm.textProperty().get()).startsWith("Scheduler: PAUSED");
        vm.toggle();
        assertThat(s.enabled).isTrue();
        assertThat(vm.textProperty().get()).startsWith("Scheduler: on");
    }

    @Test
    void withoutASchedulerItSaysSo() {
        SchedulerViewModel vm = new SchedulerViewModel(SchedulerControl.NONE, Threads.direct(), clock);
        vm.refresh();
        assertThat(vm.textProperty().get()).isEqualTo("Scheduler: off (run 'keyline run --due' from cron)");
        vm.toggle();
        assertThat(vm.modeProperty().get()).isEqualTo(Mode.OFF);
    }
}
