package io.keyline.ui.common;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;

import static org.assertj.core.api.Assertions.assertThat;

/** The view models' shared background work, with the background held back until the test lets it run. */
class ViewModelTest {

    /** Background work waits here until {@link #runNext}. */
    final Queue<Runnable> background = new ArrayDeque<>();
    final Threads threads = new Threads(Runnable::run, background::add);
    final List<String> applied = new ArrayList<>();

    final class Probe extends ViewModel {
        int reads;

        Probe(Threads t) {
            super(t);
        }

        void load(String answer) {
            load(true, () -> answer, applied::add, e -> error.set(e.getMessage()));
        }

        void forget() {
            stale();
        }

        void reload() {
            refresh(() -> "read " + ++reads, applied::add, e -> error.set(e.getMessage()));
        }

        boolean told(java.util.concurrent.Callable<String> work) {
            return tell(work, e -> "failed: " + e.getMessage(), () -> applied.add("reloaded"));
        }

        boolean action(String answer) {
            return act(() -> answer, applied::add, e -> error.set(e.getMessage()));
        }
    }

    void runNext() {
        background.remove().run();
    }

    @Test
    void anOlderLoadsAnswerIsDroppedWhenANewerLoadStarted() {
        Probe vm = new Probe(threads);
        vm.load("old");
        vm.load("new");
        assertThat(vm.loadingProperty().get()).isTrue();
        runNext(); // the old answer comes back first
        assertThat(applied).isEmpty();
        assertThat(vm.loadingProperty().get()).isTrue();
        runNext();
        assertThat(applied).containsExactly("new");
        assertThat(vm.loadingProperty().get()).isFalse();
    }

    @Test
    void aLoadMadeStaleIsNoLongerShownAsLoading() {
        Probe vm = new Probe(threads);
        vm.load("old");
        vm.forget(); // an action's answer will show instead
        assertThat(vm.loadingProperty().get()).as("nothing that will be shown is loading").isFalse();
        runNext();
        assertThat(applied).isEmpty();
        assertThat(vm.loadingProperty().get()).isFalse();
    }

    @Test
    void aRefreshAskedForWhileOneRunsRunsOnceRightAfterIt() {
        Probe vm = new Probe(threads);
        vm.reload();
        vm.reload();
        vm.reload();
        assertThat(background).hasSize(1);
        runNext();
        assertThat(applied).containsExactly("read 1");
        assertThat(background).as("the reloads asked for meanwhile: one more").hasSize(1);
        runNext();
        assertThat(applied).containsExactly("read 1", "read 2");
        assertThat(background).isEmpty();
        assertThat(vm.loadingProperty().get()).isFalse();
    }

    @Test
    void anActionIsRefusedWhileAnotherRuns() {
        Probe vm = new Probe(threads);
        assertThat(vm.action("first")).isTrue();
        assertThat(vm.busyProperty().get()).isTrue();
        assertThat(vm.action("second")).isFalse();
        runNext();
        assertThat(applied).containsExactly("first");
        assertThat(vm.busyProperty().get()).isFalse();
        assertThat(background).isEmpty();
    }

    @Test
    void aToldActionSaysWhatItDidOrWhatFailedAndReloadsEitherWay() {
        Probe vm = new Probe(threads);
        assertThat(vm.told(() -> "Skipped 3 keys")).isTrue();
        assertThat(vm.told(() -> "second")).as("one action at a time").isFalse();
        runNext();
        assertThat(vm.noticeProperty().get()).isEqualTo("Skipped 3 keys");
        assertThat(applied).containsExactly("reloaded");
        vm.told(() -> {
            throw new IllegalStateException("the job file is gone");
        });
        runNext();
        assertThat(vm.noticeProperty().get()).isEqualTo("failed: the job file is gone");
        assertThat(applied).containsExactly("reloaded", "reloaded");
        assertThat(vm.busyProperty().get()).isFalse();
    }
}
