package io.keyline.cli;

import io.keyline.text.Text;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static io.keyline.text.Text.t;

/**
 * What a command line that does not parse is told: picocli's own sentence in English, the bundle's in Chinese for
 * the errors an operator makes most (an unknown option or a stray argument, a missing option, parameter or value,
 * a value that is not of its type), chosen by the exception's type and its option or value, never by its words.
 */
final class ParseErrors {

    private ParseErrors() {
    }

    /** The sentence for {@code ex}, raised while parsing {@code args}. */
    static String sentence(CommandLine.ParameterException ex, String[] args) {
        if (!Text.chinese()) {
            return ex.getMessage();
        }
        if (ex instanceof CommandLine.UnmatchedArgumentException u) {
            List<String> unmatched = u.getUnmatched();
            if (!unmatched.isEmpty()) {
                String first = unmatched.get(0);
                return t(first.startsWith("-") && first.length() > 1 ? "cli.parse.unknownOption" : "cli.parse.unmatched",
                        String.join(t("cli.parse.separator"), unmatched));
            }
        }
        if (ex instanceof CommandLine.MissingParameterException m && !m.getMissing().isEmpty()) {
            ArgSpec first = m.getMissing().get(0);
            if (first instanceof OptionSpec o && given(o, args)) {
                return t("cli.parse.missingValue", o.longestName(), o.paramLabel());
            }
            // picocli names one missing parameter in the exception and every one after it in its sentence
            List<? extends ArgSpec> missing = first instanceof PositionalParamSpec p
                    ? m.getCommandLine().getCommandSpec().positionalParameters().stream()
                    .filter(q -> q.required() && q.index().min() >= p.index().min()).toList()
                    : m.getMissing();
            String names = missing.stream().map(ParseErrors::name).collect(Collectors.joining(t("cli.parse.separator")));
            return t(first.isOption() ? "cli.parse.missingOption" : "cli.parse.missingParameter", names);
        }
        if (ex.getCause() instanceof CommandLine.TypeConversionException && ex.getArgSpec() != null) {
            ArgSpec arg = ex.getArgSpec();
            String value = ex.getValue() == null ? "" : ex.getValue();
            return t(arg.isOption() ? "cli.parse.invalidOptionValue" : "cli.parse.invalidParameterValue", name(arg),
                    value, expected(arg));
        }
        return t("cli.parse.other", ex.getMessage());
    }

    /** Whether the option is on the command line (its value is what is missing), not left out. */
    private static boolean given(OptionSpec o, String[] args) {
        return Arrays.stream(args).anyMatch(a -> Arrays.stream(o.names())
                .anyMatch(n -> a.equals(n) || a.startsWith(n + "=")));
    }

    private static String name(ArgSpec a) {
        return a instanceof OptionSpec o ? o.longestName() : a.paramLabel();
    }

    /** What the value should have been: a whole number, one of the listed words, or the option's value label. */
    private static String expected(ArgSpec a) {
        Class<?> type = a.auxiliaryTypes().length > 0 && a.isMultiValue() ? a.auxiliaryTypes()[0] : a.type();
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            return t("cli.parse.expectedNumber");
        }
        if (type.isEnum()) {
            return t("cli.parse.expectedOneOf", Arrays.stream(type.getEnumConstants()).map(String::valueOf)
                    .collect(Collectors.joining(t("cli.parse.separator"))));
        }
        return t("cli.parse.expectedLabel", a.paramLabel());
    }
}
