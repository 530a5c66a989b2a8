package io.keyline.domain;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class TemplateTest {

    private static List<String> names(String template) {
        return Template.scan(template).stream().map(Template.Placeholder::name).toList();
    }

    @Test
    void placeholdersAreListedInOrder() {
        assertThat(names("{job}/{key}-{runId}/{steps.write.outputs.path}/{key}"))
                .containsExactly("job", "key", "runId", "steps.write.outputs.path", "key");
        assertThat(names("no placeholders")).isEmpty();
        assertThat(names("{{\"a\": 1}}")).isEmpty();
    }

    @Test
    void scanGivesColumnsAndStepIds() {
        assertThat(Template.scan("ab{key}{steps.my_step-1.outputs.out-2}")).containsExactly(
                new Template.Placeholder("key", 3), new Template.Placeholder("steps.my_step-1.outputs.out-2", 8));
        assertThat(Template.scan("{steps.a.outputs.b}").get(0).stepId()).isEqualTo("a");
        assertThat(Template.scan("{key}").get(0).stepId()).isNull();
    }

    @Test
    void renderSubstitutesAndUnescapesBraces() {
        Map<String, String> values = Map.of("key", "2026-11-29", "steps.w.outputs.id", "42");

        assertThat(Template.render("{{\"date\": \"{key}\", \"id\": {steps.w.outputs.id}}}", values::get))
                .isEqualTo("{\"date\": \"2026-11-29\", \"id\": 42}");
        assertThat(Template.render("{{key}}", values::get)).isEqualTo("{key}");
        assertThat(Template.render("", values::get)).isEmpty();
    }

    @Test
    void renderRejectsUnresolvedPlaceholders() {
        assertThatIllegalArgumentException().isThrownBy(() -> Template.render("x{runId}", name -> null))
                .withMessage("unknown placeholder {runId}");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "out/{key.md          | 5 | unterminated \"{\" (write \"{{\" for a literal brace)",
            "{key                 | 1 | unterminated \"{\" (write \"{{\" for a literal brace)",
            "a{b{key}             | 2 | unterminated \"{\" (write \"{{\" for a literal brace)",
            "x{}                  | 2 | empty placeholder {} (write \"{{}}\" for literal braces)",
            "a}b                  | 2 | lone \"}\" (write \"}}\" for a literal brace)",
            "{date}               | 1 | unknown placeholder {date} (allowed: {key}, {job}, {runId}, {steps.ID.outputs.NAME})",
            "{steps.a.output.b}   | 1 | unknown placeholder {steps.a.output.b} (allowed: {key}, {job}, {runId}, {steps.ID.outputs.NAME})",
            "{steps..outputs.b}   | 1 | unknown placeholder {steps..outputs.b} (allowed: {key}, {job}, {runId}, {steps.ID.outputs.NAME})",
            "{ key }              | 1 | unknown placeholder { key } (allowed: {key}, {job}, {runId}, {steps.ID.outputs.NAME})",
    })
    void syntaxErrorsCarryTheColumn(String template, int column, String reason) {
        assertThatExceptionOfType(Template.SyntaxException.class).isThrownBy(() -> names(template))
                .satisfies(e -> {
                    assertThat(e.column()).isEqualTo(column);
                    assertThat(e.reason()).isEqualTo(reason);
                    assertThat(e).hasMessage(reason + " at column " + column);
                });
    }
}
