package io.keyline.cli;

import io.keyline.text.Text;
import io.keyline.workspace.Demo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --help} says every command and option in both languages: each has a description in English and a
 * different one in Chinese, from the {@code cli} bundle ({@link HelpBundle}); and every help key of the bundle is
 * one that picocli asks for (a key with a typo would never be shown).
 */
class HelpTextTest {

    /** Keys picocli asks for that belong to no one command. */
    private static final Set<String> SHARED = Set.of("usage.synopsisHeading", "usage.commandListHeading",
            "mixinStandardHelpOptions.help", "mixinStandardHelpOptions.version", "helpOption");

    @AfterEach
    void english() {
        Text.use(Text.ENGLISH);
    }

    @Test
    void everyCommandAndOptionHasItsWordsInBothLanguages() {
        Map<String, String> english = descriptions();
        Text.use(Text.CHINESE);
        Map<String, String> chinese = descriptions();

        assertThat(english).hasSizeGreaterThan(100);
        assertThat(chinese.keySet()).isEqualTo(english.keySet());
        List<String> missing = new ArrayList<>();
        List<String> untranslated = new ArrayList<>();
        english.forEach((what, en) -> {
            if (en.isBlank() || chinese.get(what).isBlank()) {
                missing.add(what);
            } else if (en.equals(chinese.get(what))) {
                untranslated.add(what + ": " + en);
            }
        });
        assertThat(missing).as("commands and options without a description").isEmpty();
        assertThat(untranslated).as("descriptions that Chinese leaves in English").isEmpty();
        assertThat(english.get("keyline.sandbox --port")).contains(String.valueOf(Demo.DEFAULT_PORT));
        assertThat(english.get("keyline.demo --port")).contains(String.valueOf(Demo.DEFAULT_PORT));
    }

    @Test
    void everyHelpKeyOfTheBundleIsOnePicocliAsksFor() {
        Set<String> asked = new TreeSet<>(SHARED);
        walk(KeylineCli.commandLine(new KeylineCli()), spec -> {
            String q = spec.qualifiedName(".");
            asked.add(q + ".usage.description");
            asked.add(q + ".usage.footer");
            for (OptionSpec o : spec.options()) {
                String dk = o.descriptionKey();
                if (dk != null && !dk.isEmpty()) {
                    asked.add(q + "." + dk);
                    asked.add(dk);
                }
                for (String name : o.names()) {
                    asked.add(q + "." + name.replaceFirst("^-+", ""));
                }
            }
            for (PositionalParamSpec p : spec.positionalParameters()) {
                if (p.descriptionKey() != null && !p.descriptionKey().isEmpty()) {
                    asked.add(q + "." + p.descriptionKey());
                }
            }
        });
        List<String> unused = new ArrayList<>();
        for (String key : Text.bundle("cli").keySet()) {
            if (key.startsWith(HelpBundle.PREFIX)) {
                String k = key.substring(HelpBundle.PREFIX.length()).replaceFirst("\\.\\d+$", "");
                if (!asked.contains(k)) {
                    unused.add(key);
                }
            }
        }
        assertThat(unused).as("help keys no command or option asks for").isEmpty();
    }

    /** Every command's and option's description (lines joined), by "command" or "command option". */
    private static Map<String, String> descriptions() {
        Map<String, String> out = new LinkedHashMap<>();
        walk(KeylineCli.commandLine(new KeylineCli()), spec -> {
            String q = spec.qualifiedName(".");
            out.put(q, String.join("\n", spec.usageMessage().description()));
            for (OptionSpec o : spec.options()) {
                out.put(q + " " + o.longestName(), String.join("\n", o.description()));
            }
            for (PositionalParamSpec p : spec.positionalParameters()) {
                if (p.descriptionKey() != null && !p.descriptionKey().isEmpty()) {
                    out.put(q + " " + p.paramLabel(), String.join("\n", p.description()));
                }
            }
        });
        out.put("keyline footer", String.join("\n", Arrays.asList(KeylineCli.commandLine(new KeylineCli())
                .getCommandSpec().usageMessage().footer())));
        return out;
    }

    private static void walk(CommandLine cl, java.util.function.Consumer<CommandSpec> each) {
        each.accept(cl.getCommandSpec());
        for (CommandLine sub : cl.getSubcommands().values()) {
            walk(sub, each);
        }
    }
}
