package io.keyline.core.exec;

import io.keyline.core.exec.Conditions.Truth;
import io.keyline.domain.Condition;
import io.keyline.domain.Condition.Comparison;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Compared by JSON type, numbers by value, and three-valued where the answer cannot tell. */
class ConditionsTest {

    static Conditions.Answer answer(int status, String body, Map<String, List<String>> headers) {
        return new Conditions.Answer(status, headers, body.getBytes(StandardCharsets.UTF_8),
                io.keyline.core.match.ConditionText.Vars.NONE, io.keyline.core.match.Deadline.NONE);
    }

    static Conditions.Answer json(String body) {
        return answer(200, body, Map.of());
    }

    static Condition cmp(String pointer, Comparison c, String... canonicalOperands) {
        return new Condition.Compare(pointer, c, List.of(canonicalOperands));
    }

    static Truth truth(Condition c, Conditions.Answer a) {
        return Conditions.evaluate(c, a).truth();
    }

    @ParameterizedTest(name = "{0} equals {1}: {2}")
    @CsvSource(delimiter = '|', value = {
        "{\"total\": 0}      | 0       | TRUE",
        "{\"total\": 0.0}    | 0       | TRUE",
        "{\"total\": 1.50}   | 1.5     | TRUE",
        "{\"total\": 1e2}    | 100     | TRUE",
        "{\"total\": 3}      | 0       | FALSE",
        "{\"total\": \"0\"}  | 0       | UNKNOWN",
        "{\"total\": \"0\"}  | \"0\"   | TRUE",
        "{\"total\": 0}      | \"0\"   | UNKNOWN",
        "{\"total\": true}   | \"true\"| UNKNOWN",
        "{\"total\": true}   | true    | TRUE",
        "{\"total\": null}   | null    | TRUE",
        "{\"total\": null}   | 0       | FALSE",
        "{\"total\": [1,2]}  | [1,2]   | TRUE",
        "{\"total\": {\"b\":1,\"a\":2.0}} | {\"a\":2,\"b\":1} | TRUE",
        "{\"other\": 0}      | 0       | UNKNOWN",
        "not json            | 0       | UNKNOWN"})
    void equalsComparesByJsonTypeAndNumbersByValue(String body, String operand, Truth expected) {
        assertThat(truth(cmp("/total", Comparison.EQUALS, operand), json(body))).isEqualTo(expected);
    }

    @Test
    void theString0UnderNotEquals0CannotBeDecidedAndSaysWhy() {
        Conditions.Verdict v = Conditions.evaluate(cmp("/total", Comparison.NOT_EQUALS, "0"), json("{\"total\": \"0\"}"));
        assertThat(v.truth()).isEqualTo(Truth.UNKNOWN);
        assertThat(v.words().english()).isEqualTo("/total = \"0\" is a string, the condition compares with a number "
                + "(compared by JSON type)");
        assertThat(truth(cmp("/total", Comparison.NOT_EQUALS, "0"), json("{\"total\": 2}"))).isEqualTo(Truth.TRUE);
        assertThat(truth(cmp("/total", Comparison.NOT_EQUALS, "0"), json("{\"total\": 0}"))).isEqualTo(Truth.FALSE);
    }

    @Test
    void inAndNotInCompareWithTheOperandsOfTheSameType() {
        Condition in = cmp("/errcode", Comparison.IN, "40001", "42001", "\"x\"");
        assertThat(truth(in, json("{\"errcode\": 40001}"))).isEqualTo(Truth.TRUE);
        assertThat(truth(in, json("{\"errcode\": 40001.0}"))).isEqualTo(Truth.TRUE);
        assertThat(truth(in, json("{\"errcode\": 0}"))).isEqualTo(Truth.FALSE);
        assertThat(truth(in, json("{\"errcode\": \"x\"}"))).isEqualTo(Truth.TRUE);
        assertThat(truth(in, json("{\"errcode\": \"40001\"}"))).as("no string 40001 in the list").isEqualTo(Truth.FALSE);
        assertThat(truth(in, json("{\"errcode\": false}"))).isEqualTo(Truth.UNKNOWN);
        Condition notIn = cmp("/errcode", Comparison.NOT_IN, "0");
        assertThat(truth(notIn, json("{\"errcode\": 7}"))).isEqualTo(Truth.TRUE);
        assertThat(truth(notIn, json("{\"errcode\": 0}"))).isEqualTo(Truth.FALSE);
        assertThat(truth(notIn, json("{\"errcode\": \"7\"}"))).isEqualTo(Truth.UNKNOWN);
    }

