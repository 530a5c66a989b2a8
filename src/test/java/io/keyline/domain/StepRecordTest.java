package io.keyline.domain;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StepRecordTest {

    /**
     * A step's outputs are shown in the order the step gave them (the job table's outcome, Confirm, the
     * timeline): the same record reads the same in every console, not in an order each JVM picks.
     */
    @Test
    void outputsKeepTheOrderTheStepGaveThem() {
        Map<String, String> given = new LinkedHashMap<>();
        List<String> names = List.of("file", "week", "words", "title", "url", "id", "size", "author", "lang", "tags");
        names.forEach(n -> given.put(n, "v-" + n));
        StepRecord r = new StepRecord("write", StepStatus.SUCCEEDED, 1, null, given, Instant.EPOCH);
        assertThat(r.outputs().keySet()).containsExactlyElementsOf(names);
        assertThatThrownBy(() -> r.outputs().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
        given.put("later", "not in the record");
        assertThat(r.outputs()).doesNotContainKey("later");
    }
}
