package io.keyline.core.jobfile;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class CanonicalJsonTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "0                          | 0",
            "0.0                        | 0",
            "1.50                       | 1.5",
            "15e-1                      | 1.5",
            "1e2                        | 100",
            "-0.25                      | -0.25",
            "\"x\"                      | \"x\"",
            "\"a\\\"b\\u00e9\\n\"       | \"a\\\"b\u00e9\\n\"",
            "true                       | true",
            "null                       | null",
            "[ 1, [ ], { } ]            | [1,[],{}]",
            "{ \"b\": 1, \"a\": { \"d\": null, \"c\": [true] } } | {\"a\":{\"c\":[true],\"d\":null},\"b\":1}",
    })
    void canonicalText(String json, String canonical) throws Exception {
        assertThat(CanonicalJson.of(MAPPER.readTree(json))).isEqualTo(canonical);
    }
}