    @Test
    void existsIsFalseForMissingAndNullAndUnknownWithoutJson() {
        Condition exists = new Condition.Exists("/items/0/id", true);
        assertThat(truth(exists, json("{\"items\": [{\"id\": 7}]}"))).isEqualTo(Truth.TRUE);
        assertThat(truth(exists, json("{\"items\": []}"))).isEqualTo(Truth.FALSE);
        assertThat(truth(exists, json("{\"items\": [{\"id\": null}]}"))).isEqualTo(Truth.FALSE);
        assertThat(truth(new Condition.Exists("/items/0/id", false), json("{\"items\": []}"))).isEqualTo(Truth.TRUE);
        assertThat(truth(exists, json("<html>login</html>"))).isEqualTo(Truth.UNKNOWN);
        assertThat(truth(new Condition.Exists("", true), json(""))).as("an empty body is not JSON").isEqualTo(Truth.UNKNOWN);
    }

    @Test
    void statusBodyAndHeaderConditions() {
        Conditions.Answer a = answer(302, "<a href=/login>log in</a>",
                Map.of("location", List.of("/login?next=%2F"), "X-Other", List.of("1")));
        assertThat(truth(new Condition.Status(List.of(301, 302)), a)).isEqualTo(Truth.TRUE);
        assertThat(truth(new Condition.Status(List.of(200)), a)).isEqualTo(Truth.FALSE);
        assertThat(truth(new Condition.BodyContains("log in"), a)).isEqualTo(Truth.TRUE);
        assertThat(truth(new Condition.BodyContains("Log In"), a)).as("case matters").isEqualTo(Truth.FALSE);
        assertThat(truth(new Condition.Header("Location", "^/login"), a)).as("header names ignore case").isEqualTo(Truth.TRUE);
        assertThat(truth(new Condition.Header("Location", "^/signin"), a)).isEqualTo(Truth.FALSE);
        assertThat(truth(new Condition.Header("Retry-After", ".*"), a)).isEqualTo(Truth.FALSE);
    }

    @Test
    void allAndAnyFollowKleenesThreeValuedLogic() {
        Condition t = new Condition.Status(List.of(200));
        Condition f = new Condition.Status(List.of(500));
        Condition u = cmp("/missing", Comparison.EQUALS, "1");
        Conditions.Answer a = json("{\"a\": 1}");
        assertThat(truth(new Condition.All(List.of(t, t)), a)).isEqualTo(Truth.TRUE);
        assertThat(truth(new Condition.All(List.of(t, u)), a)).isEqualTo(Truth.UNKNOWN);
        assertThat(truth(new Condition.All(List.of(u, f)), a)).isEqualTo(Truth.FALSE);
        assertThat(truth(new Condition.Any(List.of(f, f)), a)).isEqualTo(Truth.FALSE);
        assertThat(truth(new Condition.Any(List.of(f, u)), a)).isEqualTo(Truth.UNKNOWN);
        assertThat(truth(new Condition.Any(List.of(u, t)), a)).isEqualTo(Truth.TRUE);
        assertThat(truth(new Condition.All(List.of(t, new Condition.Any(List.of(f, t)))), a)).isEqualTo(Truth.TRUE);
    }

    @Test
    void theWholeBodyIsThePointerTheEmptyString() {
        assertThat(truth(cmp("", Comparison.EQUALS, "[]"), json("[ ]"))).isEqualTo(Truth.TRUE);
        assertThat(Conditions.evaluate(cmp("", Comparison.EQUALS, "[]"), json("[1]")).words().english())
                .isEqualTo("the body = [1]");
    }
}
