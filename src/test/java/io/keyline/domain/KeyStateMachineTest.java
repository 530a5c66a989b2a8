package io.keyline.domain;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeyStateMachineTest {

    @Test
    void illegalTransitionsThrowWithTheAllowedSources() {
        assertThatThrownBy(() -> KeyStateMachine.apply(KeyState.DONE, Trigger.CLAIM))
                .isInstanceOf(IllegalTransitionException.class)
                .hasMessageContaining("cannot claim a key in state DONE")
                .hasMessageContaining("PENDING").hasMessageContaining("RETRY_WAIT");
        assertThatThrownBy(() -> KeyStateMachine.apply(KeyState.DONE, Trigger.CONFIRM))
                .isInstanceOf(IllegalTransitionException.class);
        assertThatThrownBy(() -> KeyStateMachine.apply(KeyState.FAILED, Trigger.CLAIM))
                .isInstanceOf(IllegalTransitionException.class);
    }

    @Test
    void aDoneKeyIsLeftOnlyByAnOperatorsRearm() {
        for (Trigger t : Trigger.values()) {
            assertThat(KeyStateMachine.allows(KeyState.DONE, t)).as("DONE --%s-->", t).isEqualTo(t == Trigger.REARM);
        }
        assertThat(Trigger.REARM.byOperator()).isTrue();
        assertThat(KeyStateMachine.apply(KeyState.DONE, Trigger.REARM)).isEqualTo(KeyState.PENDING);
    }

    @Test
    void onlyOperatorsMoveKeysOutOfAttentionStatesOrAnExpiryThatNeverConfirms() {
        for (KeyStateMachine.Row r : KeyStateMachine.rows()) {
            if (r.from().needsAttention() && !r.trigger().byOperator()) {
                // the job file's confirm.expireAfter: the wait ends, the step does not run
                assertThat(r.trigger()).as(r.toString()).isIn(Trigger.EXPIRE_TO_SKIPPED, Trigger.EXPIRE_TO_FAILED);
                assertThat(r.from()).as(r.toString()).isEqualTo(KeyState.NEEDS_CONFIRMATION);
                assertThat(r.to()).as(r.toString()).isIn(KeyState.SKIPPED, KeyState.FAILED);
            }
        }
    }

    @Test
    void everyStateIsReachableFromPending() {
        Set<KeyState> seen = EnumSet.of(KeyState.PENDING);
        boolean grew = true;
        while (grew) {
            grew = false;
            for (KeyStateMachine.Row r : KeyStateMachine.rows()) {
                if (seen.contains(r.from()) && seen.add(r.to())) {
                    grew = true;
                }
            }
        }
        assertThat(seen).containsExactlyInAnyOrder(KeyState.values());
    }

    /** Renders the table as a Mermaid diagram; the README links the file, and it must be current. */
    @Test
    void theDocumentedDiagramMatchesTheTable() throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append("# Key states\n\n")
                .append("Generated from `KeyStateMachine` by `KeyStateMachineTest` - do not edit by hand.\n")
                .append("Operator actions are audited events (user and note).\n\n")
                .append("```mermaid\nstateDiagram-v2\n    [*] --> PENDING\n");
        for (KeyStateMachine.Row r : KeyStateMachine.rows()) {
            sb.append("    ").append(r.from()).append(" --> ").append(r.to()).append(" : ")
                    .append(r.trigger().name().toLowerCase(java.util.Locale.ROOT))
                    .append(r.trigger().byOperator() ? " (operator)" : "").append('\n');
        }
        sb.append("```\n\n| from | trigger | to |\n|---|---|---|\n");
        for (KeyStateMachine.Row r : KeyStateMachine.rows()) {
            sb.append("| ").append(r.from()).append(" | ").append(r.trigger().name().toLowerCase(java.util.Locale.ROOT))
                    .append(r.trigger().byOperator() ? " (operator)" : "").append(" | ").append(r.to()).append(" |\n");
        }
        Path doc = Path.of("docs", "key-states.md");
        String expected = sb.toString();
        if (!Files.exists(doc) || Boolean.getBoolean("keyline.regenerate.docs")) {
            Files.createDirectories(doc.getParent());
            Files.writeString(doc, expected, StandardCharsets.UTF_8);
        }
        assertThat(Files.readString(doc, StandardCharsets.UTF_8))
                .as("docs/key-states.md is stale: run mvn test -Dkeyline.regenerate.docs=true")
                .isEqualTo(expected);
    }
}
