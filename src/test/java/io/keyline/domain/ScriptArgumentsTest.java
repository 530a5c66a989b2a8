package io.keyline.domain;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class ScriptArgumentsTest {

    /** The command line (arguments separated by " | ") and the indexes of its code arguments. */
    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "sh | -c | echo X;                                   2",
        "/bin/sh | -c | echo $1 | sh | X;                    2",
        "bash | -euo | pipefail | -c | X;                    4",
        "bash | -ec | X | arg0 | arg1;                       2",
        "bash | -o | pipefail | -c | X;                      4",
        "zsh | -c | X;                                       2",
        "dash | script.sh | X;                               1",
        "sh | -s | X;                                        2",
        "env | A=1 | B=2 | sh | -c | X;                      5",
        "env | -i | PATH=/bin | /bin/bash | -c | X;          5",
        "env | -S | sh -c X;                                 2",
        "/usr/bin/env | python3 | -c | X;                    3",
        "nice | -n | 5 | timeout | 30 | bash | -c | X;       7",
        "sudo | -u | app | sh | -c | X;                      5",
        "timeout | -s | KILL | 5 | sh | -c | X;              6",
        "xargs | -I | {} | sh | -c | X;                      5",
        "find | . | -name | *.md | -exec | sh | -c | X | sh | {} | +;  7",
        "su | app | -c | X;                                  3",
        "flock | /tmp/l | -c | X;                            3",
        "flock | /tmp/l | sh | -c | X;                       4",
        "watch | -n | 5 | echo | X;                          3,4",
        "watch | -x | echo | X;                              ''",
        "ssh | -p | 22 | host | ls | X;                      4,5",
        "python3 | -c | X;                                   2",
        "python3.11 | -I | -c | X;                           3",
        "python | -m | X;                                    2",
        "python3 | tool.py | X;                              1",
        "perl | -ne | X | file;                              2",
        "perl | -e | X | -e | Y;                             2,4",
        "ruby | -e | X;                                      2",
        "node | -e | X;                                      2",
        "node | --eval=X;                                    1",
        "node | app.js | X;                                  1",
        "php | -r | X;                                       2",
        "awk | -F | , | {print $1} | X;                      3",
        "gawk | -v | x=X | {print x};                        3",
        "awk | -f | prog.awk | X;                            2",
        "sed | -n | X | file;                                2",
        "sed | -e | X | file;                                2",
        "sed | -i.bak | -eX | file;                          2",
        "osascript | -e | X;                                 2",
        "pwsh | -Command | X | Y;                            2,3",
        "cmd.exe | /c | X;                                   2",
        "curl | -d | X | https://x;                          ''",
        "cp | X | Y;                                         ''",
        "git | commit | -m | X;                              ''",
        "jq | -r | .x | X;                                   ''",
        "./write-article.sh | X;                             ''",
        "runuser | -u | app | -- | sh | -c | X;              6",
    })
    void findsTheArgumentsThatAreCode(String line, String expected) {
        List<String> argv = Arrays.stream(line.split("\\|")).map(String::strip).toList();
        String found = ScriptArguments.find(argv).stream().map(c -> Integer.toString(c.index()))
                .collect(Collectors.joining(","));
        assertThat(found).as(String.join(" ", argv)).isEqualTo(expected == null ? "" : expected.strip());
    }
}
