package io.keyline.core;

import io.keyline.text.Said;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The words of what changed between a plan's inputs then and now, for each kind of input the plan id hashes. */
class PlanChangesTest {

    private static final String THEN = """
            3f2a
            false|false|true
            credential wiki=USABLE:aaaa1111
            2026-11-27|new
            2026-11-28|NEEDS_CREDENTIAL|3
            2026-11-29|new
            publish probe ABSENT
            publish request b1 body c1
            """;

    private static String said(String now, String... keys) {
        Said s = PlanChanges.listed(PlanChanges.between(THEN, now, List.of(keys)));
        return s == null ? null : s.english();
    }

    @Test
    void aRenewedCredentialAndAPausedJobAreNamed() {
        String now = THEN.replace("USABLE:aaaa1111", "USABLE:bbbb2222").replace("false|false|true", "true|false|true");
        assertThat(said(now, "2026-11-27", "2026-11-28", "2026-11-29"))
                .isEqualTo("the job was paused or resumed; credential wiki was renewed");
    }

    @Test
    void aCredentialTheSiteRejectedSinceIsNamedWithItsStatus() {
        String now = THEN.replace("USABLE:aaaa1111", "REJECTED:aaaa1111");
        assertThat(said(now, "2026-11-27", "2026-11-28", "2026-11-29"))
                .isEqualTo("credential wiki is rejected now, was usable");
    }

    @Test
    void aKeyUpdatedInItsStateAndWhatAStepSendsAreNamedOnceEach() {
        String now = THEN.replace("2026-11-28|NEEDS_CREDENTIAL|3", "2026-11-28|NEEDS_CREDENTIAL|4")
                .replace("request b1 body c1", "request b2 body c1");
        assertThat(said(now, "2026-11-27", "2026-11-28", "2026-11-29")).isEqualTo(
                "key 2026-11-28 was changed by a run or an operator; what publish sends for key 2026-11-29 changed");
    }

    @Test
    void aCredentialTheEditedJobNowUsesIsTheJobFilesChange() {
        String now = THEN.replace("3f2a", "4b4b").replace("credential wiki=USABLE:aaaa1111",
                "credential wiki=USABLE:aaaa1111\ncredential shop=USABLE:cccc3333");
        assertThat(said(now, "2026-11-27", "2026-11-28", "2026-11-29")).isEqualTo("the job file changed");
    }

    @Test
    void moreThanThreeChangesAreCounted() {
        String now = THEN.replace("3f2a", "9e9e").replace("false|false|true", "true|false|true")
                .replace("2026-11-27|new", "2026-11-27|DONE|2").replace("2026-11-28|NEEDS_CREDENTIAL|3",
                        "2026-11-28|SKIPPED|4").replace("2026-11-29|new", "2026-11-29|FAILED|1");
        assertThat(said(now, "2026-11-27", "2026-11-28", "2026-11-29")).isEqualTo(
                "the job file changed; the job was paused or resumed; key 2026-11-27: Done now, was not started; "
                        + "and 2 more changes");
    }

    @Test
    void aPlanSavedBeforeItsInputsWereKeptSaysNothingMore() {
        assertThat(PlanChanges.listed(PlanChanges.between(null, THEN, List.of("2026-11-27")))).isNull();
    }
}
